"""Kingdomino figures: how fast kingdoms are scored and legal placements enumerated.

Scoring runs at every `tabletap state`, every accepted action's score check and every end of
game; enumeration runs for every `discard` (it must prove there is no legal place) and for
self-play. The kingdoms measured are mid- and end-game kingdoms from seeded random games.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from tabletap.games.kingdomino.rules import ENGINE, KingdominoState
from tabletap.games.kingdomino.rules.dominoes import dominoes
from tabletap.games.kingdomino.rules.kingdom import legal_placements
from tabletap.games.kingdomino.rules.scoring import score_kingdom

SECONDS = 2.0  # each scorer's time in all
TURNS = 40  # the blocks it is timed in, the scorers taking turns (rates_by_turns)
# Issue 23's goal and figures for this game, judged by `python -m bench` (bench/goals.py).
GOALS = (("scorer_from_scratch_ratio", "from-scratch scorer / plain flood fill, same run", ">=",
          1.3, "x"),)
ASKED = ("scorer_from_scratch_per_s", "plain_fill_per_s")


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


def rates_by_turns(
    jobs: list[tuple[list[Any], Callable[[Any], object]]],
    seconds: float = SECONDS,
    turns: int = TURNS,
) -> list[float]:
    """Calls per second of each `(work, one)` job: `one(item)` over its `work` again and again,
    `seconds` in all, in `turns` blocks, the jobs taking turns (the first place passed on at
    each turn). A rate is a job's calls over its own blocks' time.

    Why turns: the figures that matter here are ratios between jobs ("≥ 1.3 × the plain
    flood fill in the same run"), and a shared machine's speed can move by two to four times
    within minutes (the one of docs/BENCHMARKS.md does). Timed one after the other, two seconds
    each, a slow spell fell on one job alone: `make bench` at 20:59 UTC on 2026-12-06 read the
    from-scratch scorer at 0.957 × the fill, where it read 1.52-1.61 × alone minutes later.
    Taking turns, every job meets the same spells (tests/bench/test_kingdomino_rates.py)."""
    count = len(jobs)
    calls, spent = [0] * count, [0.0] * count
    block = seconds / turns
    for turn in range(turns):
        for j in [(turn + k) % count for k in range(count)]:
            work, one = jobs[j]
            start = time.perf_counter()
            while True:
                for item in work:  # whole passes: the clock is read between them only
                    one(item)
                calls[j] += len(work)
                elapsed = time.perf_counter() - start
                if elapsed >= block:
                    break
            spent[j] += elapsed
    return [c / t for c, t in zip(calls, spent, strict=True)]


def plain_fill_score(cells: dict[tuple[int, int], tuple[str, int]]) -> int:
    """The yardstick: a straightforward flood fill over a dict of (terrain, crowns), the way
    most Kingdomino scorers are written. Not the project's scorer; measured beside it so the
    ratio means the same on any machine."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for start, (terrain, _) in cells.items():
        if start in seen or terrain == "castle":
            continue
        seen.add(start)
        stack, squares, crowns = [start], 0, 0
        while stack:
            r, c = stack.pop()
            squares += 1
            crowns += cells[(r, c)][1]
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if n not in seen and n in cells and cells[n][0] == terrain:
                    seen.add(n)
                    stack.append(n)
        total += squares * crowns
    return total


def run() -> list[tuple]:
    positions = _positions()
    kingdoms = [(s.kingdoms[p].cells, s.kingdoms[p].gems) for s, p in positions]
    plain = [
        {pos: (sq.terrain, sq.crowns) for pos, sq in cells.items()}
        for cells, gems in kingdoms
        if not gems
    ]
    engine_cells = [(cells, gems) for cells, gems in kingdoms if not gems]
    # the engine's kingdoms as play left them: their territories kept up to date square by
    # square (regions.Regions), which is what the engine's scores() sums
    grown = [s.kingdoms[p] for s, p in positions if not s.kingdoms[p].gems]
    assert all(k.regions is not None and k.regions.size == len(k.cells) for k in grown if k.placed)
    for (cells, _), flat, k in zip(engine_cells, plain, grown, strict=True):  # all agree
        assert plain_fill_score(flat) == score_kingdom(cells).score == k.points()

    # Each through one lambda, so each pays the same call on top of its own work. The
    # breakdown's Territory objects are built when first read: the fourth reads them too.
    fill, points, by_fill, read, scored = rates_by_turns([
        (plain, lambda flat: plain_fill_score(flat)),
        (grown, lambda k: k.points()),
        (engine_cells, lambda item: score_kingdom(item[0], item[1]).score),
        (engine_cells, lambda item: score_kingdom(item[0], item[1]).territories),
        (kingdoms, lambda item: score_kingdom(item[0], item[1])),
    ])

    all_dominoes = list(dominoes().values())
    work = [
        (s.kingdoms[p].cells, s.size, all_dominoes[i % 48]) for i, (s, p) in enumerate(positions)
    ]
    start = time.perf_counter()
    enumerations = placements = 0
    while time.perf_counter() - start < SECONDS:
        for cells, size, domino in work:
            placements += len(legal_placements(cells, size, domino))
            enumerations += 1
    elapsed = time.perf_counter() - start
    return [
        (
            "plain dict flood fill, kingdoms scored per second (yardstick)",
            fill,
            "1/s",
            "plain_fill_per_s",
        ),
        (
            "kingdoms scored per second (score only, no gems; the engine's scores(): the "
            "kingdom's territories kept as it grew)",
            points,
            "1/s",
            "kingdoms_scored_per_s",
        ),
        ("  ratio to the plain flood fill", points / fill, "x", "kingdoms_scored_ratio"),
        (
            "from-scratch scorer (score_kingdom, `tabletap score`'s: territories by labelling "
            "+ breakdown and its .score, no gems; its Territory objects are built only when "
            "read), kingdoms per second",
            by_fill,
            "1/s",
            "scorer_from_scratch_per_s",
        ),
        (
            "  ratio to the plain flood fill, same run",
            by_fill / fill,
            "x",
            "scorer_from_scratch_ratio",
        ),
        (
            "  the same with its territories read (Breakdown.territories), ratio to the plain "
            "flood fill",
            read / fill,
            "x",
            "scorer_with_territories_ratio",
        ),
        ("kingdoms scored per second (full breakdown, gems included)", scored, "1/s"),
        ("legal placements enumerated per second", placements / elapsed, "1/s"),
        ("kingdoms searched for legal placements per second", enumerations / elapsed, "1/s"),
    ]
