"""Key to the Kingdom: random complete games per CPU-second on the stand-in pack.

A game is played by the engine alone (rules, legal-move listing, the pack) from a fresh state to
a win, by self-play. `random` picks uniformly among legal actions (thousands of actions a game);
`purposeful` heads for the adventures it needs (a few hundred). CPU time, not wall time, so a
busy machine does not distort the figure.
"""

from __future__ import annotations

import random
import time

from tabletap.games.key_to_the_kingdom.rules import ENGINE
from tabletap.games.key_to_the_kingdom.rules.selfplay import play_out

HEROES = ["knight", "wizard", "ranger", "rogue", "paladin"]
GAMES = 3


def _games_per_cpu_s(heroes: int, purposeful: bool, games: int = GAMES) -> float:
    started = time.process_time()
    done = 0
    for seed in range(games):
        state = ENGINE.new_game(HEROES[:heroes], seed, {"digital_events": True}, {})
        end, _ = play_out(state, random.Random(seed), purposeful=purposeful, limit=60000)
        done += end.over
    return done / (time.process_time() - started)


def run() -> list[tuple]:
    out: list[tuple] = []
    for n in (2, 3, 5):
        out.append((f"key-to-the-kingdom/{n} random complete games",
                    _games_per_cpu_s(n, False), "games-per-cpu-s",
                    ("games_per_cpu_s", f"key-to-the-kingdom/{n}")))
        out.append((f"key-to-the-kingdom/{n} purposeful complete games",
                    _games_per_cpu_s(n, True), "games-per-cpu-s"))
    return out
