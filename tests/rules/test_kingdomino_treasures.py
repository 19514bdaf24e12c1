"""The Lost Treasures in the engine, and the end of the game: tie-breaks, variants, Dynasty."""

from __future__ import annotations

import pytest

from tabletap.controller.rules.base import Rejection
from tabletap.games.kingdomino.rules import ENGINE
from tabletap.games.kingdomino.rules.actions import Action
from tabletap.games.kingdomino.rules.treasures import oriented, parse_treasures, token_kinds
from tests.rules.kingdomino_helpers import act, confirm_all, grid, placing

# Lake on lake at (-1,-1); with the forest (-1,0) and the wheat (-2,0) already there, domino 37
# (lake / grassland1) facing north completes grassland, wheat, forest, lake around (-2,-1).
BEFORE_TREASURE = grid("""
    . . W
    . . F
    F L C
""")


def _discover(options: dict | None = None, gems: tuple[str, str] = ("ruby/1", "joker")) -> object:
    s = placing(37, BEFORE_TREASURE, options, gems=gems, rest=(44, 45, 46))
    return act(s, action="place", domino=37, at=[-1, -1], facing="north")


def test_a_square_of_four_different_landscapes_discovers_a_treasure() -> None:
    """Expansion: "If ... a player creates a square of four adjacent different landscapes when
    placing their domino, that player discovers a treasure!"."""
    s = _discover()
    assert s.step == "treasure" and s.treasures == [(-2, -1)]
    # The player must take the gem before claiming.
    with pytest.raises(Rejection) as err:
        act(s, action="claim", domino=44)
    assert err.value.code == "wrong-step"


def test_the_castle_is_not_a_landscape() -> None:
    """Issue: "a 2×2 square of four different landscapes (the castle is not a landscape)"."""
    cells = grid("""
        W F
        L C
    """)
    s = placing(12, cells)  # swamp/swamp can go anywhere next to the castle
    s = act(s, action="place", domino=12, at=[1, 0], facing="east")
    assert s.step == "claim" and s.treasures == []


def test_no_treasure_without_the_expansion() -> None:
    s = _discover({"treasures": False}, gems=("ruby/1", "joker"))
    assert s.step == "claim"


def test_taking_a_gem_orients_it_and_a_new_one_must_be_turned_up() -> None:
    """Expansion: "choose one of the two visible Gem tokens and place it at the intersection
    ..., orienting it in the direction of their choice. They must then reveal a new Treasure
    token to its Gem side so that there are always two Gem tokens visible."."""
    s = _discover()
    with pytest.raises(Rejection) as err:
        act(s, action="treasure", token="emerald/1", turns=0)
    assert err.value.code == "not-face-up"
    s = act(s, action="treasure", token="ruby/1", turns=1)
    gem = s.kingdoms["a"].gems[0]
    assert gem.corner == (-2, -1) and gem.quarters == oriented("ruby/1", 1)
    assert s.face_up == ["joker"] and s.reveals == 1 and "ruby/1" not in s.bag
    with pytest.raises(Rejection) as err:
        act(s, action="claim", domino=44)
    assert err.value.code == "confirm-first"
    s = ENGINE.apply(s, Action("reveal", token="topaz/2")).state
    assert s.face_up == ["joker", "topaz/2"] and s.step == "claim"


def test_turns_rotate_the_quarters_clockwise() -> None:
    base = token_kinds()["ruby"].quarters
    assert oriented("ruby/2", 0) == base
    once = oriented("ruby/2", 1)
    assert once[1] == base[0] and once[2] == base[1] and once[3] == base[2] and once[0] == base[3]
    assert oriented("ruby/2", 2) == (base[2], base[3], base[0], base[1])


def test_gem_crowns_count_in_the_score_and_a_skull_zeroes() -> None:
    """Expansion: gem crowns "are added to those already present"; skulls score 0."""
    s = _discover()
    quarters = oriented("joker", 0)
    s = act(s, action="treasure", token="joker", turns=0)
    # nw quarter points at the grassland (-2,-1), which has one printed crown
    expected_grass = 1 * (1 + (quarters[0] if isinstance(quarters[0], int) else 0))
    assert ENGINE.breakdown(s, "a").score == expected_grass
    assert ENGINE.scores(s)["a"] == expected_grass


def test_five_gem_types_win_at_once() -> None:
    """Expansion: "If a player manages to obtain 5 different gem types in their kingdom, they
    immediately win the game, without calculating points."."""
    s = _discover(gems=("amethyst/1", "joker"))
    from tabletap.games.kingdomino.rules.scoring import PlacedGem

    # Four gems found earlier (set straight into the state; only their types matter here).
    for kind in ("ruby", "sapphire", "emerald", "topaz"):
        s.kingdoms["a"].gems.append(PlacedGem(kind, (-2, -1), (0, 0, 0, 0), f"{kind}/1"))
    before = ENGINE.scores(s)
    out = ENGINE.apply(s, Action("treasure", token="joker", turns=0))
    assert ENGINE.winners(out.state) == ["a"] and ENGINE.is_over(out.state)
    assert [e.kind for e in out.events][-2:] == ["gem-victory", "win"]
    assert set(before) == {"a", "b"}  # scores are still reported; the win ignores them
    # A fourth type alone (no Joker) is not enough.
    s2 = _discover(gems=("amethyst/1", "topaz/1"))
    s2.kingdoms["a"].gems.append(PlacedGem("ruby", (-2, -1), (0, 0, 0, 0), "ruby/1"))
    assert not ENGINE.is_over(ENGINE.apply(s2, Action("treasure", token="topaz/1",
                                                       turns=0)).state)


