"""What every game's engine builds on: the engine contract (base.py) and structural sharing of
states (sharing.py); bounded loading of the games' data is controller/loading/. The engines
themselves live in their games' packages (tabletap/games/<game>/rules/), found through
controller.games.registry."""

from __future__ import annotations

from typing import Any

from tabletap.controller import legacy  # noqa: E402
from tabletap.controller.rules.base import Engine, Event, Outcome, Rejection

legacy.install()


def __getattr__(name: str) -> Any:
    # `tabletap.controller.rules.<game>`, the engines' old home, resolves to the game's
    # package, and `engine_for` / `game_names` to the registry's (controller.legacy), for
    # callers written before games were plugins.
    return legacy.attribute(__name__, name)


__all__ = ["Engine", "Event", "Outcome", "Rejection", "engine_for", "game_names"]
