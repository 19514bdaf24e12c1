"""Oversiege played by the engine alone: weighted random play (so games reach their end) and
the greedy player (controller.selfplay.play runs them)."""

from __future__ import annotations

import random
from typing import Any

# Oversiege: how often the random player picks each kind of play when one of that kind is
# legal. Uniform play hardly ever lines up the key, so attacks and keys are favoured and games
# reach their end (the property tests' weights).
OVERSIEGE_WEIGHTS = {"key": 40, "attack": 12, "armament": 6, "rebuild": 3, "blockade": 3,
                     "discard": 2, "end-turn": 1}
# greedy: the most aggressive kind available, a random one of that kind
OVERSIEGE_ORDER = ("key", "attack", "armament", "blockade", "rebuild", "discard", "end-turn")


def weighted(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
    by_kind: dict[str, list[Any]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    kinds = sorted(by_kind)
    kind = rng.choices(kinds, [OVERSIEGE_WEIGHTS[k] for k in kinds])[0]
    return rng.choice(by_kind[kind])


def greedy(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
    rank = {k: i for i, k in enumerate(OVERSIEGE_ORDER)}
    best = min(rank[a.kind] for a in legal)
    return rng.choice([a for a in legal if rank[a.kind] == best])