def _finish(s: object) -> object:
    while not ENGINE.is_over(s):
        s = ENGINE.apply(s, ENGINE.legal_actions(s)[0]).state
    return s


def test_tie_breaks_largest_territory_then_crowns_then_shared() -> None:
    """Rule: "Ties: largest territory, then most crowns, then a shared win."."""
    s = _finish(ENGINE.new_game(["a", "b"], 4, {"treasures": False}, {}))
    s.kingdoms["a"].gems, s.kingdoms["b"].gems = [], []

    def kingdoms(a: str, b: str) -> None:
        s.kingdoms["a"].cells, s.kingdoms["b"].cells = grid(a), grid(b)

    kingdoms("W1 W1 C", "L2 L2 C")  # 4 against 8 points
    assert ENGINE.scores(s) == {"a": 4, "b": 8} and ENGINE.winners(s) == ["b"]
    # 16 each; a's wheat covers 8 squares, b's largest territory only 4.
    kingdoms("W1 W1 W W W\nW W W C .", "L2 L2 L L C")
    assert ENGINE.scores(s) == {"a": 16, "b": 16} and ENGINE.winners(s) == ["a"]
    # 16 each, largest territory 4 each: b has 5 crowns to a's 4.
    kingdoms("W1 W1 W1 W1 C", "L1 L1 L1 L C M1 M1")  # b: 4 × 3 + 2 × 2
    assert ENGINE.scores(s) == {"a": 16, "b": 16} and ENGINE.winners(s) == ["b"]
    # Everything equal: a shared win.
    kingdoms("W1 W1 W1 W1 C F", "L2 L2 L L C")
    assert ENGINE.scores(s) == {"a": 16, "b": 16} and ENGINE.winners(s) == ["a", "b"]


def test_variant_bonuses_count_at_the_end_only() -> None:
    opts = {"middle_kingdom": True, "harmony": True, "treasures": False}
    s = ENGINE.new_game(["a", "b"], 8, opts, {})
    full = grid("""
        W W W W W
        W W W W W
        W W C W W
        W W W W W
        W W W W W1
    """)
    s = confirm_all(s)
    s.kingdoms["a"].cells = dict(full)
    assert ENGINE.scores(s)["a"] == 24  # no bonus while the game goes on
    s = _finish(s)
    s.kingdoms["a"].cells = dict(full)
    assert ENGINE.scores(s)["a"] == 24 + 10 + 5


def test_dynasty_three_games_summed() -> None:
    """Variant: "Dynasty (three games, sum)"."""
    s = ENGINE.new_game(["a", "b"], 21, {"dynasty": True, "treasures": False}, {})
    games_seen = set()
    ended: list[dict[str, int]] = []
    while not ENGINE.is_over(s):
        out = ENGINE.apply(s, ENGINE.legal_actions(s)[0])
        for e in out.events:
            if e.kind == "dynasty-game":
                ended.append(e.data["scores"])
        s = out.state
        games_seen.add(s.game)
    assert games_seen == {1, 2, 3} and len(ended) == 2
    last = {p: ENGINE.breakdown(s, p).score for p in s.players}
    assert ENGINE.scores(s) == {p: ended[0][p] + ended[1][p] + last[p] for p in s.players}
    assert ENGINE.public_view(s)["dynasty"]["results"] == ended


def test_broken_treasure_data_is_refused() -> None:
    from tabletap.games.kingdomino.rules.treasures import TreasureDataError

    good = """
unverified: true
gems:
  ruby: {name: {en: ruby}, status: guess, count: 3, quarters: {nw: 1, ne: 0, se: 0, sw: 0}}
  sapphire: {name: {en: sapphire}, status: guess, count: 3, quarters: {nw: 1, ne: 0, se: 0, sw: 0}}
  emerald: {name: {en: emerald}, status: guess, count: 3, quarters: {nw: 1, ne: 0, se: 0, sw: 0}}
  topaz: {name: {en: topaz}, status: guess, count: 3, quarters: {nw: 1, ne: 0, se: 0, sw: 0}}
  amethyst:
    name: {en: amethyst}
    status: guess
    count: 3
    quarters: {nw: 1, ne: 0, se: skull, sw: 0}
joker:
  name: {en: joker, de: Joker}
  status: likely
  count: 1
  quarters: {nw: 1, ne: 0, se: 0, sw: 0}
"""
    assert parse_treasures(good)["amethyst"].quarters == (1, 0, "skull", 0)
    assert dict(parse_treasures(good)["joker"].named.names) == {"en": "joker", "de": "Joker"}
    for bad, needle in (
        (good.replace("se: skull", "se: bones"), "amethyst"),
        (good.replace("  topaz:", "  opal:"), "opal"),
        (good.replace("count: 1", "count: 2"), "exactly 1 joker"),
        (good.replace("ruby}, status: guess, count: 3, quarters: {nw: 1",
                      "ruby}, status: guess, count: 3, quarters: {nw: -1"), "negative"),
        (good.replace("unverified: true", "unverified: true\nextra: 1"), "extra"),
        # a name needs its English spelling, said where the other languages have none
        (good.replace("{en: topaz}", "{de: Topas}"),
         "treasures.yaml:7:11: gems.topaz.name: a name needs its English"),
    ):
        with pytest.raises(TreasureDataError) as err:
            parse_treasures(bad)
        assert needle in str(err.value)
