"""The table layer's base (base.py): what every game's table layer builds on. The games
themselves are plugins (tabletap/games/<game>/, found through controller.registry)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletap.controller.games.base import GameTable


from tabletap.controller import legacy  # noqa: E402

legacy.install()


def table_for(game: str) -> GameTable:
    """A fresh table layer for `game`; raises Rejection(`unknown-game`)."""
    from tabletap.controller.registry import table_for as found

    return found(game)


def __getattr__(name: str) -> Any:
    # The old home of each game's table module, `tabletap.controller.games.<game>`, resolves
    # to the game's package (controller.legacy) for callers written before games were plugins.
    from tabletap.controller.legacy import submodule

    return submodule(__name__, name)
