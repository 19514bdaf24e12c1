"""Light patterns on real gpiozero devices over mock PWM pins: duty cycles per colour pin."""

import time

import pytest

from tabletap.controller.patterns import PATTERNS
from tabletap.controller.settings.config import LightsConfig
from tabletap.hw.gpio import GpioError
from tabletap.hw.gpio.lights import GpioLights

RGB_PINS = [12, 13, 19]


def duties(factory, pins=RGB_PINS) -> tuple[float, ...]:
    return tuple(round(factory.pin(p).state, 3) for p in pins)


def wait_for(predicate, timeout=2.0) -> bool:
    """Animations run in gpiozero's own threads on the wall clock; poll briefly."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return False


@pytest.fixture
def lights(factory):
    lights = GpioLights(LightsConfig(kind="rgb", pins=RGB_PINS), factory)
    yield lights
    lights.close()


def test_solid_patterns_set_each_colour_pin(lights, factory):
    lights.show("accepted")  # green (0, 200, 0)
    assert duties(factory) == (0.0, round(200 / 255, 3), 0.0)
    assert lights.pattern == "accepted"
    lights.show("turn", "blue")  # the player's colour
    assert duties(factory) == (0.0, 0.0, 1.0)
    lights.show("off")
    assert duties(factory) == (0.0, 0.0, 0.0)


def test_common_anode_inverts_the_duty(factory):
    lights = GpioLights(LightsConfig(kind="rgb", pins=RGB_PINS, active_high=False), factory)
    lights.show("turn", "red")
    assert duties(factory) == (0.0, 1.0, 1.0)  # low = lit on a common-anode LED
    lights.close()


def test_blink_alternates_in_the_background(lights, factory):
    lights.show("rejected")  # blinking red
    red = factory.pin(12)
    assert wait_for(lambda: {s.state for s in red.states} >= {0.0, 1.0}
                    and len(red.states) >= 3)
    assert all(factory.pin(p).state == 0 for p in (13, 19))


def test_pulse_fades_through_intermediate_levels(lights, factory):
    lights.show("idle")  # white pulse
    green = factory.pin(13)
    assert wait_for(lambda: any(0.05 < s.state < 0.7 for s in green.states))
    assert wait_for(lambda: any(0.05 < s.state < 0.7 for s in factory.pin(12).states))


def test_rainbow_turns_through_colours(lights, factory):
    lights.show("win")
    assert wait_for(lambda: len({s.state for s in factory.pin(13).states}) >= 3)
    lights.show("accepted")  # a new pattern stops the rainbow for good
    settled = duties(factory)
    time.sleep(0.15)
    assert duties(factory) == settled == (0.0, round(200 / 255, 3), 0.0)


def test_every_named_pattern_renders(lights):
    for name in PATTERNS:
        lights.show(name)
        assert lights.pattern == name


def test_unknown_pattern_is_refused_and_changes_nothing(lights, factory):
    lights.show("accepted")
    before = duties(factory)
    with pytest.raises(ValueError, match="unknown light pattern 'acepted'"):
        lights.show("acepted")
    assert lights.pattern == "accepted" and duties(factory) == before


def test_pwm_leds_show_brightness(factory):
    lights = GpioLights(LightsConfig(kind="pwm", pins=[20, 21]), factory)
    lights.show("turn", "brown")  # (120, 60, 20): brightness of its strongest channel
    assert duties(factory, [20, 21]) == (round(120 / 255, 3),) * 2
    lights.show("rejected")
    assert wait_for(lambda: {s.state for s in factory.pin(20).states} >= {0.0, 1.0})
    lights.close()


def test_wiring_mistakes_are_explained(factory):
    with pytest.raises(GpioError, match="needs 3 pins"):
        GpioLights(LightsConfig(kind="rgb", pins=[12, 13]), factory)
    with pytest.raises(GpioError, match="Pico"):
        GpioLights(LightsConfig(kind="neopixel"), factory)


def test_a_counted_turn_flashes_the_count_then_rests_on_the_colour(lights, factory):
    """Oversiege: the turn lights show how many cards the next player draws (here 3 flashes)."""
    lights.show("turn", "blue", count=3)
    seen: list[tuple[float, ...]] = []

    def record() -> bool:
        now = duties(factory)
        if not seen or seen[-1] != now:
            seen.append(now)
        return len(seen) >= 8

    assert wait_for(record, timeout=4.0)
    bright = (0.0, 0.0, 1.0)
    dim = (0.0, 0.0, 0.1)
    assert set(seen) == {bright, dim}  # only the player's colour, flashing
    lights.show("turn", "blue")
    assert duties(factory) == bright  # no count: steady again
