"""Scoring a kingdom: territories × crowns, gem quarters, skulls and the variant bonuses.

Pure and shared: the engine scores live kingdoms with it and `tabletap score kingdomino` scores
kingdom files with it, so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tabletap.games.kingdomino.rules.dominoes import CASTLE
from tabletap.games.kingdomino.rules.kingdom import (
    Cells,
    Pos,
    bounds,
    corner_cells,
)
from tabletap.games.kingdomino.rules.treasures import (
    QUARTERS,
    SKULL,
    Quarter,
    gem_types_for_victory,
)

MIDDLE_KINGDOM_BONUS = 10  # Middle Kingdom variant: castle in the centre
HARMONY_BONUS = 5  # Harmony variant: a complete kingdom, nothing discarded


@dataclass(frozen=True)
class PlacedGem:
    """A gem token on a corner (named by the corner's north-west square); quarters nw, ne, se,
    sw as they lie in the kingdom, already turned."""

    kind: str
    corner: Pos
    quarters: tuple[Quarter, Quarter, Quarter, Quarter]
    token: str = ""


@dataclass(frozen=True)
class Territory:
    """Orthogonally connected squares of one landscape."""

    terrain: str
    cells: tuple[Pos, ...]
    crowns: int  # printed on its squares
    gem_crowns: int = 0  # added by gem quarters pointing into it
    skulls: int = 0  # skull quarters pointing into it: it scores 0

    @property
    def squares(self) -> int:
        return len(self.cells)

    @property
    def points(self) -> int:
        if self.skulls:
            return 0
        return self.squares * (self.crowns + self.gem_crowns)

    def to_json(self) -> dict[str, object]:
        return {
            "terrain": self.terrain,
            "squares": self.squares,
            "crowns": self.crowns,
            "gem_crowns": self.gem_crowns,
            "skulls": self.skulls,
            "points": self.points,
            "cells": [list(p) for p in self.cells],
        }


@dataclass(frozen=True)
class GemScore:
    gem: PlacedGem
    targets: tuple[int, int, int, int]  # index of the territory each quarter points into

    @property
    def crowns(self) -> int:
        return sum(q for q in self.gem.quarters if isinstance(q, int))

    def to_json(self) -> dict[str, object]:
        return {
            "gem": self.gem.kind,
            "token": self.gem.token or self.gem.kind,
            "corner": list(self.gem.corner),
            "quarters": {
                name: {"value": value, "territory": target}
                for name, value, target in zip(
                    QUARTERS, self.gem.quarters, self.targets, strict=True
                )
            },
            "crowns": self.crowns,
        }


@dataclass(frozen=True)
class Breakdown:
    territories: tuple[Territory, ...]
    gems: tuple[GemScore, ...] = ()
    bonuses: dict[str, int] = field(default_factory=dict)

    @property
    def score(self) -> int:
        return sum(t.points for t in self.territories) + sum(self.bonuses.values())

    @property
    def largest_territory(self) -> int:
        """First tie-break: the size of the largest territory."""
        return max((t.squares for t in self.territories), default=0)

    @property
    def crowns(self) -> int:
        """Second tie-break: every crown in the kingdom, gem crowns included."""
        return sum(t.crowns + t.gem_crowns for t in self.territories)

    @property
    def immediate_victory(self) -> bool:
        return gem_types_for_victory([g.gem.kind for g in self.gems])

    def to_json(self) -> dict[str, object]:
        return {
            "score": self.score,
            "territories": [t.to_json() for t in self.territories],
            "gems": [g.to_json() for g in self.gems],
            "bonuses": dict(self.bonuses),
            "largest_territory": self.largest_territory,
            "crowns": self.crowns,
            "immediate_victory": self.immediate_victory,
        }


def find_territories(cells: Cells) -> list[tuple[str, list[Pos]]]:
    """The landscapes' connected squares (never the castle), in reading order of each first
    square, each territory's squares in reading order."""
    return [(terrain, group) for terrain, group, _ in _territories(cells)]


def _territories(cells: Cells) -> list[tuple[str, list[Pos], int]]:
    """(landscape, squares, printed crowns) of each territory, by one scan in reading order:
    a square joins the territory above or to its left when it is of the same landscape, and
    the two are merged when it joins both (connected-component labelling, union-find). Each
    square is looked at once, two neighbours each, where a flood fill looks at four and keeps a
    visited set: this is what makes the from-scratch scorer (`tabletap score`) faster than the
    plain fill it is measured beside (bench.kingdomino)."""
    label: dict[int, int] = {}  # by r * ROW + c: no tuple built to look a neighbour up
    at: list[Pos] = []
    labels: list[int] = []
    parent: list[int] = []
    terrains: list[str] = []
    crowns: list[int] = []
    get = label.get
    for pos in sorted(cells):  # keys, not items: sorting pairs costs twice as much
        square = cells[pos]
        terrain = square.terrain
        if terrain == CASTLE:
            continue
        key = pos[0] * ROW + pos[1]
        up = get(key - ROW)
        left = get(key - 1)
        if up is not None and terrains[up] != terrain:
            up = None
        if left is not None and terrains[left] != terrain:
            left = None
        if up is None:
            if left is None:
                lab = len(parent)
                parent.append(lab)
                terrains.append(terrain)
                crowns.append(0)
            else:
                lab = left
        elif left is None or left == up:
            lab = up
        else:
            lab = _union(parent, up, left)
        label[key] = lab
        at.append(pos)
        labels.append(lab)
        crowns[lab] += square.crowns
    roots = list(range(len(parent)))
    for lab in roots:
        root = lab
        while parent[root] != root:
            root = parent[root]
        if root != lab:
            roots[lab] = root
            crowns[root] += crowns[lab]
    index: dict[int, list[Pos]] = {}  # by root, in the reading order of first squares
    for pos, lab in zip(at, labels, strict=True):  # reading order, as labelled
        group = index.get(roots[lab])
        if group is None:
            index[roots[lab]] = [pos]
        else:
            group.append(pos)
    return [(terrains[root], group, crowns[root]) for root, group in index.items()]


ROW = 1 << 8  # |column| < 128 in any kingdom: r * ROW + c numbers each square once


def _union(parent: list[int], a: int, b: int) -> int:
    """Merge the territories of labels a and b; returns the merged one's label."""
    while parent[a] != a:
        a = parent[a]
    while parent[b] != b:
        b = parent[b]
    if a == b:
        return a
    low, high = (a, b) if a < b else (b, a)
    parent[high] = low
    return low


def _territory(terrain: str, cells: tuple[Pos, ...], crowns: int, gem_crowns: int,
               skulls: int) -> Territory:
    """A Territory without the frozen dataclass's field-by-field `__init__` (a kingdom has a
    dozen; building them was a third of a from-scratch score). Same fields, same value."""
    t = object.__new__(Territory)
    t.__dict__.update(terrain=terrain, cells=cells, crowns=crowns, gem_crowns=gem_crowns,
                      skulls=skulls)
    return t


def score_kingdom(
    cells: Cells, gems: Sequence[PlacedGem] = (), bonuses: dict[str, int] | None = None
) -> Breakdown:
    """Each territory scores squares × (crowns + gem crowns pointing in), or 0 under a skull."""
    groups = _territories(cells)
    gem_crowns = [0] * len(groups)
    skulls = [0] * len(groups)
    scored: list[GemScore] = []
    if gems:
        owner: dict[Pos, int] = {}
        for index, (_, group, _) in enumerate(groups):
            for pos in group:
                owner[pos] = index
        for gem in gems:
            targets = tuple(owner[p] for p in corner_cells(gem.corner))
            for value, target in zip(gem.quarters, targets, strict=True):
                if value == SKULL:
                    skulls[target] += 1
                else:
                    gem_crowns[target] += int(value)
            scored.append(GemScore(gem, targets))  # type: ignore[arg-type]
    territories = tuple([
        _territory(terrain, tuple(group), crowns, gem_crowns[i], skulls[i])
        for i, (terrain, group, crowns) in enumerate(groups)
    ])
    return Breakdown(territories, tuple(scored), dict(bonuses or {}))


def castle_position(cells: Cells) -> Pos:
    return next(p for p, sq in cells.items() if sq.terrain == CASTLE)


def is_middle_kingdom(cells: Cells, size: int) -> bool:
    """Middle Kingdom: the kingdom spans the full size×size square with the castle at its centre."""
    cr, cc = castle_position(cells)
    rmin, rmax, cmin, cmax = bounds(cells)
    half = size // 2
    return (rmin, rmax, cmin, cmax) == (cr - half, cr + half, cc - half, cc + half)


def is_harmony(cells: Cells, size: int) -> bool:
    """Harmony: every square of the size×size kingdom is filled (so nothing was discarded)."""
    return len(cells) == size * size


def variant_bonuses(cells: Cells, size: int, middle_kingdom: bool, harmony: bool) -> dict[str, int]:
    out: dict[str, int] = {}
    if middle_kingdom and is_middle_kingdom(cells, size):
        out["middle_kingdom"] = MIDDLE_KINGDOM_BONUS
    if harmony and is_harmony(cells, size):
        out["harmony"] = HARMONY_BONUS
    return out


def tie_key(breakdowns: Iterable[Breakdown]) -> tuple[int, int, int]:
    """(points, largest territory, crowns), summed over a Dynasty's games."""
    items = list(breakdowns)
    return (
        sum(b.score for b in items),
        sum(b.largest_territory for b in items),
        sum(b.crowns for b in items),
    )
