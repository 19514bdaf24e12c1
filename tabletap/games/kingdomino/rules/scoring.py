"""Scoring a kingdom: territories × crowns, gem quarters, skulls and the variant bonuses.

Pure and shared: the engine scores live kingdoms with it and `tabletap score kingdomino` scores
kingdom files with it, so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tabletap.games.kingdomino.rules.dominoes import CASTLE
from tabletap.games.kingdomino.rules.kingdom import (
    NEIGHBOURS,
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
    """Flood-fill the landscapes (never the castle), in reading order of each first square."""
    seen: set[Pos] = set()
    out: list[tuple[str, list[Pos]]] = []
    for start in sorted(cells):
        terrain = cells[start].terrain
        if start in seen or terrain == CASTLE:
            continue
        seen.add(start)
        stack = [start]
        group: list[Pos] = []
        while stack:
            r, c = stack.pop()
            group.append((r, c))
            for dr, dc in NEIGHBOURS:
                n = (r + dr, c + dc)
                sq = cells.get(n)
                if sq is not None and n not in seen and sq.terrain == terrain:
                    seen.add(n)
                    stack.append(n)
        out.append((terrain, sorted(group)))
    return out


def score_kingdom(
    cells: Cells, gems: Sequence[PlacedGem] = (), bonuses: dict[str, int] | None = None
) -> Breakdown:
    """Each territory scores squares × (crowns + gem crowns pointing in), or 0 under a skull."""
    groups = find_territories(cells)
    owner: dict[Pos, int] = {}
    for index, (_, group) in enumerate(groups):
        for pos in group:
            owner[pos] = index
    gem_crowns = [0] * len(groups)
    skulls = [0] * len(groups)
    scored: list[GemScore] = []
    for gem in gems:
        targets = tuple(owner[p] for p in corner_cells(gem.corner))
        for value, target in zip(gem.quarters, targets, strict=True):
            if value == SKULL:
                skulls[target] += 1
            else:
                gem_crowns[target] += int(value)
        scored.append(GemScore(gem, targets))  # type: ignore[arg-type]
    territories = tuple(
        Territory(
            terrain,
            tuple(group),
            sum(cells[p].crowns for p in group),
            gem_crowns[i],
            skulls[i],
        )
        for i, (terrain, group) in enumerate(groups)
    )
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
