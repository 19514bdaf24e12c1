"""A square of a kingdom in the words a child at the table uses: where it is from the castle.

The engine keeps positions as (row, col) from the castle at (0, 0), rows growing southwards
(towards the player) and columns eastwards (issue 20: nothing spoken holds a coordinate, and
"column 0, row 1" was also the wrong way round). So [-2, 0] is "two above the castle", [1, -1]
"one below and one to the left of the castle", and a domino facing south points down.
"""

from __future__ import annotations

COUNTS = ("no", "one", "two", "three", "four", "five", "six")  # a kingdom is at most 7 wide
POINTING = {"north": "pointing up", "east": "pointing right", "south": "pointing down",
            "west": "pointing left"}


def _count(n: int) -> str:
    return COUNTS[n] if n < len(COUNTS) else str(n)


def square_words(at: tuple[int, int] | list[int]) -> str:
    """Where the square `at` lies from the castle: "two above the castle"."""
    row, col = at
    if row == 0 and col == 0:
        return "on the castle"
    down = f"{_count(abs(row))} {'below' if row > 0 else 'above'}" if row else ""
    side = f"{_count(abs(col))} to the {'right' if col > 0 else 'left'} of" if col else ""
    if down and side:
        return f"{down} and {side} the castle"
    return f"{down} the castle" if down else f"{side} the castle"


def placement_words(at: tuple[int, int] | list[int], facing: str) -> str:
    """A domino's placement: "two above the castle, pointing down"."""
    return f"{square_words(at)}, {POINTING.get(facing, facing)}"
