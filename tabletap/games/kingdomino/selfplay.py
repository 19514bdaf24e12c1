"""Kingdomino played by the engine alone: uniform and greedy play, and the figures a finished
game adds to its record (the variant bonuses every kingdom would earn)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any


def uniform(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
    return rng.choice(legal)


def greedy(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
    """Place for the most points now (one ply, own kingdom); claim, confirm and gems at random."""
    if len(legal) == 1 or legal[0].action != "place":
        return rng.choice(legal)
    player = engine.current_player(state)
    best, choice = -1, []
    for action in legal:
        points = engine.scores(engine.apply(state, action).state)[player]
        if points > best:
            best, choice = points, [action]
        elif points == best:
            choice.append(action)
    return rng.choice(choice)


def record(engine: Any, state: Any, players: list[str]) -> dict[str, Any]:
    """The variant bonuses each finished kingdom earns, whether or not the game played with
    that variant (so one run tells how often each would be earned)."""
    from tabletap.games.kingdomino.rules.scoring import variant_bonuses

    return {p: variant_bonuses(state.kingdoms[p].cells, state.size, True, True)
            for p in players}


def summary(records: list[dict[str, Any]], options: Mapping[str, Any]) -> dict[str, Any]:
    """How often each variant's bonus is earned over the finished games' kingdoms."""
    earned: Counter[str] = Counter()
    kingdoms = 0
    for bonuses_by_player in records:
        for bonuses in bonuses_by_player.values():
            kingdoms += 1
            earned.update(name for name, points in bonuses.items() if points)
    return {"bonuses": {
        name: {"kingdoms": earned[name], "rate": earned[name] / kingdoms if kingdoms else 0.0,
               "counted": bool(options.get(name, False))}
        for name in ("middle_kingdom", "harmony")
    }}
