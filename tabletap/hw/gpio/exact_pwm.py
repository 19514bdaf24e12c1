"""gpiozero's lgpio pins, with the PWM duty cycle kept as given.

gpiozero 2.0.1's `LGPIOPin` stores a PWM pin's state as a whole percentage
(`int(value * 100)`) and hands that to `lgpio.tx_pwm`, whose duty cycle is a float: at a
servo's 50 Hz one percent is 0.2 ms, a fifth of the servo's whole travel, so the chest's latch
could only be put at five or six angles and its closed angle (1.167 ms) came out as 1.0 ms.
Reported upstream (github.com/gpiozero/gpiozero/issues/1209, open). `tabletap doctor` on the
emulated Pi 3 found it: its servo sweep reads the pulse back from the pin. These pins keep the
value; everything else is gpiozero's.
"""

from __future__ import annotations

import lgpio
from gpiozero.exc import PinInvalidState
from gpiozero.pins.lgpio import LGPIOFactory, LGPIOPin


class ExactPWMPin(LGPIOPin):
    def _get_state(self) -> float | bool:
        if self._pwm:
            return self._pwm[1] / 100
        return super()._get_state()

    def _set_state(self, value: float) -> None:
        if not self._pwm:
            super()._set_state(value)
            return
        freq, _ = self._pwm
        self._pwm = (freq, value * 100)
        try:
            lgpio.tx_pwm(self.factory._handle, self._number, freq, value * 100)
        except lgpio.error:
            raise PinInvalidState(f'invalid state "{value}" for pin {self!r}') from None


class ExactPWMFactory(LGPIOFactory):
    """gpiozero's lgpio factory making ExactPWMPin pins."""

    def __init__(self, chip: int | None = None) -> None:
        super().__init__(chip)
        self.pin_class = ExactPWMPin
