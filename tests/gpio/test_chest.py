"""The latch servo: real pulse widths on the mock PWM pin, never past the limits."""

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tabletap.controller.loading.source import SourceError
from tabletap.controller.settings.config import SERVO_FRAME_SECONDS, ServoConfig, parse_config
from tabletap.hw.gpio.chest import GpioChest
from tabletap.sim.clock import VirtualClock


def widths(pin) -> list[float]:
    """Pulse widths (seconds) the pin carried: MockPWMPin's state is the duty cycle."""
    return [s.state * SERVO_FRAME_SECONDS for s in pin.states]


def test_boots_latched_and_opens_to_the_configured_pulse_widths(factory, clock):
    cfg = ServoConfig(pin=18, min_pulse_width=0.0005, max_pulse_width=0.0025, min_angle=-90,
                      max_angle=90, open_angle=60, closed_angle=-30, travel_seconds=0.5)
    chest = GpioChest(cfg, clock, factory)
    pin = factory.pin(18)
    assert pin.frequency == 50
    # -30 degrees of -90..90 is a third of the way: 0.5 ms + 1/3 * 2 ms
    assert pin.state * 0.02 == pytest.approx(0.0005 + 2e-3 / 3)
    assert not chest.is_open
    chest.set_open(True)
    assert chest.is_open
    assert pin.state * 0.02 == pytest.approx(0.0005 + 2e-3 * 150 / 180)
    assert chest.pulse_width == pytest.approx(0.0005 + 2e-3 * 150 / 180)
    assert clock.now() == pytest.approx(0.5)  # it travelled, on the injected clock
    chest.set_open(False)
    assert pin.state * 0.02 == pytest.approx(0.0005 + 2e-3 / 3)
    chest.close()


def test_travel_is_gradual_and_monotonic(factory, clock):
    cfg = ServoConfig(travel_seconds=0.5)
    chest = GpioChest(cfg, clock, factory)
    pin = factory.pin(cfg.pin)
    pin.clear_states()
    chest.set_open(True)
    seen = [s.state for s in pin.states[1:]]
    assert len(seen) == math.ceil(0.5 / SERVO_FRAME_SECONDS)  # one step per 20 ms frame
    assert seen == sorted(seen)
    chest.close()


def test_no_travel_time_jumps_in_one_step(factory, clock):
    chest = GpioChest(ServoConfig(travel_seconds=0), clock, factory)
    pin = factory.pin(18)
    pin.clear_states()
    chest.set_open(True)
    assert len(pin.states) == 2 and clock.now() == 0
    chest.close()


def test_a_command_past_the_limits_is_clamped(factory, clock):
    cfg = ServoConfig(min_angle=-45, max_angle=45, open_angle=40, closed_angle=-40,
                      min_pulse_width=0.001, max_pulse_width=0.002)
    chest = GpioChest(cfg, clock, factory)
    chest.move_to(400)
    assert chest.angle == 45
    assert factory.pin(18).state * 0.02 == pytest.approx(0.002)
    chest.move_to(-400)
    assert factory.pin(18).state * 0.02 == pytest.approx(0.001)
    assert min(w for w in widths(factory.pin(18)) if w) >= 0.001 - 1e-12
    chest.close()


def test_reversed_servo_still_reaches_its_angles(factory, clock):
    """min_angle > max_angle is how gpiozero mounts a servo that turns the other way."""
    cfg = ServoConfig(min_angle=90, max_angle=-90, open_angle=-60, closed_angle=30)
    chest = GpioChest(cfg, clock, factory)
    chest.set_open(True)
    # -60 on a 90..-90 scale: 150 of 180 degrees from min, as a pulse width
    assert factory.pin(18).state * 0.02 == pytest.approx(0.0005 + 2e-3 * 150 / 180)
    chest.close()


def test_detach_after_travel_stops_the_pulses(factory, clock):
    chest = GpioChest(ServoConfig(detach_after_travel=True), clock, factory)
    pin = factory.pin(18)
    assert pin.frequency is None and pin.state == 0
    chest.set_open(True)
    assert pin.frequency is None and chest.pulse_width is None
    assert max(widths(pin)) == pytest.approx(0.0005 + 2e-3 * 150 / 180)
    assert chest.angle == 60
    chest.close()


angles = st.floats(-180, 180, allow_nan=False)


