"""The chest's servo through lgpio keeps its pulse width (hw/gpio/exact_pwm.py).

gpiozero 2.0.1's lgpio pins round a PWM duty cycle down to a whole percent: at 50 Hz the chest's
closed angle, 1.167 ms, became 1.0 ms, as `tabletap doctor` on the emulated Pi 3 showed
(image/pi_boot_test.py, which runs the real lgpio on the Pi's emulated GPIO block). lgpio does
not build on this machine without a GPIO chip to open, so here a stand-in for the `lgpio`
module records what the pin hands to `tx_pwm`; the layer under test is gpiozero's pin class and
ours above it.
"""

from __future__ import annotations

import sys
import types

import pytest


@pytest.fixture
def lgpio(monkeypatch: pytest.MonkeyPatch) -> types.SimpleNamespace:
    sent: list[tuple[int, int, float, float]] = []
    fake = types.ModuleType("lgpio")
    fake.error = type("error", (Exception,), {})  # type: ignore[attr-defined]
    fake.tx_pwm = lambda handle, gpio, freq, duty: sent.append((handle, gpio, freq, duty))  # type: ignore[attr-defined]
    for name in ("SET_PULL_NONE", "SET_PULL_UP", "SET_PULL_DOWN", "BOTH_EDGES", "RISING_EDGE",
                 "FALLING_EDGE", "SET_ACTIVE_LOW", "SET_OPEN_DRAIN", "SET_OPEN_SOURCE"):
        setattr(fake, name, 0)
    monkeypatch.setitem(sys.modules, "lgpio", fake)
    for module in ("gpiozero.pins.lgpio", "tabletap.hw.gpio.exact_pwm"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    return types.SimpleNamespace(sent=sent)


def _pwm_pin(cls: type) -> object:
    """A pin of `cls` already in PWM at 50 Hz, as gpiozero's Servo leaves it (no chip opened)."""
    pin = object.__new__(cls)
    pin.__dict__.update(_pwm=(50, 0), _number=18, _factory=types.SimpleNamespace(_handle=3))
    return pin


def test_a_servo_pulse_reaches_lgpio_as_given(lgpio: types.SimpleNamespace):
    from tabletap.hw.gpio.exact_pwm import ExactPWMPin

    pin = _pwm_pin(ExactPWMPin)
    closed = 0.0011666 / 0.02  # the chest's closed angle, -30 degrees, as a duty cycle
    pin._set_state(closed)  # type: ignore[attr-defined]
    assert lgpio.sent[-1][:3] == (3, 18, 50)
    assert lgpio.sent[-1][3] == pytest.approx(closed * 100)
    assert pin._get_state() == pytest.approx(closed)  # type: ignore[attr-defined]


def test_gpiozeros_own_lgpio_pin_rounds_it_to_a_percent(lgpio: types.SimpleNamespace):
    """What the test above guards against, so that it fails while gpiozero still rounds (and
    tells us to drop exact_pwm.py once it does not)."""
    from gpiozero.pins.lgpio import LGPIOPin

    pin = _pwm_pin(LGPIOPin)
    pin._set_state(0.0011666 / 0.02)  # type: ignore[attr-defined]
    assert lgpio.sent[-1][3] == 5
    assert pin._get_state() * 0.02 == pytest.approx(0.001)  # type: ignore[attr-defined]
