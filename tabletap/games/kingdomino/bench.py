"""Kingdomino figures: how fast kingdoms are scored and legal placements enumerated.

Scoring runs at every `tabletap state`, every accepted action's score check and every end of
game; enumeration runs for every `discard` (it must prove there is no legal place) and for
self-play. The kingdoms measured are mid- and end-game kingdoms from seeded random games.
"""

from __future__ import annotations

import random
import time

from tabletap.games.kingdomino.rules import ENGINE, KingdominoState
from tabletap.games.kingdomino.rules.dominoes import dominoes
from tabletap.games.kingdomino.rules.kingdom import legal_placements
from tabletap.games.kingdomino.rules.scoring import score_kingdom
from tabletap.games.kingdomino.rules.state import Kingdom

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

    def fill_one(item: dict) -> int:
        plain_fill_score(item)
        return 1

    def score_one(item: tuple) -> int:
        score_kingdom(item[0], item[1])
        return 1

    def points_one(item: Kingdom) -> int:
        return 1 if item.points() >= 0 else 0

    def breakdown_points_one(item: tuple) -> int:
        return 1 if score_kingdom(item[0], item[1]).score >= 0 else 0

    def breakdown_read_one(item: tuple) -> int:
        # the breakdown's Territory objects are built when first read: read them too
        return 1 if score_kingdom(item[0], item[1]).territories else 0

    fill, _ = _rate(plain, fill_one)
    points, _ = _rate(grown, points_one)
    by_fill, _ = _rate(engine_cells, breakdown_points_one)
    read, _ = _rate(engine_cells, breakdown_read_one)
    scored, _ = _rate(kingdoms, score_one)

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
