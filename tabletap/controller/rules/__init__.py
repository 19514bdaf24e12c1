"""Pure game engines, one subpackage per game, registered by game name."""

from __future__ import annotations

import importlib
from typing import Any

from tabletap.controller.rules.base import Engine, Event, Outcome, Rejection

# game name (as written in scenario files and configs) -> module holding `ENGINE`
_GAMES = {
    "magic-keys": "tabletap.controller.rules.magic_keys",
    "oversiege": "tabletap.controller.rules.oversiege",
    "kingdomino": "tabletap.controller.rules.kingdomino",
    "key-to-the-kingdom": "tabletap.controller.rules.key_to_the_kingdom",
}


def game_names() -> list[str]:
    return sorted(_GAMES)


def engine_for(game: str) -> Engine[Any, Any]:
    """The engine for a game name; raises Rejection(`unknown-game`) for any other name."""
    try:
        module = importlib.import_module(_GAMES[game])
    except KeyError:
        raise Rejection(
            "unknown-game", f"tabletap does not know a game called {game!r}; "
            f"it knows {', '.join(game_names())}."
        ) from None
    return module.ENGINE


__all__ = ["Engine", "Event", "Outcome", "Rejection", "engine_for", "game_names"]
