"""A kingdom's squares as bit masks, so legal placements come from a few integer operations.

`kingdom.placement_spots` walks the squares of a dict; self-play asks for placements at every
turn, so a kingdom also carries its squares as bits (`Board`): one integer for the occupied
squares and one per landscape (the castle counts as its own landscape). The squares of a domino
half may go on are then the empty squares beside its landscape or the castle, and a placement
is two such squares side by side: four masks, one per facing. Integers are immutable, so a
kingdom's copy shares them for free.

Bits: square (row, col) is bit (row + 7) * 15 + (col + 7) for rows and columns -6..6 (a 7×7
kingdom around its castle at the origin); columns -7 and 7 stay empty, so a shift by one never
carries a square from the end of one row to the start of the next. A kingdom with a square
outside -6..6 (built by hand) has no board, and the dict functions answer instead.
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletap.games.kingdomino.rules.dominoes import CASTLE, Square

Pos = tuple[int, int]

WIDTH = 15
OFFSET = 7
LIMIT = 6  # squares with both coordinates in -LIMIT..LIMIT have a bit
# a facing's step in bits: north, east, south, west (kingdom.FACINGS' order)
STEPS: tuple[int, ...] = (-WIDTH, 1, WIDTH, -1)
# index -> (row, col)
SQUARE: tuple[Pos, ...] = tuple(
    (i // WIDTH - OFFSET, i % WIDTH - OFFSET) for i in range(WIDTH * WIDTH)
)
_CORNER = 1 | 2 | 1 << WIDTH | 1 << (WIDTH + 1)  # a corner's four squares: nw, ne, sw, se
_RECTS: dict[tuple[int, int, int, int], int] = {}


def bit(pos: Pos) -> int:
    """The bit index of a square (only for squares within -LIMIT..LIMIT)."""
    return (pos[0] + OFFSET) * WIDTH + pos[1] + OFFSET


def inside(pos: Pos) -> bool:
    return -LIMIT <= pos[0] <= LIMIT and -LIMIT <= pos[1] <= LIMIT


def _rect(lo_r: int, hi_r: int, lo_c: int, hi_c: int) -> int:
    """The squares of rows lo_r..hi_r and columns lo_c..hi_c (all within the limit)."""
    key = (lo_r, hi_r, lo_c, hi_c)
    mask = _RECTS.get(key)
    if mask is None:
        mask = 0
        if lo_r <= hi_r and lo_c <= hi_c:
            row = ((1 << (hi_c - lo_c + 1)) - 1) << (lo_c + OFFSET)
            for r in range(lo_r, hi_r + 1):
                mask |= row << ((r + OFFSET) * WIDTH)
        _RECTS[key] = mask
    return mask


def _beside(mask: int) -> int:
    """The squares sharing a side with a square of `mask` (padding columns included)."""
    return mask << 1 | mask >> 1 | mask << WIDTH | mask >> WIDTH


class Board:
    """The bits of one kingdom's squares. `cells` and `n` name the dict it was read from and
    how many squares it had, so a kingdom edited behind its back is noticed (`reads`)."""

    __slots__ = ("cells", "n", "occupied", "land", "rmin", "rmax", "cmin", "cmax", "_memo")

    def __init__(self, cells: Mapping[Pos, Square]) -> None:
        self.cells = cells
        self.n = 0
        self.occupied = 0
        self.land: dict[str, int] = {}
        self.rmin = self.cmin = 1 << 30
        self.rmax = self.cmax = -(1 << 30)
        # the last facing_masks answer, (size, left, right, masks): legal_actions lists a
        # domino's placements and apply then checks one of them on a copy of the same squares
        self._memo: tuple[int, str, str, tuple[int, ...] | None] | None = None

    @classmethod
    def of(cls, cells: Mapping[Pos, Square]) -> Board | None:
        if not all(map(inside, cells)):
            return None
        board = cls(cells)
        for pos, square in cells.items():
            board._add(pos, square)
        board.n = len(cells)
        return board

    def reads(self, cells: Mapping[Pos, Square]) -> bool:
        """Whether this board still describes `cells`."""
        return self.cells is cells and self.n == len(cells)

    def copy_for(self, cells: Mapping[Pos, Square]) -> Board:
        new = Board.__new__(Board)
        new.cells, new.n, new.occupied = cells, self.n, self.occupied
        new.land = dict(self.land)
        new.rmin, new.rmax, new.cmin, new.cmax = self.rmin, self.rmax, self.cmin, self.cmax
        new._memo = self._memo
        return new

    def add(self, pos: Pos, square: Square) -> bool:
        """Note a square just put into `cells`; False when it has no bit (drop the board)."""
        if not inside(pos):
            return False
        self._add(pos, square)
        self.n += 1
        return True

    def _add(self, pos: Pos, square: Square) -> None:
        self._memo = None
        b = 1 << ((pos[0] + OFFSET) * WIDTH + pos[1] + OFFSET)
        self.occupied |= b
        self.land[square.terrain] = self.land.get(square.terrain, 0) | b
        r, c = pos
        if r < self.rmin:
            self.rmin = r
        if r > self.rmax:
            self.rmax = r
        if c < self.cmin:
            self.cmin = c
        if c > self.cmax:
            self.cmax = c

    def facing_masks(self, size: int, left: str, right: str) -> tuple[int, ...] | None:
        """Per facing (north, east, south, west), the squares where the first half of a domino
        (`left`, then `right` one step on) may go: both squares empty and inside the
        size×size window, one half beside the castle or its own landscape (check_placement's
        rules). None when the window leaves the board (a kingdom built by hand)."""
        memo = self._memo
        if memo is not None and memo[0] == size and memo[1] == left and memo[2] == right:
            return memo[3]
        masks = self._facing_masks(size, left, right)
        self._memo = (size, left, right, masks)
        return masks

    def _facing_masks(self, size: int, left: str, right: str) -> tuple[int, ...] | None:
        lo_r, hi_r = self.rmax - size + 1, self.rmin + size - 1
        lo_c, hi_c = self.cmax - size + 1, self.cmin + size - 1
        if lo_r < -LIMIT or hi_r > LIMIT or lo_c < -LIMIT or hi_c > LIMIT:
            return None
        free = _rect(lo_r, hi_r, lo_c, hi_c) & ~self.occupied
        land, castle = self.land, self.land.get(CASTLE, 0)
        near_left = _beside(land.get(left, 0) | castle)
        near_right = near_left if right == left else _beside(land.get(right, 0) | castle)
        out = []
        for step in STEPS:
            if step > 0:
                out.append(free & free >> step & (near_left | near_right >> step))
            else:
                out.append(free & free << -step & (near_left | near_right << -step))
        return tuple(out)

    def codes(self, size: int, left: str, right: str) -> list[int] | None:
        """Every legal placement as bit * 4 + facing, ascending: placement_spots' order
        (row, col, facing). None when the board cannot tell (see facing_masks)."""
        masks = self.facing_masks(size, left, right)
        if masks is None:
            return None
        out: list[int] = []
        for facing, mask in enumerate(masks):
            while mask:
                low = mask & -mask
                out.append((low.bit_length() - 1) * 4 + facing)
                mask ^= low
        out.sort()
        return out

    def allows(self, size: int, left: str, right: str, at: Pos, facing: int) -> bool:
        """Whether the board can tell this placement is legal (False: ask check_placement,
        which says why not)."""
        if not inside(at):
            return False
        masks = self.facing_masks(size, left, right)
        return masks is not None and bool(masks[facing] >> bit(at) & 1)

    def full_corners(self, corners: list[Pos]) -> list[Pos]:
        """The corners (named by their north-west square) whose four squares are all in the
        kingdom; only these can be treasure corners. (A corner outside the limit has a square
        outside it, which a kingdom with a board never holds; rows and columns 7 are never
        set.)"""
        occupied = self.occupied
        return [(r, c) for r, c in corners
                if -LIMIT <= r <= LIMIT and -LIMIT <= c <= LIMIT
                and occupied >> ((r + OFFSET) * WIDTH + c + OFFSET) & _CORNER == _CORNER]
