"""The simulated Pico: the firmware's own code behind a pseudo-terminal (DESIGN.md, "Serial")."""

from tabletap.sim.board.board import SimBoard

__all__ = ["SimBoard"]
