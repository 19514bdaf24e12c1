"""Key to the Kingdom played by the engine alone: the policies controller.selfplay.play runs
(the game's own purposeful player is rules/selfplay.py) and the seats it may use."""

from __future__ import annotations

import random
from typing import Any


def uniform(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
    return rng.choice(legal)


def purposeful(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
    """Head for the needed adventures; uniform play wanders for thousands of actions before
    anyone wins."""
    from tabletap.games.key_to_the_kingdom.rules.selfplay import purposeful_action

    return purposeful_action(state, rng)


def seats(players: int) -> list[str]:
    """The heroes of the default pack: the seats are the heroes."""
    from tabletap.games.key_to_the_kingdom.rules.pack import load_pack

    heroes = list(load_pack().heroes)
    if players > len(heroes):
        raise ValueError(f"Key to the Kingdom seats at most {len(heroes)} heroes")
    return heroes[:players]
