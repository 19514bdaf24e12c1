"""The simulated Pico: the firmware's own code behind a pseudo-terminal.

docs/CONTRACTS.md, "The simulator sits under the drivers".
"""

from tabletap.sim.board.board import SimBoard

__all__ = ["SimBoard"]
