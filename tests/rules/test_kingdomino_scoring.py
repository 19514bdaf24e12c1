"""Kingdomino scoring: territories, crowns, gems, skulls, variants and tie-breaks.

The kingdoms here and in examples/kingdoms/ were built for tabletap with their scores worked out
by hand (the rulebook's printed scoring example is not in our sources).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletap.games.kingdomino.rules.kingdom_file import (
    KingdomFileError,
    parse_kingdom,
    render_kingdom,
)
from tabletap.games.kingdomino.rules.scoring import (
    PlacedGem,
    find_territories,
    score_kingdom,
    variant_bonuses,
)
from tabletap.games.kingdomino.rules.treasures import token_kinds
from tests.rules.kingdomino_helpers import grid

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "kingdoms"


def test_territory_is_squares_times_crowns() -> None:
    """Rule: "each territory (orthogonally connected squares of one landscape) scores squares
    × crowns"; diagonal squares are separate territories, and a crownless one scores 0."""
    cells = grid("""
        W1 W  F
        L  C  W2
        W  L1 L
    """)
    b = score_kingdom(cells)
    by_start = {t.cells[0]: (t.terrain, t.squares, t.crowns, t.points) for t in b.territories}
    assert by_start[(-1, -1)] == ("wheat", 2, 1, 2)  # W1 W
    assert by_start[(-1, 1)] == ("forest", 1, 0, 0)
    assert by_start[(0, -1)] == ("lake", 1, 0, 0)  # diagonal to the other lakes
    assert by_start[(0, 1)] == ("wheat", 1, 2, 2)  # not joined to the north-west wheat
    assert by_start[(1, -1)] == ("wheat", 1, 0, 0)
    assert by_start[(1, 0)] == ("lake", 2, 1, 2)
    assert b.score == 6
    assert len(find_territories(cells)) == 6  # the castle is no territory


def test_gem_quarters_add_crowns_and_a_skull_zeroes_a_territory() -> None:
    """Expansion: "these crowns are added to those already present on your dominoes"; "A
    territory pointed at by a skull will not score any points ... regardless of how many crowns
    it contains"."""
    cells = grid("""
        W  F1 F
        L  G  C
    """)
    # corner (-1,-2): nw W, ne F1, se G, sw L
    plus = PlacedGem("sapphire", (-1, -2), (2, 0, 1, 0))
    b = score_kingdom(cells, [plus])
    assert b.score == 1 * 2 + 2 * 1 + 1 * 1  # wheat 2, forest 2 squares × 1, grassland 1
    skull = PlacedGem("topaz", (-1, -2), (0, "skull", 0, 3))
    b = score_kingdom(cells, [skull])
    forest = next(t for t in b.territories if t.terrain == "forest")
    assert forest.crowns == 1 and forest.skulls == 1 and forest.points == 0
    assert b.score == 3  # lake 1 × 3


def test_immediate_victory_needs_five_types_joker_counts_as_any() -> None:
    """Expansion: "5 different gem types ... The Joker token counts as a gem of any type"."""
    cells = grid("C W\nF L\nG S")
    corner = (1, 0)  # wheat, forest, lake, grassland... any four squares will do for the count
    gems = [PlacedGem(k, corner, (0, 0, 0, 0)) for k in ("ruby", "sapphire", "emerald", "topaz")]
    assert not score_kingdom(cells, gems).immediate_victory
    assert score_kingdom(cells, [*gems, PlacedGem("joker", corner, (1, 0, 0, 0))]).immediate_victory
    assert score_kingdom(cells, [*gems, PlacedGem("amethyst", corner, (0, 0, 0, 0))]
                         ).immediate_victory
    two_rubies = [*gems[:3], PlacedGem("ruby", corner, (0, 0, 0, 0))]
    assert not score_kingdom(cells, two_rubies).immediate_victory


def test_middle_kingdom_and_harmony() -> None:
    """Variants: Middle Kingdom "+10 castle in the centre", Harmony "+5 no discards"."""
    full = parse_kingdom((EXAMPLES / "complete-5x5.txt").read_text()).cells
    assert variant_bonuses(full, 5, True, True) == {"middle_kingdom": 10, "harmony": 5}
    assert variant_bonuses(full, 5, False, False) == {}
    off_centre = grid("""
        C W W W W
        W W W W W
        W W W W W
        W W W W W
        W W W W W
    """)
    assert variant_bonuses(off_centre, 5, True, True) == {"harmony": 5}
    holes = dict(full)
    del holes[(4, 0)], holes[(4, 1)]
    assert variant_bonuses(holes, 5, True, True) == {"middle_kingdom": 10}
    # A small kingdom around the castle is not "in the middle" of a 5×5 kingdom.
    assert variant_bonuses(grid("W C W"), 5, True, False) == {}


def _expected(path: Path) -> int:
    line = next(x for x in path.read_text().splitlines() if x.startswith("# score:"))
    return int(line.split(":")[1])


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.txt")), ids=lambda p: p.name)
def test_shipped_examples_match_their_hand_computed_scores(path: Path) -> None:
    k = parse_kingdom(path.read_text())
    assert score_kingdom(k.cells, k.gems).score == _expected(path)


def test_render_then_parse_is_the_same_kingdom() -> None:
    k = parse_kingdom((EXAMPLES / "treasures.txt").read_text())
    again = parse_kingdom(render_kingdom(k.cells, k.size, k.gems))
    assert again.cells == k.cells and again.gems == k.gems


GOOD = ["L L L L L", "G G2 G1 F F", "W1 W C F F", "S1 W W F1 F1", "L W W1 F W"]  # tiles


