"""A square of a kingdom in the words a child at the table uses: where it is from the castle.

The engine keeps positions as (row, col) from the castle at (0, 0), rows growing southwards
(towards the player) and columns eastwards (issue 20: nothing spoken holds a coordinate, and
"column 0, row 1" was also the wrong way round). So [-2, 0] is "two above the castle", [1, -1]
"one below and one to the left of the castle", and a domino facing south points down. Each
shape of phrase is one whole message, so every language orders its words its own way.
"""

from __future__ import annotations

from tabletap.controller.language.said import Said
from tabletap.games.kingdomino.words import msg

# a kingdom is at most 7 wide, so no square is more than six from the castle
COUNTS = (
    # TRANSLATORS: how many squares from the castle, inside "one above the castle"
    msg("one"),
    # TRANSLATORS: how many squares from the castle, inside "two above the castle"
    msg("two"),
    # TRANSLATORS: how many squares from the castle
    msg("three"),
    # TRANSLATORS: how many squares from the castle
    msg("four"),
    # TRANSLATORS: how many squares from the castle
    msg("five"),
    # TRANSLATORS: how many squares from the castle
    msg("six"),
)


def _count(n: int) -> Said | int:
    return COUNTS[n - 1] if 0 < n <= len(COUNTS) else n


def _up_down(row: int) -> Said:
    if row < 0:
        # TRANSLATORS: a square of a kingdom; count is "one", "two", ... squares up from it
        return msg("%(count)s above the castle", count=_count(-row))
    # TRANSLATORS: a square of a kingdom; count is "one", "two", ... squares down (towards you)
    return msg("%(count)s below the castle", count=_count(row))


def _sideways(col: int) -> Said:
    if col < 0:
        # TRANSLATORS: a square of a kingdom; count is "one", "two", ... squares to the left
        return msg("%(count)s to the left of the castle", count=_count(-col))
    # TRANSLATORS: a square of a kingdom; count is "one", "two", ... squares to the right
    return msg("%(count)s to the right of the castle", count=_count(col))


def _both(row: int, col: int) -> Said:
    down, side = _count(abs(row)), _count(abs(col))
    if row < 0 and col < 0:
        # TRANSLATORS: a square of a kingdom; down and side are "one", "two", ... squares
        return msg("%(down)s above and %(side)s to the left of the castle", down=down, side=side)
    if row < 0:
        # TRANSLATORS: a square of a kingdom; down and side are "one", "two", ... squares
        return msg("%(down)s above and %(side)s to the right of the castle", down=down,
                   side=side)
    if col < 0:
        # TRANSLATORS: a square of a kingdom; down and side are "one", "two", ... squares
        return msg("%(down)s below and %(side)s to the left of the castle", down=down, side=side)
    # TRANSLATORS: a square of a kingdom; down and side are "one", "two", ... squares
    return msg("%(down)s below and %(side)s to the right of the castle", down=down, side=side)


def square_words(at: tuple[int, int] | list[int]) -> Said:
    """Where the square `at` lies from the castle: "two above the castle"."""
    row, col = at
    if row == 0 and col == 0:
        # TRANSLATORS: a square of a kingdom: the castle's own square
        return msg("on the castle")
    if col == 0:
        return _up_down(row)
    if row == 0:
        return _sideways(col)
    return _both(row, col)


def placement_words(at: tuple[int, int] | list[int], facing: str) -> Said:
    """A domino's placement: "two above the castle, pointing down" (its first half's square,
    the way its second half points)."""
    square = square_words(at)
    if facing == "north":
        # TRANSLATORS: where a domino lies: square is its first half's place ("two above the
        # castle"); its second half is above the first
        return msg("%(square)s, pointing up", square=square)
    if facing == "east":
        # TRANSLATORS: where a domino lies; its second half is right of the first
        return msg("%(square)s, pointing right", square=square)
    if facing == "south":
        # TRANSLATORS: where a domino lies; its second half is below the first
        return msg("%(square)s, pointing down", square=square)
    # TRANSLATORS: where a domino lies; its second half is left of the first
    return msg("%(square)s, pointing left", square=square)