@settings(max_examples=40, deadline=None)
@given(
    limits=st.tuples(angles, angles).filter(lambda t: abs(t[0] - t[1]) > 1),
    fractions=st.tuples(st.floats(0, 1), st.floats(0, 1)),
    pulses=st.tuples(st.floats(0.0003, 0.0012), st.floats(0.0015, 0.0028)),
    travel=st.floats(0, 1),
    moves=st.lists(st.one_of(st.booleans(), angles), max_size=6),
)
def test_never_past_the_pulse_limits(limits, fractions, pulses, travel, moves):
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    lo, hi = limits
    pick = [min(max(lo + (hi - lo) * f, min(lo, hi)), max(lo, hi)) for f in fractions]
    assume(abs(pick[0] - pick[1]) >= 1)  # the config refuses a latch that (almost) never moves
    cfg = ServoConfig(min_angle=lo, max_angle=hi, open_angle=pick[0], closed_angle=pick[1],
                      min_pulse_width=pulses[0], max_pulse_width=pulses[1],
                      travel_seconds=travel)
    factory = MockFactory(pin_class=MockPWMPin)
    chest = GpioChest(cfg, VirtualClock(), factory)
    for move in moves:
        if isinstance(move, bool):
            chest.set_open(move)
        else:
            chest.move_to(move)
    chest.close()
    sent = [w for w in widths(factory.pin(18)) if w]  # 0 = no pulses (start, close)
    assert sent
    assert all(pulses[0] - 1e-9 <= w <= pulses[1] + 1e-9 for w in sent)


@pytest.mark.parametrize("text, line, key", [
    ("chest:\n  servo:\n    open_angle: 120\n", 3, "chest.servo.open_angle"),
    ("chest:\n  servo:\n    min_angle: 0\n    max_angle: 90\n    closed_angle: -10\n",
     5, "chest.servo.closed_angle"),
    ("chest:\n  servo:\n    max_pulse_width: 0.0004\n", 3, "chest.servo.max_pulse_width"),
    ("chest:\n  servo:\n    max_pulse_width: 0.02\n", 3, "chest.servo.max_pulse_width"),
    ("chest:\n  servo:\n    min_angle: 10\n    max_angle: 10\n", 4, "chest.servo.max_angle"),
    ("chest:\n  servo:\n    open_angle: 10\n    closed_angle: 10\n", 4,
     "chest.servo.closed_angle"),
])
def test_config_refuses_angles_past_the_limits(text, line, key):
    with pytest.raises(SourceError) as err:
        parse_config(text, "box.yaml")
    assert err.value.key == key
    assert str(err.value).startswith(f"box.yaml:{line}:5: {key}")  # every key is in column 5


def test_doctor_sweep_is_small_and_returns_to_closed(factory, clock):
    chest = GpioChest(ServoConfig(), clock, factory)  # closed -30, open 60
    pin = factory.pin(18)
    pin.clear_states()
    report = chest.sweep(10)
    sent = [w for w in widths(pin)]
    assert max(sent) == pytest.approx(0.0005 + 2e-3 * 70 / 180)  # -20 degrees at most
    assert sent[-1] == pytest.approx(0.0005 + 2e-3 * 60 / 180)  # back to closed
    assert "swept 10°" in report and not chest.is_open


def test_doctor_sweep_towards_open_when_open_is_the_lower_angle(factory, clock):
    chest = GpioChest(ServoConfig(open_angle=-80, closed_angle=0), clock, factory)
    pin = factory.pin(18)
    pin.clear_states()
    chest.sweep(10)
    assert min(widths(pin)) == pytest.approx(0.0005 + 2e-3 * 80 / 180)  # -10 degrees


def test_doctor_sweep_with_detach_after_travel(factory, clock):
    """Each width is read while the pulses are on; afterwards the servo rests unpowered."""
    chest = GpioChest(ServoConfig(detach_after_travel=True), clock, factory)
    assert "1.167 → 1.278 → 1.167 ms" in chest.sweep(10)  # -30, -20, -30 degrees
    assert factory.pin(18).frequency is None


def test_a_latch_that_barely_moves_is_refused_by_the_config():
    """A swing under a degree is a typo, and would make every step of a sweep crawl."""
    with pytest.raises(SourceError) as err:
        parse_config("chest:\n  servo:\n    open_angle: 10\n    closed_angle: 10.2\n", "t.yaml")
    assert err.value.key == "chest.servo.closed_angle" and "at least 1 degree" in str(err.value)
