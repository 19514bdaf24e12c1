"""Kingdom files (docs/CONTRACTS.md, "Kingdom files"): text in, a checked kingdom out.

Parsing is pure (the command reads the file, this module reads the text), and every error names
the line, because a family typing in their finished kingdom must be able to find their typo.
Beyond the format, a kingdom that could not have been built is refused: one castle, squares
connected to it, no more squares of a kind than the box holds, squares that pair off into real
dominoes of the box (each at most once), and gems that are real tokens (their quarters one of the
four turns of that token in treasures.yaml) only on the corner of four different landscapes.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from tabletap.games.kingdomino.rules.dominoes import (
    CASTLE,
    MAX_CROWNS,
    Square,
    box_square_counts,
    dominoes,
)
from tabletap.games.kingdomino.rules.kingdom import (
    NEIGHBOURS,
    Pos,
    corner_cells,
    is_treasure_corner,
)
from tabletap.games.kingdomino.rules.scoring import PlacedGem
from tabletap.games.kingdomino.rules.treasures import (
    GEM_TYPES,
    JOKER,
    SKULL,
    Quarter,
    TokenKind,
    token_kinds,
)

LETTERS: dict[str, str] = {
    "W": "wheat",
    "F": "forest",
    "L": "lake",
    "G": "grassland",
    "S": "swamp",
    "M": "mine",
    "C": CASTLE,
}
LETTER_OF: dict[str, str] = {v: k for k, v in LETTERS.items()}
SIZES = (5, 7)
_CELL = re.compile(r"([A-Za-z.])([0-9]*)")  # fullmatch: ASCII digits only ('\d' takes '٣')
_NUMBER = re.compile(r"-?[0-9]+")
_COUNT = re.compile(r"[0-9]+")


class KingdomFileError(ValueError):
    """An impossible or malformed kingdom; `line` is 1-based (None for the whole file)."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


@dataclass(frozen=True)
class KingdomFile:
    size: int
    cells: dict[Pos, Square]  # grid coordinates: (row, col) counted from 0 at the top left
    gems: tuple[PlacedGem, ...]
    castle: Pos


def _cell(token: str, line: int) -> Square | None:
    m = _CELL.fullmatch(token)
    if not m:
        raise KingdomFileError(line, f"{token!r} is not a square: write a letter "
                               "(W F L G S M C) and its crowns, or '.' for an empty square")
    letter, digits = m.group(1).upper(), m.group(2)
    if letter == ".":
        if digits:
            raise KingdomFileError(line, f"{token!r}: an empty square cannot carry crowns")
        return None
    if letter not in LETTERS:
        raise KingdomFileError(
            line, f"unknown letter {m.group(1)!r} in {token!r}: use W (wheat), F (forest), "
            "L (lake), G (grassland), S (swamp), M (mine), C (castle) or '.'"
        )
    crowns = int(digits) if digits else 0
    if letter == "C" and crowns:
        raise KingdomFileError(line, "the castle carries no crowns")
    if crowns > MAX_CROWNS:
        raise KingdomFileError(line, f"{token!r}: no square has more than {MAX_CROWNS} crowns")
    return Square(LETTERS[letter], crowns)


def _quarter(token: str, line: int) -> Quarter:
    if token.lower() == SKULL:
        return SKULL
    if not _COUNT.fullmatch(token):  # ASCII digits: str.isdigit() also passes '²'
        raise KingdomFileError(line, f"a quarter is a crown count or 'skull', not {token!r}")
    return int(token)


