"""The game seam: what a game is to tabletap (spec.py: the `GameSpec` a game's package exports),
how games are found (registry.py: the `tabletap.games` entry points) and what every game's table
layer builds on (base.py: `GameTable` and the table's inputs). The games themselves are plugins
(tabletap/games/<game>/, examples/memory); docs/ADDING-A-GAME.md is the recipe."""

from __future__ import annotations

from typing import Any

from tabletap.controller import legacy
from tabletap.controller.games.base import GameTable

legacy.install()


def table_for(game: str) -> GameTable:
    """A fresh table layer for `game`; raises Rejection(`unknown-game`)."""
    from tabletap.controller.games.registry import table_for as found

    return found(game)


def __getattr__(name: str) -> Any:
    # The old home of each game's table module, `tabletap.controller.games.<game>`, resolves
    # to the game's package (controller.legacy) for callers written before games were plugins.
    return legacy.submodule(__name__, name)


__all__ = ["GameTable", "table_for"]
