"""Kingdomino placement, turn flow and end of game, each test naming the rule it checks."""

from __future__ import annotations

import copy

import pytest

from tabletap.controller.rules.base import Rejection
from tabletap.games.kingdomino.rules import ENGINE
from tabletap.games.kingdomino.rules.actions import Action
from tabletap.games.kingdomino.rules.dominoes import dominoes
from tabletap.games.kingdomino.rules.kingdom import (
    Placement,
    check_placement,
    legal_placements,
)
from tests.rules.kingdomino_helpers import act, grid, placing


def _code(state: object, **fields: object) -> str:
    before = ENGINE.state_to_json(state)
    with pytest.raises(Rejection) as err:
        act(state, **fields)
    assert ENGINE.state_to_json(state) == before  # "The game state is unchanged by it."
    return err.value.code


def test_castle_is_wild() -> None:
    """Rule: "Connection: touch the castle (wild)": any landscape may touch the castle."""
    s = placing(12)  # swamp/swamp
    s = act(s, action="place", domino=12, at=[0, 1], facing="east")
    assert s.kingdoms["a"].cells[(0, 1)].terrain == "swamp"


def test_a_domino_must_match_a_landscape_orthogonally() -> None:
    """Rule: "match at least one landscape orthogonally"; a diagonal match does not count."""
    cells = grid("C W\n. .")  # wheat east of the castle
    d16 = dominoes()[16]  # wheat / swamp
    # wheat half below the wheat square: connected
    check_placement(cells, 5, d16, Placement(16, (1, 1), "south"))
    # swamp half touching the wheat: no match; wheat half only diagonal to wheat
    with pytest.raises(Rejection) as err:
        check_placement(cells, 5, d16, Placement(16, (2, 1), "north"))
    assert err.value.code == "no-connection"
    with pytest.raises(Rejection) as err:
        check_placement(cells, 5, d16, Placement(16, (1, 2), "east"))
    assert err.value.code == "no-connection"


def test_the_kingdom_must_fit_five_by_five() -> None:
    """Rule: "The kingdom, castle included, fits in 5×5."."""
    s = placing(1, grid("C W W W W"))
    assert _code(s, action="place", domino=1, at=[0, -1], facing="west") == "too-big"
    s = act(s, action="place", domino=1, at=[1, 4], facing="south")
    assert len(s.kingdoms["a"].cells) == 7


def test_mighty_duel_kingdoms_fit_seven_by_seven() -> None:
    """Rule: "Mighty Duel (2 players, all 48 dominoes, 7×7)"."""
    row = "C W W W W W W"
    s = placing(1, grid(row), {"mighty_duel": True})
    assert _code(s, action="place", domino=1, at=[0, -1], facing="west") == "too-big"
    s = placing(1, grid("C W W W W"), {"mighty_duel": True})
    s = act(s, action="place", domino=1, at=[0, -1], facing="west")
    assert (0, -2) in s.kingdoms["a"].cells


def test_occupied_and_not_your_domino() -> None:
    s = placing(1)
    assert _code(s, action="place", domino=1, at=[0, 0], facing="east") == "occupied"
    assert _code(s, action="place", domino=44, at=[0, 1], facing="east") == "not-your-domino"
    assert _code(s, action="claim", domino=44) == "wrong-step"


def test_discard_only_when_no_legal_placement() -> None:
    """Rule: "A domino that cannot be placed legally is discarded; one that can be placed may
    not be discarded."""
    s = placing(12)  # swamp/swamp, next to a bare castle: it fits
    assert _code(s, action="discard", domino=12) == "can-place"
    # A full row of lakes east and west: the castle's only free sides lead out of the 5×5.
    boxed = grid("""
        L L L L L
        L L L L L
        L L C L L
        L L L L L
        . . . . .
    """)
    s = placing(12, boxed)
    assert legal_placements(boxed, 5, dominoes()[12]) == []
    s = act(s, action="discard", domino=12)
    assert s.kingdoms["a"].discards == [12] and 12 not in s.kingdoms["a"].placed
    assert s.step == "claim"


def test_turn_order_place_then_claim() -> None:
    """Rule: "place your domino, then put your king on a domino in the new line"."""
    s = placing(1)
    assert s.step == "place"
    s = act(s, action="place", domino=1, at=[0, 1], facing="east")
    assert s.step == "claim" and ENGINE.current_player(s) == "a"
    free = next(x.domino for x in s.next_line if x.king is None)
    s = act(s, action="claim", domino=free)
    assert ENGINE.current_player(s) == "b"


def test_last_round_only_places_and_the_game_ends() -> None:
    """Rule: "on the last round, only place"; the game ends when every king has placed."""
    s = ENGINE.new_game(["a", "b"], 3, {"treasures": False}, {})
    rounds = 0
    while not ENGINE.is_over(s):
        if not s.next_line and not s.unconfirmed:
            assert all(a.action in ("place", "discard") for a in ENGINE.legal_actions(s))
        s = ENGINE.apply(s, ENGINE.legal_actions(s)[0]).state
        rounds = max(rounds, s.round)
    # "12 rounds (6 with 2 players)": six rounds of placing, after the first round of claims.
    assert rounds - 1 == 6
    assert sum(len(k.placed) + len(k.discards) for k in s.kingdoms.values()) == 24
    assert ENGINE.legal_actions(s) == []
    with pytest.raises(Rejection) as err:
        ENGINE.apply(s, Action("claim", domino=1))
    assert err.value.code == "game-over"


def test_apply_never_mutates_its_input() -> None:
    s = placing(1)
    before = copy.deepcopy(ENGINE.state_to_json(s))
    ENGINE.apply(s, Action("place", domino=1, at=(0, 1), facing="east"))
    assert ENGINE.state_to_json(s) == before


@pytest.mark.parametrize(
    "data",
    [
        {"action": "jump"},
        {"action": "place", "domino": 1, "at": [0], "facing": "east"},
        {"action": "place", "domino": 1, "at": [0, 1], "facing": "up"},
        {"action": "place", "domino": 1, "at": [0, 1]},
        {"action": "claim", "domino": 49},
        {"action": "claim", "domino": True},
        {"action": "claim", "domino": 3, "king": "pink/1"},
        {"action": "treasure", "token": "ruby/4", "turns": 0},
        {"action": "treasure", "token": "ruby/1", "turns": 4},
        "claim",
    ],
)
def test_malformed_actions(data: object) -> None:
    with pytest.raises(Rejection) as err:
        ENGINE.action_from_json(data)  # type: ignore[arg-type]
    assert err.value.code == "bad-action"


def test_action_json_round_trip() -> None:
    for data in (
        {"action": "place", "domino": 3, "at": [-1, 2], "facing": "north"},
        {"action": "treasure", "token": "joker", "turns": 3},
        {"action": "reveal"},
        {"action": "confirm", "domino": 48},
    ):
        assert ENGINE.action_to_json(ENGINE.action_from_json(data)) == data
    a = ENGINE.action_from_json(
        {"action": "treasure", "token": "kingdomino/treasure/ruby/2", "turns": 1}
    )
    assert a.token == "ruby/2"
