"""Kingdomino figures: how fast kingdoms are scored and legal placements enumerated.

Scoring runs at every `tabletap state`, every accepted action's score check and every end of
game; enumeration runs for every `discard` (it must prove there is no legal place) and for
self-play. The kingdoms measured are mid- and end-game kingdoms from seeded random games.
"""

from __future__ import annotations

import random
import time

from tabletap.controller.rules.kingdomino import ENGINE, KingdominoState
from tabletap.controller.rules.kingdomino.dominoes import dominoes
from tabletap.controller.rules.kingdomino.kingdom import legal_placements
from tabletap.controller.rules.kingdomino.scoring import score_kingdom

SECONDS = 2.0


def _positions(games: int = 6) -> list[tuple[KingdominoState, str]]:
    """(state, player) pairs sampled along seeded random 4-player games."""
    out = []
    for seed in range(games):
        s = ENGINE.new_game(["a", "b", "c", "d"], seed, {}, {})
        rng = random.Random(seed)
        step = 0
        while not ENGINE.is_over(s):
            s = ENGINE.apply(s, rng.choice(ENGINE.legal_actions(s))).state
            step += 1
            if step % 9 == 0:
                out.extend((s, p) for p in s.players)
        out.extend((s, p) for p in s.players)
    return out


def _rate(work: list, one: object) -> tuple[float, int]:
    """Run `one(item)` over `work` in a loop for SECONDS; (calls per second, units counted)."""
    calls = units = 0
    start = time.perf_counter()
    while True:
        for item in work:
            units += one(item)  # type: ignore[operator]
            calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= SECONDS:
            return calls / elapsed, units


def run() -> list[tuple[str, float, str]]:
    positions = _positions()
    kingdoms = [(s.kingdoms[p].cells, s.kingdoms[p].gems) for s, p in positions]

    def score_one(item: tuple) -> int:
        score_kingdom(item[0], item[1])
        return 1

    scored, _ = _rate(kingdoms, score_one)

    all_dominoes = list(dominoes().values())
    work = [(s.kingdoms[p].cells, s.size, all_dominoes[i % 48]) for i, (s, p) in
            enumerate(positions)]
    start = time.perf_counter()
    enumerations = placements = 0
    while time.perf_counter() - start < SECONDS:
        for cells, size, domino in work:
            placements += len(legal_placements(cells, size, domino))
            enumerations += 1
    elapsed = time.perf_counter() - start
    return [
        ("kingdoms scored per second", scored, "1/s"),
        ("legal placements enumerated per second", placements / elapsed, "1/s"),
        ("kingdoms searched for legal placements per second", enumerations / elapsed, "1/s"),
    ]
