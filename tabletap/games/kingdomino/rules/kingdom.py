"""A kingdom's geometry: where a domino may go, and which corners a placement opens to treasure.

Positions are (row, col) relative to the castle at (0, 0), rows growing southwards and columns
eastwards, so a kingdom never needs re-indexing as it grows in any direction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from tabletap.controller.language.said import Said
from tabletap.controller.rules.base import Rejection
from tabletap.games.kingdomino.rules.dominoes import CASTLE, Domino, Square
from tabletap.games.kingdomino.rules.places import square_words
from tabletap.games.kingdomino.words import landscapes_of, msg

Pos = tuple[int, int]
Cells = Mapping[Pos, Square]

FACINGS: dict[str, Pos] = {"north": (-1, 0), "east": (0, 1), "south": (1, 0), "west": (0, -1)}
NEIGHBOURS: tuple[Pos, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))
CASTLE_SQUARE = Square(CASTLE, 0)
FACING_NAMES: tuple[str, ...] = tuple(FACINGS)
_FACING_STEPS: tuple[Pos, ...] = tuple(FACINGS.values())
_OPPOSITE: tuple[int, ...] = tuple(
    _FACING_STEPS.index((-dr, -dc)) for dr, dc in _FACING_STEPS
)


@dataclass(frozen=True)
class Placement:
    """Where a domino goes: its first-listed half on `at`, its second half one step `facing`."""

    domino: int
    at: Pos
    facing: str

    def squares(self) -> tuple[Pos, Pos]:
        dr, dc = FACINGS[self.facing]
        return self.at, (self.at[0] + dr, self.at[1] + dc)


def bounds(cells: Iterable[Pos]) -> tuple[int, int, int, int]:
    """(min row, max row, min col, max col)."""
    rows = [p[0] for p in cells]
    cols = [p[1] for p in cells]
    return min(rows), max(rows), min(cols), max(cols)


def _fits(box: tuple[int, int, int, int], new: tuple[Pos, Pos], size: int) -> bool:
    rmin, rmax, cmin, cmax = box
    rows = (new[0][0], new[1][0])
    cols = (new[0][1], new[1][1])
    return (
        max(rmax, *rows) - min(rmin, *rows) < size
        and max(cmax, *cols) - min(cmin, *cols) < size
    )


def _connects(cells: Cells, pos: Pos, half: Square, other: Pos) -> bool:
    """Connection rule: a half touches the castle (wild) or a square of its own landscape."""
    for dr, dc in NEIGHBOURS:
        n = (pos[0] + dr, pos[1] + dc)
        if n == other:
            continue
        sq = cells.get(n)
        if sq is not None and (sq.terrain == CASTLE or sq.terrain == half.terrain):
            return True
    return False


def check_placement(cells: Cells, size: int, domino: Domino, placement: Placement) -> None:
    """Raise Rejection unless `placement` is legal for `domino` in this kingdom."""
    a, b = placement.squares()
    for pos in (a, b):
        if pos in cells:
            raise Rejection("occupied", _occupied(pos, cells[pos].terrain == CASTLE))
    if not _fits(bounds(cells), (a, b), size):
        # TRANSLATORS: a refusal; size is how many squares wide and high a kingdom may be
        raise Rejection("too-big", msg("There the kingdom would no longer fit in "
                                       "%(size)s×%(size)s squares, the castle included.",
                                       size=size))
    if not (_connects(cells, a, domino.left, b) or _connects(cells, b, domino.right, a)):
        # TRANSLATORS: a refusal; landscapes are the domino's ("wheat field and forest")
        raise Rejection("no-connection", msg(
            "The %(landscapes)s domino must touch the castle or a matching landscape along a "
            "side.", landscapes=landscapes_of(domino.number)))


def _occupied(pos: Pos, castle: bool) -> Said:
    if castle:
        # TRANSLATORS: a refusal: a domino was put on the castle's own square
        return msg("The castle stands there; choose an empty square.")
    # TRANSLATORS: a refusal; square is where, from the castle ("two above the castle")
    return msg("The square %(square)s already holds a domino; choose an empty square.",
               square=square_words(pos))


def legal_placements(cells: Cells, size: int, domino: Domino) -> list[Placement]:
    """Every legal placement, in a stable order (row, col, facing)."""
    return [Placement(domino.number, (r, c), facing)
            for r, c, facing in placement_spots(cells, size, domino)]


def placement_spots(cells: Cells, size: int, domino: Domino) -> list[tuple[int, int, str]]:
    """Every legal placement as (row, col, facing), in legal_placements' order: for a caller
    that builds its own values from them (legal_actions) without a Placement in between.

    Generated from the squares a half could connect through (the empty squares beside the
    castle or beside its own landscape) rather than by trying every square of the window:
    a placement is legal when both squares are empty and inside the size×size window, and one
    half has such a neighbour (check_placement's rules, the same verdicts)."""
    rmin, rmax, cmin, cmax = bounds(cells)
    lo_r, hi_r = rmax - size + 1, rmin + size - 1  # both squares inside these, the kingdom fits
    lo_c, hi_c = cmax - size + 1, cmin + size - 1
    left, right = domino.left.terrain, domino.right.terrain
    found: set[tuple[int, int, int]] = set()
    for (r, c), sq in cells.items():
        t = sq.terrain
        joins_left, joins_right = t == CASTLE or t == left, t == CASTLE or t == right
        if not (joins_left or joins_right):
            continue
        for dr, dc in NEIGHBOURS:
            ar, ac = r + dr, c + dc  # an empty square this one connects a half to
            if (ar, ac) in cells or not (lo_r <= ar <= hi_r and lo_c <= ac <= hi_c):
                continue
            for i, (fr, fc) in enumerate(_FACING_STEPS):
                br, bc = ar + fr, ac + fc
                if (br, bc) in cells or not (lo_r <= br <= hi_r and lo_c <= bc <= hi_c):
                    continue
                if joins_left:  # the first half here, the second one step `facing` on
                    found.add((ar, ac, i))
                if joins_right:  # the second half here: the first is on (br, bc), facing back
                    found.add((br, bc, _OPPOSITE[i]))
    return [(r, c, FACING_NAMES[i]) for r, c, i in sorted(found)]


def has_legal_placement(cells: Cells, size: int, domino: Domino) -> bool:
    return bool(legal_placements(cells, size, domino))


def corner_cells(corner: Pos) -> tuple[Pos, Pos, Pos, Pos]:
    """The squares around a corner named by its north-west square, clockwise: nw, ne, se, sw."""
    r, c = corner
    return (r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c)


def is_treasure_corner(cells: Cells, corner: Pos) -> bool:
    """Four squares of four different landscapes meet here (the castle is not a landscape)."""
    terrains = set()
    for p in corner_cells(corner):
        sq = cells.get(p)
        if sq is None or sq.terrain == CASTLE:
            return False
        terrains.add(sq.terrain)
    return len(terrains) == 4


def new_treasure_corners(
    cells: Cells, placed: Iterable[Pos],
    full: Callable[[list[Pos]], list[Pos]] | None = None,
) -> list[Pos]:
    """Corners whose 2×2 square of four different landscapes the placement just completed.

    `cells` already holds the new squares; a corner counts only if one of its squares is new, so
    a square completed earlier is never discovered twice. `full` (a kingdom's board) may first
    drop the corners whose four squares are not all in the kingdom, which are never treasure.
    """
    near: set[Pos] = set()  # a domino's two squares share two of their corners: judge once
    for r, c in placed:
        near.update(((r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c)))
    judged = list(near) if full is None else full(list(near))
    return sorted(corner for corner in judged if is_treasure_corner(cells, corner))