def _gem(parts: list[str], line: int, size: int, cells: dict[Pos, Square]) -> PlacedGem:
    if len(parts) != 8:
        raise KingdomFileError(
            line, "a gem line reads: gem <type|joker> <row> <col> <nw> <ne> <se> <sw>"
        )
    kind = parts[1].lower()
    if kind not in (*GEM_TYPES, JOKER):
        raise KingdomFileError(
            line, f"unknown gem {parts[1]!r}: use {', '.join(GEM_TYPES)} or {JOKER}"
        )
    if not (_NUMBER.fullmatch(parts[2]) and _NUMBER.fullmatch(parts[3])):
        raise KingdomFileError(line, "a gem's row and column are whole numbers")
    row, col = int(parts[2]), int(parts[3])
    if not (0 <= row < size - 1 and 0 <= col < size - 1):
        raise KingdomFileError(
            line, f"a gem's corner is named by its north-west square: row and column 0..{size - 2}"
        )
    quarters = tuple(_quarter(t, line) for t in parts[4:8])
    corner = (row, col)
    if not is_treasure_corner(cells, corner):
        around = " ".join(
            LETTER_OF[cells[p].terrain] if p in cells else "." for p in corner_cells(corner)
        )
        raise KingdomFileError(
            line, f"the gem at {row} {col} is not on the corner of four different landscapes "
            f"(nw ne se sw: {around})"
        )
    _check_token(kind, quarters, line)
    return PlacedGem(kind, corner, quarters)  # type: ignore[arg-type]


def _turns_of(kind: TokenKind) -> list[tuple[Quarter, ...]]:
    q = kind.quarters
    return [tuple(q[(i - turns) % 4] for i in range(4)) for turns in range(4)]


def _check_token(kind: str, quarters: tuple[Quarter, ...], line: int) -> None:
    """A gem line must describe a token that exists: its quarters are the token type's quarters
    (treasures.yaml) turned a whole number of quarter turns, nothing else."""
    turns = _turns_of(token_kinds()[kind])
    if quarters not in turns:
        shown = " | ".join(" ".join(str(v) for v in t) for t in dict.fromkeys(turns))
        raise KingdomFileError(
            line, f"no {kind} token reads {' '.join(str(v) for v in quarters)} (nw ne se sw); "
            f"a {kind} lies as one of: {shown} (treasures.yaml)"
        )


_Pair = tuple[Square, Square]


def _pair(a: Square, b: Square) -> _Pair:
    """A domino's two halves as an unordered pair (identical dominoes share one key, so the
    search below never tries twins one after the other)."""
    return (a, b) if (a.terrain, a.crowns) <= (b.terrain, b.crowns) else (b, a)


def _box_pairs() -> Counter[_Pair]:
    return Counter(_pair(d.left, d.right) for d in dominoes().values())


def can_tile(cells: dict[Pos, Square]) -> bool:
    """Whether the squares other than the castle pair off into dominoes of the box, each of
    the 48 used at most once: an exact cover, searched from the square with the fewest ways to
    be covered (a square with none ends that branch at once)."""
    free = {p: sq for p, sq in cells.items() if sq.terrain != CASTLE}
    if len(free) % 2:
        return False
    stock = _box_pairs()

    def options(p: Pos) -> list[Pos]:
        out = []
        for dr, dc in NEIGHBOURS:
            q = (p[0] + dr, p[1] + dc)
            if q in free and stock[_pair(free[p], free[q])] > 0:
                out.append(q)
        return out

    def search() -> bool:
        if not free:
            return True
        best: tuple[Pos, list[Pos]] | None = None
        for p in sorted(free):
            ways = options(p)
            if not ways:
                return False
            if best is None or len(ways) < len(best[1]):
                best = (p, ways)
                if len(ways) == 1:
                    break
        assert best is not None
        p, ways = best
        for q in ways:
            key = _pair(free[p], free[q])
            a, b = free.pop(p), free.pop(q)
            stock[key] -= 1
            if search():
                return True
            stock[key] += 1
            free[p], free[q] = a, b
        return False

    return search()


def _check_possible(cells: dict[Pos, Square], castle: Pos, row_lines: list[int]) -> None:
    seen = {castle}
    stack = [castle]
    while stack:
        r, c = stack.pop()
        for dr, dc in NEIGHBOURS:
            n = (r + dr, c + dc)
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    loose = sorted(set(cells) - seen)
    if loose:
        r, c = loose[0]
        raise KingdomFileError(
            row_lines[r], f"the square at row {r}, column {c} is not connected to the castle"
        )
    squares = len(cells) - 1
    if squares % 2:
        raise KingdomFileError(
            None, f"the kingdom has {squares} squares besides the castle, an odd number: every "
            "domino covers two, so a square is missing or one too many"
        )
    counts = Counter(sq for sq in cells.values() if sq.terrain != CASTLE)
    box = box_square_counts()
    for sq, n in sorted(counts.items(), key=lambda kv: (kv[0].terrain, kv[0].crowns)):
        if n > box.get(sq, 0):
            last = max(p for p, other in cells.items() if other == sq)
            raise KingdomFileError(
                row_lines[last[0]],
                f"{n} {sq.terrain} squares with {sq.crowns} crowns, but the box holds "
                f"only {box.get(sq, 0)}",
            )
    if not can_tile(cells):
        raise KingdomFileError(
            None, "these squares cannot be laid as dominoes of the box: no way pairs every "
            "square with a neighbour so that each pair is one of the 48 dominoes, each used at "
            "most once (check the landscapes and crowns of each domino's two halves)"
        )


