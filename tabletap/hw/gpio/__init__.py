"""The `gpio` output backend: the chest latch, lights and buttons on the Pi's own pins.

Everything goes through gpiozero, so the same code runs on lgpio at the table (a Pi 5 needs it)
and on gpiozero's MockFactory with MockPWMPin under the simulator and in tests.
"""

from tabletap.hw.gpio.errors import GpioError

__all__ = ["GpioError"]
