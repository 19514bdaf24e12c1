"""Buttons and the lid switch: pin edges in, short and long presses out, via gpiozero's Button."""

import time

import pytest

from tabletap.controller.ports import InputEvent
from tabletap.hw.gpio.buttons import GpioButtons


@pytest.fixture
def make(factory, clock):
    made = []

    def build(**kw):
        kw.setdefault("long_press_seconds", 1.0)
        buttons = GpioButtons({"end-turn": 17, "roll": "GPIO27"}, kw.pop("lid_pin", 22), clock,
                              factory, **kw)
        made.append(buttons)
        return buttons

    yield build
    for b in made:
        b.close()


def test_a_short_press_is_reported_on_release(make, factory):
    buttons = make()
    pin = factory.pin(17)
    assert pin.pull == "up" and pin.state  # wired to ground, pulled up: released = high
    pin.drive_low()
    assert buttons.events() == []  # it might still become a long press
    pin.drive_high()
    assert buttons.events() == [InputEvent("end-turn", "press")]
    assert buttons.events() == []


def test_a_long_press_on_the_injected_clock(make, factory, clock):
    buttons = make()
    pin = factory.pin(27)
    pin.drive_low()
    clock.sleep(1.2)  # virtual time: gpiozero's hold thread never fires
    pin.drive_high()
    assert buttons.events() == [InputEvent("roll", "hold")]


def test_a_long_press_fires_while_still_held(make, factory):
    """At the table (wall clock) gpiozero's own when_held answers before the finger lifts."""
    buttons = make(long_press_seconds=0.05)
    pin = factory.pin(17)
    pin.drive_low()
    end = time.monotonic() + 2
    got = []
    while not got and time.monotonic() < end:
        time.sleep(0.01)
        got = buttons.events()
    assert got == [InputEvent("end-turn", "hold")]
    pin.drive_high()
    assert buttons.events() == []  # reported once, not again at release


def test_the_lid_switch(make, factory):
    buttons = make()
    lid = factory.pin(22)
    assert buttons.lid_closed is False
    lid.drive_low()
    assert buttons.lid_closed is True
    lid.drive_high()
    assert buttons.events() == [InputEvent("lid", "lid-closed"), InputEvent("lid", "lid-open")]


def test_no_lid_switch(make):
    assert make(lid_pin=None).lid_closed is None


def test_close_frees_the_pins(make, factory):
    from gpiozero import Button

    buttons = make()
    buttons.close()
    Button(17, pin_factory=factory).close()  # would raise GPIOPinInUse if still held


def test_readings_at_rest(make, factory):
    buttons = make()
    assert buttons.pressed() == {"end-turn": False, "roll": False}
    factory.pin(27).drive_low()  # a stuck button, or one wired to ground without its switch
    assert buttons.pressed() == {"end-turn": False, "roll": True}
    factory.pin(27).drive_high()  # or closing waits out gpiozero's hold timer
