"""Choosing the gpiozero pin factory: the config's `pin_factory`, else `GPIOZERO_PIN_FACTORY`,
else gpiozero's own preference order (lgpio first, the only one that works on a Pi 5).

A factory object is handed to every device rather than set globally, so tests and the
simulator can run side by side without sharing pins.
"""

from __future__ import annotations

import os
import warnings

from gpiozero import Device
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory, MockPWMPin

from tabletap.controller import entrypoints
from tabletap.hw.gpio.errors import GpioError

FACTORY_GROUP = "gpiozero_pin_factories"


def pin_factory(name: str | None) -> Factory:
    """The factory called `name` (as gpiozero names them: lgpio, rpigpio, pigpio, native, mock).

    `None` defers to gpiozero: `GPIOZERO_PIN_FACTORY`, then its default order.
    """
    if name is None and os.environ.get("GPIOZERO_PIN_FACTORY", "").lower() == "mock":
        name = "mock"  # gpiozero's own mock factory has plain pins, which refuse PWM
    try:
        wanted = (name or os.environ.get("GPIOZERO_PIN_FACTORY") or "").lower()
        if wanted == "lgpio" or (name is None and not wanted):
            # gpiozero's lgpio pins round a servo's pulse to a whole percent (exact_pwm.py);
            # lgpio is also first in gpiozero's own order
            try:
                from tabletap.hw.gpio.exact_pwm import ExactPWMFactory

                return ExactPWMFactory()
            except Exception:
                if wanted:
                    raise
        if name is None:
            with warnings.catch_warnings(record=True) as fallbacks:
                warnings.simplefilter("always")
                try:
                    Device.ensure_pin_factory()
                except Exception as exc:  # noqa: BLE001 - say why each factory failed
                    why = "; ".join(str(w.message) for w in fallbacks) or str(exc)
                    raise RuntimeError(why) from None
            assert Device.pin_factory is not None
            return Device.pin_factory
        if name.lower() == "mock":
            # Servos and PWM LEDs need PWM; a plain MockPin would refuse them.
            return MockFactory(pin_class=MockPWMPin)
        known = {ep.name: ep for ep in entrypoints.select(FACTORY_GROUP)}
        ep = known.get(name) or known.get(name.lower())
        if ep is None:
            raise GpioError(
                f"pin_factory {name!r} is not a gpiozero pin factory "
                f"(installed: {', '.join(sorted(known))})"
            )
        return ep.load()()
    except GpioError:
        raise
    except Exception as exc:  # noqa: BLE001 - every factory fails differently off a Pi
        raise GpioError(
            f"no GPIO pin factory works here ({exc}). On a Raspberry Pi install lgpio, the only "
            "one that works on a Pi 5 (`pip install lgpio` in tabletap's venv, or "
            "`sudo apt install python3-lgpio` with a venv made with --system-site-packages), "
            "and set `pin_factory: lgpio`; anywhere else use --sim."
        ) from None
