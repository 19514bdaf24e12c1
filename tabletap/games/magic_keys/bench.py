"""Magic Keys' figure for `make bench`: the engine's legal actions and applies per second."""

from __future__ import annotations

import time

from tabletap.games.magic_keys.rules import ENGINE


def _engine_actions_per_second(seconds: float = 2.0) -> float:
    count, seed = 0, 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = ENGINE.new_game(["a", "b", "c"], seed, {"dice": "digital"}, {})
        seed += 1
        for i in range(400):
            legal = ENGINE.legal_actions(state)
            if not legal:
                break
            state = ENGINE.apply(state, legal[(i * 7919) % len(legal)]).state
            count += 1
    return count / (time.perf_counter() - started)


def run() -> list[tuple[str, float, str]]:
    return [("Magic Keys engine, digital dice, legal_actions + apply",
             _engine_actions_per_second(), "actions/s")]
