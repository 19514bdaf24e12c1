"""Simple simulated outputs behind the same ports as the real adapters.

`backend: sim` is the lightest wiring: a chest and lights that record what they were told, and
buttons that come from the simulated world. (Readers are always simulated under the real PN532
adapter: sim.pn532.) The GPIO and Pico wirings have their own simulated
forms (gpiozero's mock pins, the firmware behind a pseudo-terminal).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabletap.controller.ports import InputEvent, Outputs
from tabletap.controller.settings.config import Config
from tabletap.sim.world import SimWorld


@dataclass
class SimChest:
    world: SimWorld
    history: list[tuple[float, bool]] = field(default_factory=list)
    _open: bool = False

    def set_open(self, open_: bool) -> None:
        self._open = open_
        self.history.append((self.world.clock.now(), open_))

    @property
    def is_open(self) -> bool:
        return self._open

    def close(self) -> None:
        self._open = False


@dataclass
class SimLights:
    world: SimWorld
    history: list[tuple[float, str, str | None]] = field(default_factory=list)
    counts: list[int | None] = field(default_factory=list)
    levels: list[float] = field(default_factory=list)  # the brightness each show was at
    brightness: float = 1.0  # 0..1: below 1 at bedtime (controller.table.bedtime)
    _pattern: str = "off"

    def show(self, pattern: str, colour: str | None = None, count: int | None = None) -> None:
        self._pattern = pattern
        self.history.append((self.world.clock.now(), pattern, colour))
        self.counts.append(count)
        self.levels.append(self.brightness)

    def set_brightness(self, fraction: float) -> None:
        self.brightness = fraction

    @property
    def pattern(self) -> str:
        return self._pattern

    def close(self) -> None:
        self._pattern = "off"


@dataclass
class SimButtons:
    world: SimWorld

    def events(self) -> list[InputEvent]:
        drained = list(self.world.inputs)
        self.world.inputs.clear()
        return drained

    def close(self) -> None:
        pass


def _world(context: dict[str, Any]) -> SimWorld:
    world = context.get("world")
    if not isinstance(world, SimWorld):
        raise ValueError("the simulated adapters need a SimWorld in context['world']")
    return world


def build_outputs(config: Config, context: dict[str, Any]) -> Outputs:
    world = _world(context)
    outputs = Outputs(SimChest(world), SimLights(world), SimButtons(world))
    context["outputs"] = outputs  # the console shows them (tabletap.sim.console)
    return outputs
