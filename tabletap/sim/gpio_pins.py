"""Simulated GPIO pins for `backend: gpio`: gpiozero's own MockFactory with MockPWMPin, wired to
the SimWorld.

The world records presses as events; here each becomes real edges on the button's mock pin
(drive_low, then drive_high), so gpiozero's Button code, and the gpio backend's handling of it,
produce the events the daemon sees. A long press keeps the pin low for `long_press_seconds` on
the simulation's clock, which is virtual, so holding a button costs no real time. The mock pins
keep their history (`MockPin.states`), which is how a test or the scenario runner shows the
servo's real pulse widths.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from tabletap.controller.ports import Clock
from tabletap.controller.settings.config import SERVO_FRAME_SECONDS
from tabletap.sim.world import SimWorld

log = logging.getLogger("tabletap.sim.gpio")

HOLD_MARGIN = 0.05  # a long press lasts a little longer than the threshold, as fingers do
HISTORY_LIMIT = 20_000  # pin changes kept per pin: animated LEDs change 25 times a second
HISTORY_KEEP = 5_000


class SimPins:
    def __init__(self, context: dict[str, Any]) -> None:
        world = context.get("world")
        if not isinstance(world, SimWorld):
            raise ValueError("the simulated GPIO pins need a SimWorld in context['world']")
        self.world = world
        self.clock: Clock = context.get("clock") or world.clock
        self.factory = MockFactory(pin_class=MockPWMPin)

    def pin(self, spec: str | int) -> MockPin:
        """The mock pin for a config pin name (17, "GPIO17", "BCM17", "BOARD11" ...)."""
        return self.factory.pin(spec)

    def pulse_widths(self, spec: str | int) -> list[float]:
        """Every servo pulse width the pin carried, in seconds, in order (0 = no pulses)."""
        return [float(s.state) * SERVO_FRAME_SECONDS for s in self.pin(spec).states]

    def pump(self, buttons: Mapping[str, str | int], lid_pin: str | int | None,
             long_press_seconds: float) -> None:
        """Turn the world's queued presses and lid changes into pin edges."""
        inputs = self.world.inputs
        while inputs:
            event = inputs.popleft()
            if event.kind in ("lid-open", "lid-closed"):
                if lid_pin is None:
                    log.warning("the lid moved, but no lid switch is wired (chest.lid_pin)")
                    continue
                pin = self.pin(lid_pin)
                (pin.drive_low if event.kind == "lid-closed" else pin.drive_high)()
                continue
            if event.name not in buttons:
                log.warning("button %r was pressed, but no such button is wired (buttons: %s)",
                            event.name, ", ".join(buttons) or "none")
                continue
            pin = self.pin(buttons[event.name])
            pin.drive_low()
            if event.kind == "hold":
                self.clock.sleep(long_press_seconds + HOLD_MARGIN)
            pin.drive_high()
        self._trim()

    def _trim(self) -> None:
        for pin in self.factory.pins.values():
            if len(pin.states) > HISTORY_LIMIT:
                del pin.states[:-HISTORY_KEEP]
