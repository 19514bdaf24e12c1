"""Bedtime for the lights (issue 21, `lights.quiet: {start, end, brightness}`): during the quiet
hours every light shows at the configured brightness, outside them as bright as by day. Checked
on each output: the simulated Pico (the frames its ring was drawn with), `backend: sim` (what
its lights recorded) and an RGB LED and PWM LEDs on mock pins (their duty cycles)."""

from __future__ import annotations

import datetime
import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from tabletap.controller.settings.config import Config, LightsConfig
from tabletap.controller.table.adapters import build_outputs
from tabletap.controller.table.bedtime import BedtimeLights
from tabletap.hw.gpio.lights import GpioLights
from tabletap.sim.context import make_context

QUIET = {"start": "19:30", "end": "07:00", "brightness": 25}


class Wall:
    """The clock on the wall, set by the test."""

    def __init__(self, hour: int, minute: int = 0) -> None:
        self.now = datetime.time(hour, minute)

    def __call__(self) -> datetime.time:
        return self.now


def test_the_picos_frames_are_scaled_in_the_quiet_hours_and_not_outside() -> None:
    context = make_context()
    config = Config.model_validate({"backend": "serial", "lights": {"quiet": QUIET}})
    outputs = build_outputs(config, context)
    rec = context["pico"].recorder
    lights = outputs.lights
    assert isinstance(lights, BedtimeLights)
    wall = Wall(15)
    lights.wall = wall
    try:
        lights.show("turn", "purple")  # (160, 0, 255) by day
        assert rec.wait_for(lambda: rec.colours() == ((160, 0, 255),) * 12)
        wall.now = datetime.time(20, 15)
        lights.show("turn", "purple")  # 25 %: level 64 of 255, each pixel scaled on the board
        assert rec.wait_for(lambda: rec.colours() == ((40, 0, 64),) * 12)
        shows = [e.body for e in rec.executed if e.body["op"] == "show"]
        assert "level" not in shows[0] and shows[-1]["level"] == 64
        wall.now = datetime.time(7, 0)  # bedtime over: the resting picture brightens by itself
        lights.tick()
        assert rec.wait_for(lambda: rec.colours() == ((160, 0, 255),) * 12)
        wall.now = datetime.time(23, 59)  # and a picture resting at bedtime dims by itself
        lights.tick()
        assert rec.wait_for(lambda: rec.colours() == ((40, 0, 64),) * 12)
    finally:
        outputs.close()


def test_the_simulators_lights_record_the_brightness_of_each_show() -> None:
    context = make_context()
    config = Config.model_validate({"backend": "sim", "lights": {"quiet": QUIET}})
    outputs = build_outputs(config, context)
    lights = outputs.lights
    wall = Wall(6, 59)  # before 07:00: still bedtime
    lights.wall = wall
    lights.show("turn", "red")
    wall.now = datetime.time(12, 0)
    lights.show("turn", "red")
    wall.now = datetime.time(19, 29)
    lights.show("accepted")
    wall.now = datetime.time(19, 30)
    lights.show("accepted")
    assert lights.levels == [0.25, 1.0, 1.0, 0.25]  # the simulator's own record
    assert [h[1] for h in lights.history] == ["turn", "turn", "accepted", "accepted"]
    outputs.close()


def test_without_quiet_hours_the_lights_are_not_wrapped() -> None:
    outputs = build_outputs(Config(backend="sim"), make_context())
    assert not isinstance(outputs.lights, BedtimeLights)
    outputs.close()


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    """Mock PWM pins of this test's own (as tests/gpio's)."""
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.reset()


def wait_for(predicate, timeout: float = 2.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def test_an_rgb_led_and_pwm_leds_dim_their_duty_cycle(factory) -> None:
    quiet = LightsConfig.model_validate({"quiet": QUIET}).quiet
    rgb = BedtimeLights(GpioLights(LightsConfig(kind="rgb", pins=[12, 13, 19]), factory),
                        quiet, Wall(21), check_seconds=None)
    pwm = BedtimeLights(GpioLights(LightsConfig(kind="pwm", pins=[5, 6]), factory),
                        quiet, Wall(21), check_seconds=None)
    try:
        rgb.show("turn", "blue")
        assert tuple(round(factory.pin(p).state, 3) for p in (12, 13, 19)) == (0.0, 0.0, 0.25)
        pwm.show("turn", "white")
        assert [round(factory.pin(p).state, 3) for p in (5, 6)] == [0.25, 0.25]
        pwm.show("rejected")  # a blink: never above the bedtime duty
        seen: set[float] = set()
        wait_for(lambda: seen.add(round(factory.pin(5).state, 3)) or len(seen) > 1)
        assert seen <= {0.0, 0.25} and 0.25 in seen
        rgb.wall = Wall(10)
        rgb.show("turn", "blue")
        assert round(factory.pin(19).state, 3) == 1.0
    finally:
        rgb.close()
        pwm.close()


class Pixels(list):
    """A NeoPixel strip as the firmware's Ring writes it."""

    def write(self) -> None:
        pass


def test_the_boards_ring_scales_by_the_level_and_takes_a_bad_one_for_full() -> None:
    from tabletap.firmware.patterns import Ring

    for level, want in ((64, (40, 0, 64)), (255, (160, 0, 255)), (0, (160, 0, 255)),
                        ("64", (160, 0, 255)), (True, (160, 0, 255))):
        ring = Ring(Pixels([(0, 0, 0)] * 3), 3)
        ring.show("turn", "purple", 0, None, level)
        ring.update(100, lambda a, b: a - b)
        assert list(ring.np) == [want] * 3, level