def _with(rows: list[str], *extra: str) -> str:
    return "\n".join([*rows, *extra]) + "\n"


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        (_with(GOOD[:4]), 4, "4 rows"),
        (_with([*GOOD[:4], "L W W1 F"]), 5, "4 squares"),
        (_with([*GOOD[:4], "L W W1 F X"]), 5, "unknown letter 'X'"),
        (_with([*GOOD[:4], "L W W1 F C"]), 5, "second castle (the first is on line 3)"),
        (_with([GOOD[0], GOOD[1], "W1 W W F F", *GOOD[3:]]), None, "no castle"),
        (_with([*GOOD[:4], "L W W1 F W4"]), 5, "more than 3 crowns"),
        (_with([*GOOD[:4], "L W W1 F .1"]), 5, "cannot carry crowns"),
        (_with([*GOOD[:4], "L W W1 F C1"]), 5, "castle carries no crowns"),
        (_with([*GOOD[:4], "L W W1 F W²"]), 5, "is not a square"),
        (_with(["W . . . .", ". . . . .", ". . C . .", ". . . . .", ". . . . ."]), 1,
         "not connected"),
        (_with(["M M M M M", "M M M M M", "M M C M M", ". . . . .", ". . . . ."]), 3,
         "mine squares with 0 crowns, but the box holds only 1"),
        (_with(GOOD, "gem ruby 0 0 2 0 skull 0"), 6, "not on the corner of four different"),
        (_with(GOOD, "gem ruby 1 1 2 0 skull 0"), 6, "not on the corner of four different"),
        (_with(GOOD, "gem diamond 0 0 1 0 0 0"), 6, "unknown gem 'diamond'"),
        (_with(GOOD, "gem ruby 4 0 2 0 skull 0"), 6, "0..3"),
        (_with(GOOD, "gem ruby ² 0 2 0 skull 0"), 6, "whole numbers"),
        (_with(GOOD, "gem ruby 0 0 2 0 skull"), 6, "a gem line reads"),
        (_with(GOOD, "gem ruby 1 0 2 0 skull lots"), 6, "crown count or 'skull'"),
        (_with(GOOD, "gem ruby 1 0 2 0 skull ²"), 6, "crown count or 'skull'"),
        (_with(GOOD, "gem ruby 0 0 2 0 skull 0", "W W W W W"), 7, "before the gem lines"),
        # an odd number of squares: 23 besides the castle
        (_with([*GOOD[:4], "L W W1 F ."]), None, "an odd number"),
        # the old complete-5x5 example: right counts, but the crownless mine at (3,1) has no
        # wheat-crown neighbour, and the only domino with that mine is 23 (wheat 1 | mine 0)
        (_with(["W W1 F F L", "W G G F1 L1", "S S2 C L L", "M2 M G G1 L", "S S G W W1"]),
         None, "cannot be laid as dominoes"),
        # the only mine with one crown is domino 40 (mine 1 | wheat): at (0,0) it has no wheat
        # neighbour (the reviewer's M1 at (4,3) of the old 7×7 example)
        (_with(["M1 L L L L", *GOOD[1:]]), None, "cannot be laid as dominoes"),
        ("", None, "no grid"),
    ],
)
def test_impossible_kingdoms_are_refused_with_the_line(text: str, line: int | None,
                                                       needle: str) -> None:
    with pytest.raises(KingdomFileError) as err:
        parse_kingdom(text)
    assert err.value.line == line
    assert needle in err.value.message


def test_gem_checks_on_a_treasure_kingdom() -> None:
    base = (EXAMPLES / "treasures.txt").read_text()
    with pytest.raises(KingdomFileError) as err:
        parse_kingdom(base + "gem ruby 1 1 2 0 skull 0\n")
    assert "second gem on the corner" in err.value.message
    grid = [x for x in (EXAMPLES / "five-gems.txt").read_text().splitlines()
            if x and not x.startswith(("#", "gem"))]
    corners = ((1, 1), (1, 2), (0, 3), (0, 1))
    many = _with(grid, *(f"gem ruby {r} {c} 2 0 skull 0" for r, c in corners))
    with pytest.raises(KingdomFileError) as err:
        parse_kingdom(many)
    assert "more ruby tokens than the box holds" in err.value.message and err.value.line == 11


@pytest.mark.parametrize("gem", [
    "gem joker 1 1 3 3 3 3",  # the Joker carries one crown (rulebook), never twelve
    "gem ruby 1 1 0 0 99 99",  # no token carries 99 crowns
    "gem ruby 1 1 0 2 0 0",  # a ruby has a skull opposite its 2 (treasures.yaml)
    "gem sapphire 1 1 1 0 1 0",  # the emerald's pattern, not the sapphire's
])
def test_gem_quarters_must_be_a_turn_of_a_real_token(gem: str) -> None:
    """THE LOST TREASURES: a gem is one of the box's tokens laid in one of four turns; its
    quarters are the token's (treasures.yaml), so a line that no token can show is refused."""
    grid = [x for x in (EXAMPLES / "treasures.txt").read_text().splitlines()
            if x and not x.startswith(("#", "gem"))]
    with pytest.raises(KingdomFileError) as err:
        parse_kingdom(_with(grid, gem))
    assert err.value.line == 6 and "treasures.yaml" in err.value.message
    for turns in range(4):  # every turn of the real token is accepted
        kind = gem.split()[1]
        q = token_kinds()[kind].quarters
        turned = " ".join(str(q[(i - turns) % 4]) for i in range(4))
        parse_kingdom(_with(grid, f"gem {kind} 1 1 {turned}"))