def parse_kingdom(text: str) -> KingdomFile:
    """Parse and check a kingdom file. Blank lines and lines starting with '#' are ignored."""
    rows: list[tuple[int, list[str]]] = []
    gem_lines: list[tuple[int, list[str]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        parts = raw.split()
        if not parts or parts[0].startswith("#"):
            continue
        if parts[0].lower() == "gem":
            gem_lines.append((number, parts))
        elif gem_lines:
            raise KingdomFileError(number, "grid rows must come before the gem lines")
        else:
            rows.append((number, parts))
    if not rows:
        raise KingdomFileError(None, "no grid: a kingdom file starts with 5 (or 7) rows")
    size = len(rows)
    if size not in SIZES:
        raise KingdomFileError(
            rows[-1][0], f"the grid has {size} rows; a kingdom is 5×5 (7×7 in the Mighty Duel)"
        )
    cells: dict[Pos, Square] = {}
    castle: tuple[Pos, int] | None = None
    for r, (line, parts) in enumerate(rows):
        if len(parts) != size:
            raise KingdomFileError(
                line, f"this row has {len(parts)} squares; a {size}-row kingdom needs {size}"
            )
        for c, token in enumerate(parts):
            sq = _cell(token, line)
            if sq is None:
                continue
            if sq.terrain == CASTLE:
                if castle is not None:
                    raise KingdomFileError(
                        line, f"a second castle (the first is on line {castle[1]})"
                    )
                castle = ((r, c), line)
            cells[(r, c)] = sq
    if castle is None:
        raise KingdomFileError(None, "the kingdom has no castle (C)")
    _check_possible(cells, castle[0], [line for line, _ in rows])
    gems: list[PlacedGem] = []
    taken: dict[Pos, int] = {}
    per_kind: Counter[str] = Counter()
    kinds = token_kinds()
    for line, parts in gem_lines:
        gem = _gem(parts, line, size, cells)
        if gem.corner in taken:
            raise KingdomFileError(
                line, f"a second gem on the corner at {gem.corner[0]} {gem.corner[1]} "
                f"(the first is on line {taken[gem.corner]})"
            )
        taken[gem.corner] = line
        per_kind[gem.kind] += 1
        if per_kind[gem.kind] > kinds[gem.kind].count:
            raise KingdomFileError(
                line, f"more {gem.kind} tokens than the box holds ({kinds[gem.kind].count})"
            )
        gems.append(gem)
    return KingdomFile(size, cells, tuple(gems), castle[0])


def render_kingdom(
    cells: dict[Pos, Square], size: int, gems: tuple[PlacedGem, ...] = ()
) -> str:
    """The kingdom file for a kingdom (any origin): its squares in a size×size grid anchored at
    the north-west corner of what is built, then its gems."""
    rmin = min(p[0] for p in cells)
    cmin = min(p[1] for p in cells)
    lines = []
    for r in range(rmin, rmin + size):
        row = []
        for c in range(cmin, cmin + size):
            sq = cells.get((r, c))
            if sq is None:
                row.append(".")
            else:
                row.append(LETTER_OF[sq.terrain] + (str(sq.crowns) if sq.crowns else ""))
        lines.append(" ".join(row))
    for g in gems:
        values = " ".join(str(q) for q in g.quarters)
        lines.append(f"gem {g.kind} {g.corner[0] - rmin} {g.corner[1] - cmin} {values}")
    return "\n".join(lines) + "\n"
