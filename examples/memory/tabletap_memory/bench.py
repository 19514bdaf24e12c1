"""Memory's figures for `make bench`: the engine's legal actions and applies per second, and
whole greedy games per second (the greedy player reads the state's memory on every card)."""

from __future__ import annotations

import random
import time

from tabletap_memory.rules import ENGINE
from tabletap_memory.selfplay import greedy

SECONDS = 2.0


def _engine_actions_per_second(seconds: float) -> float:
    count, seed = 0, 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = ENGINE.new_game(["a", "b", "c"], seed, {}, {})
        seed += 1
        for i in range(1000):
            legal = ENGINE.legal_actions(state)
            if not legal:
                break
            state = ENGINE.apply(state, legal[(i * 7919 + seed) % len(legal)]).state
            count += 1
    return count / (time.perf_counter() - started)


def _greedy_games_per_second(seconds: float) -> float:
    games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        rng = random.Random(games)
        state = ENGINE.new_game(["a", "b", "c"], games, {}, {})
        while not ENGINE.is_over(state):
            legal = ENGINE.legal_actions(state)
            state = ENGINE.apply(state, greedy(ENGINE, state, legal, rng)).state
        games += 1
    return games / (time.perf_counter() - started)


def run() -> list[tuple[str, float, str]]:
    return [("Memory engine, default deck, legal_actions + apply",
             _engine_actions_per_second(SECONDS), "actions/s"),
            ("Memory greedy games, 3 players, default deck", _greedy_games_per_second(SECONDS),
             "games/s")]
