"""The table layer per game, found by game name."""

from __future__ import annotations

import importlib

from tabletap.controller.games.base import GameTable
from tabletap.controller.rules.base import Rejection

# game name -> "module:class" of its GameTable
_TABLES = {
    "magic-keys": "tabletap.controller.games.magic_keys:MagicKeysTable",
    "oversiege": "tabletap.controller.games.oversiege:OversiegeTable",
    "kingdomino": "tabletap.controller.games.kingdomino:KingdominoTable",
    "key-to-the-kingdom": "tabletap.controller.games.key_to_the_kingdom:KttkTable",
}


def table_for(game: str) -> GameTable:
    """A fresh table layer for `game`; raises Rejection(`unknown-game`)."""
    try:
        module_name, cls_name = _TABLES[game].split(":")
    except KeyError:
        raise Rejection(
            "unknown-game",
            f"tabletap does not know a game called {game!r}; "
            f"it knows {', '.join(sorted(_TABLES))}.",
        ) from None
    return getattr(importlib.import_module(module_name), cls_name)()
