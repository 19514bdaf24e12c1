"""A kingdom's territories kept up to date square by square, so its score is a short sum.

Scoring by flood fill walks every square each time; the engine asks for scores after every
action. A kingdom instead carries its territories (`Regions`): each new square joins the
territory of a neighbour of its landscape, merging territories it connects (the smaller one is
relabelled into the larger), so a score is one pass over the territories, not the squares.
`scoring.score_kingdom` stays the full, explained breakdown (and the reference the property
tests compare this with).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tabletap.games.kingdomino.rules.dominoes import CASTLE, Square
from tabletap.games.kingdomino.rules.kingdom import NEIGHBOURS, Pos, corner_cells
from tabletap.games.kingdomino.rules.scoring import PlacedGem
from tabletap.games.kingdomino.rules.treasures import SKULL


class Regions:
    """Territories by id: their landscape, squares, crowns and members; `label` finds the
    territory of a square. `size` is how many squares of the kingdom it has seen (the castle
    included), so a kingdom edited behind its back is noticed and read afresh."""

    __slots__ = ("label", "terrain", "members", "crowns", "size", "_next")

    def __init__(self) -> None:
        self.label: dict[Pos, int] = {}
        self.terrain: dict[int, str] = {}
        # squares by territory, as tuples: a copy shares them (a change puts a new tuple)
        self.members: dict[int, tuple[Pos, ...]] = {}
        self.crowns: dict[int, int] = {}
        self.size = 0
        self._next = 0

    @classmethod
    def of(cls, cells: Mapping[Pos, Square]) -> Regions:
        regions = cls()
        for pos, square in cells.items():
            regions.add(pos, square)
        return regions

    def copy(self) -> Regions:
        new = Regions()
        new.label = dict(self.label)
        new.terrain = dict(self.terrain)
        new.members = dict(self.members)
        new.crowns = dict(self.crowns)
        new.size, new._next = self.size, self._next
        return new

    def add(self, pos: Pos, square: Square) -> None:
        """One more square of the kingdom (the castle is counted but is no territory)."""
        self.size += 1
        if square.terrain == CASTLE:
            return
        r, c = pos
        joined: list[int] = []
        for dr, dc in NEIGHBOURS:
            other = self.label.get((r + dr, c + dc))
            if other is not None and other not in joined and \
                    self.terrain[other] == square.terrain:
                joined.append(other)
        if not joined:
            into = self._next
            self._next += 1
            self.terrain[into], self.members[into], self.crowns[into] = square.terrain, (), 0
        else:
            members = self.members
            into = max(joined, key=lambda x: len(members[x])) if len(joined) > 1 else joined[0]
            for other in joined:
                if other == into:
                    continue
                moved = members.pop(other)
                for p in moved:
                    self.label[p] = into
                members[into] += moved
                self.crowns[into] += self.crowns.pop(other)
                del self.terrain[other]
        self.label[pos] = into
        self.members[into] += (pos,)
        self.crowns[into] += square.crowns

    def largest(self) -> int:
        """The first tie-break: the squares of the largest territory (Breakdown's)."""
        return max(map(len, self.members.values()), default=0)

    def all_crowns(self, gems: Sequence[PlacedGem] = ()) -> int:
        """The second tie-break: every crown, gem crowns included, skulls or not
        (Breakdown.crowns)."""
        return sum(self.crowns.values()) + sum(
            int(value) for gem in gems for value in gem.quarters if value != SKULL)

    def points(self, gems: Sequence[PlacedGem] = ()) -> int:
        """The score before variant bonuses: squares × (crowns + gem crowns pointing in), 0
        for a territory a skull points at (scoring.score_kingdom's rules)."""
        if not gems:
            return sum(len(self.members[r]) * n for r, n in self.crowns.items())
        extra: dict[int, int] = {}
        skulled: set[int] = set()
        for gem in gems:
            for value, p in zip(gem.quarters, corner_cells(gem.corner), strict=True):
                target = self.label[p]
                if value == SKULL:
                    skulled.add(target)
                else:
                    extra[target] = extra.get(target, 0) + int(value)
        return sum(
            len(self.members[r]) * (n + extra.get(r, 0))
            for r, n in self.crowns.items() if r not in skulled
        )
