"""The latch servo: 50 Hz, smooth travel, and hard limits nothing can push it past."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletap.firmware import board, servo


class FakePWM:
    def __init__(self) -> None:
        self.duties: list[int] = []
        self.hz = 0

    def freq(self, f: int) -> None:
        self.hz = f

    def duty_u16(self, d: int) -> None:
        self.duties.append(d)

    def deinit(self) -> None:
        pass


def diff(a: int, b: int) -> int:
    return a - b


def test_the_documented_pulse_widths() -> None:
    # docs/hardware-notes.md: 500/1500/2500 us at 50 Hz are duty_u16 1638/4915/8191.
    assert [servo.duty_u16(us) for us in (500, 1500, 2500)] == [1638, 4915, 8191]


def test_travel_is_smooth_and_takes_the_configured_time() -> None:
    pwm = FakePWM()
    s = servo.Servo(pwm, dict(board.DEFAULTS, travel_s=0.5))
    assert pwm.hz == 50
    s.update(0, diff)
    start = pwm.duties[-1]
    s.set_open(True)
    times = []
    for t in range(0, 1000, 4):
        s.update(t, diff)
        if pwm.duties[-1] == servo.duty_u16(s.pulse_us(60)):
            times.append(t)
    assert 440 <= times[0] <= 520  # 90 degrees at 180 degrees/s
    assert pwm.duties == sorted(pwm.duties) and pwm.duties[0] == start
    assert len(pwm.duties) > 50


config = st.fixed_dictionaries({
    "min_us": st.integers(300, 3000), "max_us": st.integers(300, 3000),
    "min_angle": st.integers(-200, 200), "max_angle": st.integers(-200, 200),
    "open_angle": st.integers(-200, 200), "closed_angle": st.integers(-200, 200),
    "travel_s": st.floats(0, 20),
})


@given(config, st.lists(st.tuples(st.booleans(), st.integers(1, 400)), max_size=20))
@settings(max_examples=200)
def test_no_config_or_command_drives_the_servo_past_its_limits(update: dict, moves: list) -> None:
    try:
        cfg = board.check_config(update, board.DEFAULTS)
    except ValueError:
        cfg = dict(board.DEFAULTS)  # a bad cfg is refused and the old one stays
    pwm = FakePWM()
    s = servo.Servo(pwm, cfg)
    now = 0
    for open_, dt in moves:
        s.set_open(open_)
        now += dt
        s.update(now, diff)
    lo = servo.duty_u16(max(cfg["min_us"], servo.ABS_MIN_US))
    hi = servo.duty_u16(min(cfg["max_us"], servo.ABS_MAX_US))
    assert all(lo <= d <= hi for d in pwm.duties)


def test_a_sweep_goes_a_little_way_toward_open_and_comes_back() -> None:
    pwm = FakePWM()
    s = servo.Servo(pwm, dict(board.DEFAULTS, travel_s=0.5))
    s.update(0, diff)
    closed = pwm.duties[-1]
    s.sweep(10)
    for t in range(0, 400, 4):
        s.update(t, diff)
    peak = max(pwm.duties)
    assert peak == servo.duty_u16(s.pulse_us(-20))  # closed is -30: ten degrees toward open
    assert pwm.duties[-1] == closed and not s.opened
    s.set_open(True)
    try:
        s.sweep(10)
    except ValueError as e:
        assert "open" in str(e)
    else:
        raise AssertionError("a sweep with the latch open was accepted")
