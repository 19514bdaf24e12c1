"""Scoring a kingdom: territories × crowns, gem quarters, skulls and the variant bonuses.

Pure and shared: the engine scores live kingdoms with it and `tabletap score kingdomino` scores
kingdom files with it, so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

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
    """A kingdom's score explained. `score_kingdom` makes it, for a kingdom without gems,
    without building the Territory objects: it keeps the scan they come from (`_scan`, as
    `_scanned`) and the score it summed from it, and `territories` is built from the scan the
    first time it is read (`__getattr__`). Building a dozen Territory objects costs half as much
    again as finding the territories, and many breakdowns are made for their score alone."""

    territories: tuple[Territory, ...]
    gems: tuple[GemScore, ...] = ()
    bonuses: dict[str, int] = field(default_factory=dict)

    def __getattr__(self, name: str) -> object:
        """Only ever reached for `territories` of a breakdown `score_kingdom` made (every other
        field and property is found first): build them from its scan, once."""
        scan = self.__dict__.get("_scanned")
        if name != "territories" or scan is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        territories, _ = _build(scan)
        self.__dict__["territories"] = territories  # as the fields are set: see score_kingdom
        return territories

    @cached_property
    def score(self) -> int:
        """Territory points and bonuses; `score_kingdom` fills the cache in with the sum it made
        as it scanned (the fields are frozen, so it never goes stale)."""
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
    return [(t.terrain, list(t.cells)) for t in _build(_scan(cells))[0]]


# Each square (r, c) with |r|, |c| <= SPAN is numbered (r + SPAN + 1) * WIDTH + c + SPAN: the
# square above is key - WIDTH, the one to the left key - 1, and row 0 and column WIDTH - 1 (15)
# are never squares, so the first row and column find an empty neighbour there instead of a
# bounds check. Any 7×7 kingdom fits, wherever its castle; `_scan` numbers larger ones itself.
SPAN = 7
WIDTH = 16
_KEY: dict[Pos, int] = {
    (r, c): (r + SPAN + 1) * WIDTH + c + SPAN
    for r in range(-SPAN, SPAN + 1)
    for c in range(-SPAN, SPAN + 1)
}

# What one scan found, as it left it: by label (label 0 is "no square"), the landscape, the
# squares in the order they were met (None once merged into a lower label), the printed crowns;
# and whether any two labels were merged (their squares then need sorting again).
Scan = tuple[list[str | None], list[list[Pos] | None], list[int], bool]


def _scan(cells: Cells) -> Scan:
    """Label the territories in one pass over the squares in reading order: a square takes the
    label of the square above or to its left when it is of the same landscape, and when both
    are, with different labels, the higher label's squares are relabelled to the lower (rare:
    it takes a U-shaped territory). Labels are kept in a `bytearray` board indexed by `_KEY`
    (a board of 256 bytes is made in no time, and indexing it builds no tuple and no hash),
    and each territory's squares, crowns and landscape in lists indexed by label. The castle is
    labelled like a landscape and dropped by `_build`, which saves a test per square.

    This is what makes the from-scratch scorer (`tabletap score`) faster than the plain flood
    fill it is measured beside (bench.kingdomino): each square is looked at once, against two
    neighbours already labelled, where a flood fill builds and looks up four neighbour tuples
    and keeps a visited set."""
    try:
        return _label(cells, _KEY, WIDTH, bytearray(WIDTH * WIDTH))
    except KeyError:  # a square beyond SPAN: number this kingdom's squares from its corner
        rmin, rmax, cmin, cmax = bounds(cells)
        width = cmax - cmin + 2  # the last column stays empty, as above
        key = {(r, c): (r - rmin + 1) * width + c - cmin for r, c in cells}
        return _label(cells, key, width, [0] * ((rmax - rmin + 2) * width))


def _label(cells: Cells, key: dict[Pos, int], width: int, board: bytearray | list[int]) -> Scan:
    """`_scan` with the numbering `key` (rows `width` apart) and an empty `board` to label."""
    terrains: list[str | None] = [None]
    groups: list[list[Pos] | None] = [None]
    crowns = [0]
    merged = False
    for pos in sorted(cells):  # keys, not items: sorting pairs costs twice as much
        square = cells[pos]
        terrain = square.terrain
        k = key[pos]
        lab = board[k - width]
        if terrains[lab] == terrain:
            left = board[k - 1]
            if left != lab and terrains[left] == terrain:  # joins two territories: merge
                low, high = (left, lab) if left < lab else (lab, left)
                moved = groups[high]
                assert moved is not None  # the board holds live labels only
                for p in moved:
                    board[key[p]] = low
                groups[low] += moved  # type: ignore[operator]
                groups[high] = None
                crowns[low] += crowns[high]
                lab = low
                merged = True
        else:
            lab = board[k - 1]
            if terrains[lab] != terrain:  # a new territory
                lab = len(groups)
                board[k] = lab
                terrains.append(terrain)
                groups.append([pos])
                crowns.append(square.crowns)
                continue
        board[k] = lab
        groups[lab].append(pos)  # type: ignore[union-attr]
        if square.crowns:
            crowns[lab] += square.crowns
    return terrains, groups, crowns, merged


def _build(
    scan: Scan, gem_crowns: list[int] | None = None, skulls: list[int] | None = None
) -> tuple[tuple[Territory, ...], list[int]]:
    """The Territory objects of a scan, in the reading order of their first squares (the order
    labels were given in), and the index among them of each label's territory (-1: none). Gem
    crowns and skulls are by label.

    Each is made with `object.__new__` and its `__dict__` filled in, not by the frozen
    dataclass's `__init__`, which sets each field through `object.__setattr__` and costs twice
    as much: same type, same fields, same values."""
    terrains, groups, crowns, merged = scan
    new = object.__new__
    territories: list[Territory] = []
    index = [-1] * len(groups)
    for lab in range(1, len(groups)):
        group = groups[lab]
        terrain = terrains[lab]
        if group is None or terrain is None or terrain == CASTLE:
            continue
        if merged:
            group.sort()
        index[lab] = len(territories)
        t = new(Territory)
        fields = t.__dict__
        fields["terrain"] = terrain
        fields["cells"] = tuple(group)
        fields["crowns"] = crowns[lab]
        fields["gem_crowns"] = gem_crowns[lab] if gem_crowns else 0
        fields["skulls"] = skulls[lab] if skulls else 0
        territories.append(t)
    return tuple(territories), index


def score_kingdom(
    cells: Cells, gems: Sequence[PlacedGem] = (), bonuses: dict[str, int] | None = None
) -> Breakdown:
    """Each territory scores squares × (crowns + gem crowns pointing in), or 0 under a skull.

    Without gems the score is summed straight from the scan and the Territory objects are left
    for the Breakdown to build if they are read (see Breakdown); the scan holds no reference to
    `cells`, which the engine changes in place. The Breakdown is made with `object.__new__` and
    its `__dict__` filled in, not by the frozen dataclass's `__init__`: same fields, and its
    cached `score`."""
    scan = _scan(cells)
    extra = dict(bonuses) if bonuses else {}
    b = object.__new__(Breakdown)
    if gems:
        territories, scored = _with_gems(scan, gems)
        b.__dict__.update(territories=territories, gems=scored, bonuses=extra)
        return b
    terrains, groups, crowns, _ = scan
    total = sum(extra.values()) if extra else 0
    for lab in range(1, len(groups)):
        group = groups[lab]
        if crowns[lab] and group is not None and terrains[lab] != CASTLE:
            total += len(group) * crowns[lab]
    b.__dict__.update(gems=(), bonuses=extra, score=total, _scanned=scan)
    return b


def _with_gems(
    scan: Scan, gems: Sequence[PlacedGem]
) -> tuple[tuple[Territory, ...], tuple[GemScore, ...]]:
    """The territories of a kingdom with gems, and each gem's score: a gem's quarters point
    into the territories of the four squares around its corner (never the castle)."""
    terrains, groups, _, _ = scan
    owner: dict[Pos, int] = {}  # square -> label
    for lab in range(1, len(groups)):
        group = groups[lab]
        if group is not None and terrains[lab] != CASTLE:
            for pos in group:
                owner[pos] = lab
    gem_crowns = [0] * len(groups)
    skulls = [0] * len(groups)
    pointed: list[tuple[PlacedGem, tuple[int, ...]]] = []
    for gem in gems:
        labels = tuple(owner[p] for p in corner_cells(gem.corner))
        for value, lab in zip(gem.quarters, labels, strict=True):
            if value == SKULL:
                skulls[lab] += 1
            else:
                gem_crowns[lab] += int(value)
        pointed.append((gem, labels))
    territories, index = _build(scan, gem_crowns, skulls)
    scored = tuple(
        GemScore(gem, tuple(index[lab] for lab in labels))  # type: ignore[arg-type]
        for gem, labels in pointed
    )
    return territories, scored


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
