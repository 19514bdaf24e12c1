"""`backend: gpio`: the chest, lights and buttons on the Pi's own GPIO pins.

Found by the entry point `gpio` in the group `tabletap.backends`. Under the simulator the context
carries simulated pins (gpiozero's MockFactory with MockPWMPin, wired to the SimWorld by
`tabletap.sim.gpio_pins`); they are found by the entry point `gpio` in
`tabletap.simulated_pins`, so hw never imports sim and the very same gpiozero devices run on them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, Protocol, TypeVar

from gpiozero.pins import Factory

from tabletap.controller import entrypoints
from tabletap.controller.clock import SystemClock
from tabletap.controller.ports import Outputs
from tabletap.controller.settings.config import Config
from tabletap.hw.gpio.buttons import GpioButtons
from tabletap.hw.gpio.chest import GpioChest
from tabletap.hw.gpio.errors import GpioError
from tabletap.hw.gpio.factory import pin_factory
from tabletap.hw.gpio.lights import GpioLights

SIMULATED_PINS = "tabletap.simulated_pins"

T = TypeVar("T")


class SimulatedPins(Protocol):
    """What the simulator hands us: a pin factory, and a pump that turns the world's button
    presses and lid changes into edges on those pins."""

    factory: Factory

    def pump(self, buttons: Mapping[str, str | int], lid_pin: str | int | None,
             long_press_seconds: float) -> None: ...


def simulated_pins(context: dict[str, Any]) -> SimulatedPins:
    """The simulated pins in `context["gpio_pins"]`, made (and stored there) on first use."""
    pins = context.get("gpio_pins")
    if pins is None:
        found = entrypoints.select(SIMULATED_PINS, "gpio")
        if not found:
            raise GpioError("--sim with backend: gpio needs the simulated pins (entry point "
                            f"'gpio' in {SIMULATED_PINS}); is tabletap installed "
                            "(pip install -e .)?")
        pins = next(iter(found)).load()(context)
        context["gpio_pins"] = pins
    return pins


def _part(key: str, make: Callable[[], T]) -> T:
    """Build one device, naming the config key when the wiring is wrong (a pin used twice,
    a pin that does not exist, PWM where there is none)."""
    try:
        return make()
    except GpioError:
        raise
    except Exception as exc:  # noqa: BLE001 - gpiozero raises many kinds; all mean bad wiring
        raise GpioError(f"{key}: {exc}") from exc


def build_outputs(config: Config, context: dict[str, Any]) -> Outputs:
    clock = context.get("clock") or SystemClock()
    pins = simulated_pins(context) if context.get("sim") or "gpio_pins" in context else None
    factory = pins.factory if pins is not None else pin_factory(config.pin_factory)
    built: list[Any] = []
    try:
        chest = _part("chest.servo", lambda: GpioChest(config.chest.servo, clock, factory))
        built.append(chest)
        lights = _part("lights", lambda: GpioLights(config.lights, factory))
        built.append(lights)
        pump = None
        if pins is not None:
            pump = partial(pins.pump, dict(config.buttons), config.chest.lid_pin,
                           config.long_press_seconds)
        buttons = _part("buttons", lambda: GpioButtons(
            config.buttons, config.chest.lid_pin, clock, factory,
            long_press_seconds=config.long_press_seconds,
            bounce_seconds=config.button_bounce_seconds, before_events=pump))
    except Exception:
        for part in reversed(built):
            part.close()
        raise
    return Outputs(chest, lights, buttons)
