"""The simulator's context for adapter factories: a world, its clock, and the sim flag."""

from __future__ import annotations

from typing import Any

from controller.ports import Clock
from sim.clock import VirtualClock
from sim.world import SimWorld


def make_context(clock: Clock | None = None) -> dict[str, Any]:
    """A fresh simulated table; `clock` defaults to virtual time (the scenario runner's)."""
    world = SimWorld(clock=clock or VirtualClock())  # type: ignore[arg-type]
    return {"sim": True, "world": world, "clock": world.clock}
