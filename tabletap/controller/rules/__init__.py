"""What every game's engine builds on: the engine contract (base.py), bounded YAML loading
(bounded.py, yamldoc.py) and structural sharing of states (sharing.py). The engines themselves
live in their games' packages (tabletap/games/<game>/rules/), found through
controller.games.registry."""

from __future__ import annotations

from typing import Any

from tabletap.controller import legacy  # noqa: E402
from tabletap.controller.rules.base import Engine, Event, Outcome, Rejection

legacy.install()


def game_names() -> list[str]:
    from tabletap.controller.games.registry import game_names as names

    return names()


def engine_for(game: str) -> Engine[Any, Any]:
    """The engine for a game name; raises Rejection(`unknown-game`) for any other name."""
    from tabletap.controller.games.registry import engine_for as found

    return found(game)


def __getattr__(name: str) -> Any:
    # `tabletap.controller.rules.<game>`, the engines' old home, resolves to the game's
    # package (controller.legacy) for callers written before games were plugins.
    from tabletap.controller.legacy import submodule

    return submodule(__name__, name)


__all__ = ["Engine", "Event", "Outcome", "Rejection", "engine_for", "game_names"]
