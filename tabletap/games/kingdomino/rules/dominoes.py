"""The 48 dominoes (dominoes.csv, package data): loaded once and checked.

The numbers, landscapes and crowns are confirmed (docs/games/kingdomino.md, "Sources beyond the
rulebook": three independent implementations agree on all 48). They stay in a data file rather
than in code so a check at import time can prove the file whole: a lost line would silently
change every game's odds.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cache
from importlib import resources

LANDSCAPES: tuple[str, ...] = ("wheat", "forest", "lake", "grassland", "swamp", "mine")
CASTLE = "castle"
DOMINO_COUNT = 48
MAX_CROWNS = 3


class DominoDataError(ValueError):
    """dominoes.csv is not usable; the message names the line and the problem."""


@dataclass(frozen=True)
class Square:
    """One half of a domino, or the castle: a landscape and its crowns."""

    terrain: str
    crowns: int = 0


@dataclass(frozen=True)
class Domino:
    """`left` is the first-listed half: `place` actions name the square it goes on."""

    number: int
    left: Square
    right: Square


def parse_dominoes(text: str, source: str = "dominoes.csv") -> dict[int, Domino]:
    reader = csv.DictReader(io.StringIO(text))
    wanted = ["number", "left_terrain", "left_crowns", "right_terrain", "right_crowns"]
    if reader.fieldnames != wanted:
        raise DominoDataError(f"{source}: the header must be {','.join(wanted)}")
    dominoes: dict[int, Domino] = {}
    for row in reader:
        where = f"{source}:{reader.line_num}"
        try:
            number = int(row["number"])
            halves = [
                Square(row[f"{side}_terrain"], int(row[f"{side}_crowns"]))
                for side in ("left", "right")
            ]
        except (TypeError, ValueError):
            raise DominoDataError(f"{where}: number and crowns must be whole numbers") from None
        for half in halves:
            if half.terrain not in LANDSCAPES:
                raise DominoDataError(f"{where}: unknown landscape {half.terrain!r}")
            if not 0 <= half.crowns <= MAX_CROWNS:
                raise DominoDataError(f"{where}: crowns must be 0..{MAX_CROWNS}")
        if number in dominoes or not 1 <= number <= DOMINO_COUNT:
            raise DominoDataError(f"{where}: domino number {number} is out of range or repeated")
        dominoes[number] = Domino(number, halves[0], halves[1])
    if len(dominoes) != DOMINO_COUNT:
        raise DominoDataError(f"{source}: needs all {DOMINO_COUNT} dominoes, has {len(dominoes)}")
    return dominoes


@cache
def dominoes() -> dict[int, Domino]:
    text = resources.files(__package__).joinpath("dominoes.csv").read_text(encoding="utf-8")
    return parse_dominoes(text)


@cache
def box_square_counts() -> dict[Square, int]:
    """How many squares of each landscape-and-crowns the box holds: a kingdom file with more of
    one kind than the box has cannot have been built."""
    counts: dict[Square, int] = {}
    for domino in dominoes().values():
        for half in (domino.left, domino.right):
            counts[half] = counts.get(half, 0) + 1
    return counts
