"""Complete random games per CPU-second, per game and table (the self-play fast path).

Each variant plays seeded games with the `random` policy of controller.selfplay (uniform over the
legal actions, or weighted by kind where a game's uniform play would not reach its end) for a CPU-
time budget, and reports games per CPU-second (process time, so a busy shared machine slows the
figure less than wall time would). Run: `python -m bench games`.
"""

from __future__ import annotations

import time

from tabletap.controller.selfplay.play import VARIANTS, play_game, seat_names

BUDGET = 3.0  # CPU seconds per variant
# issue 23: "not lower than now", judged side by side, since this machine's speed moves between
# hours more than any stored figure would allow (bench/goals.py; docs/BENCHMARKS.md)
ASKED = ("games_per_cpu_s",)
GOAL_NOTES = ("random games per CPU-second, not lower than the tree the issue was filed on: "
                   "judged side by side, .venv/bin/python -m bench.games_compare 9a59140",)


def games_per_cpu_s(variant: str, budget: float = BUDGET) -> tuple[float, float]:
    """(games per CPU-second, mean actions per game) over at least `budget` CPU seconds."""
    game, players, options = VARIANTS[variant]
    names = seat_names(game, players)
    started = time.process_time()
    games = actions = 0
    while True:
        record = play_game(game, names, games, "random", options)
        if not record.finished:
            raise RuntimeError(f"{variant} seed {games}: the game did not end")
        games += 1
        actions += record.actions
        spent = time.process_time() - started
        if spent >= budget:
            return games / spent, actions / games


def run() -> list[tuple]:
    out: list[tuple] = []
    for variant in VARIANTS:
        rate, length = games_per_cpu_s(variant)
        out.append((f"{variant}: random complete games per CPU-second", rate, "games/cpu-s",
                    ("games_per_cpu_s", variant)))
        out.append((f"{variant}: mean actions per game", length, "actions"))
    return out
