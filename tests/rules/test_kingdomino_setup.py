"""Kingdomino set-up and turn order (base rules as summarised in docs/games/kingdomino.md)."""

from __future__ import annotations

import pytest

from tabletap.controller.rules.base import Rejection
from tabletap.games.kingdomino.rules import ENGINE
from tabletap.games.kingdomino.rules.actions import Action
from tabletap.games.kingdomino.rules.treasures import all_tokens
from tests.rules.kingdomino_helpers import act, claim, confirm_all


@pytest.mark.parametrize(
    ("players", "options", "dominoes", "kings", "size"),
    [
        (2, {}, 24, 4, 5),  # "2 players: two kings each, 24 dominoes drawn at random"
        (3, {}, 36, 3, 5),  # "3 players: one king each, 36 dominoes, lines of 3"
        (4, {}, 48, 4, 5),  # "4 players: 48 dominoes, lines of 4"
        (2, {"mighty_duel": True}, 48, 4, 7),  # "Mighty Duel (2 players, all 48 dominoes, 7×7)"
    ],
)
def test_setup_counts(players: int, options: dict, dominoes: int, kings: int, size: int) -> None:
    names = ["ana", "ben", "cleo", "dan"][:players]
    s = ENGINE.new_game(names, 1, options, {})
    assert len(s.kings) == kings
    assert len(s.next_line) == kings  # "A line has as many dominoes as kings in play"
    assert len(s.next_line) + len(s.deck) == dominoes
    assert len(set(s.deck) | {x.domino for x in s.next_line}) == dominoes
    assert s.size == size
    assert sorted(s.kings.values()) == sorted(n for n in names for _ in range(kings // players))


def test_line_is_laid_out_in_number_order_and_draw_fixes_the_box() -> None:
    """Rule: "laid out in ascending number order"; setup.draw is the order out of the box."""
    s = ENGINE.new_game(["a", "b", "c"], 5, {}, {"draw": [30, 2, 17, 9, 4, 48]})
    assert [x.domino for x in s.next_line] == [2, 17, 30]
    assert s.deck[:3] == [9, 4, 48]  # still in box order; sorted when laid out
    assert s.unconfirmed == [2, 17, 30]


def test_first_round_claims_in_king_draw_order() -> None:
    """Rule: "First round: kings drawn at random choose in turn."""
    s = ENGINE.new_game(["a", "b", "c"], 5, {}, {"king_order": ["c", "a", "b"]})
    s = confirm_all(s)
    assert ENGINE.current_player(s) == "c"
    line = [x.domino for x in s.next_line]
    s = claim(s, line[0])
    assert ENGINE.current_player(s) == "a"
    s = claim(s, line[2])
    s = claim(s, line[1])
    # "Then the king on the lowest-numbered domino goes first": c (line[0]), then b, then a.
    assert s.step == "place"
    assert [s.kings[k] for k in s.order] == ["c", "b", "a"]


def test_the_same_seed_gives_the_same_game_and_another_seed_another() -> None:
    a = ENGINE.new_game(["a", "b"], 9, {}, {})
    b = ENGINE.new_game(["a", "b"], 9, {}, {})
    c = ENGINE.new_game(["a", "b"], 10, {}, {})
    assert ENGINE.state_to_json(a) == ENGINE.state_to_json(b)
    assert a.deck != c.deck


@pytest.mark.parametrize(
    ("players", "options", "setup", "needle"),
    [
        (["a"], {}, {}, "2, 3 or 4"),
        (["a", "b", "c", "d", "e"], {}, {}, "2, 3 or 4"),
        (["a", "a"], {}, {}, "distinct"),
        (["a", "b"], {"speedy": True}, {}, "no option speedy"),
        (["a", "b"], {"harmony": "yes"}, {}, "true or false"),
        (["a", "b", "c"], {"mighty_duel": True}, {}, "exactly 2"),
        (["a", "b"], {}, {"draw": [1, 1]}, "twice"),
        (["a", "b"], {}, {"draw": [0]}, "1..48"),
        (["a", "b"], {}, {"draw": list(range(1, 26))}, "only 24"),
        (["a", "b"], {}, {"king_order": ["a", "b"]}, "2 times"),
        (["a", "b", "c"], {}, {"king_order": ["a", "b", "d"]}, "once each"),
        (["a", "b"], {}, {"face_up": ["ruby/1"]}, "two treasure"),
        (["a", "b"], {}, {"face_up": ["ruby/1", "ruby/1"]}, "twice"),
        (["a", "b"], {}, {"face_up": ["ruby/9", "joker"]},
         "not one of the treasure tokens"),
        (["a", "b"], {"treasures": False}, {"face_up": ["ruby/1", "joker"]}, "Lost Treasures"),
        (["a", "b"], {}, {"fake_keys": []}, "no fake_keys"),
    ],
)
def test_bad_setup_is_refused(players: list, options: dict, setup: dict, needle: str) -> None:
    with pytest.raises(Rejection) as err:
        ENGINE.new_game(players, 1, options, setup)
    assert err.value.code == "bad-setup"
    assert needle in err.value.message


def test_treasure_setup_sixteen_tokens_two_face_up() -> None:
    """Rule: "16 Treasure tokens ... Then randomly flip 2 of them to their Gem side."""
    assert len(all_tokens()) == 16
    s = ENGINE.new_game(["a", "b"], 1, {}, {"face_up": ["joker", "topaz/3"]})
    assert s.face_up == ["joker", "topaz/3"] and len(s.bag) == 14 and s.reveals == 0
    # Without setup.face_up the table turns up two gems and taps them.
    s = ENGINE.new_game(["a", "b"], 1, {}, {})
    assert s.face_up == [] and s.reveals == 2
    s = confirm_all(s)
    assert len(s.face_up) == 2 and len(s.bag) == 14


def test_a_tapped_reveal_must_be_chest_side_up() -> None:
    s = ENGINE.new_game(["a", "b"], 1, {}, {})
    s = ENGINE.apply(s, Action("reveal", token="emerald/1")).state
    with pytest.raises(Rejection) as err:
        ENGINE.apply(s, Action("reveal", token="emerald/1"))
    assert err.value.code == "not-chest-side"
    s = ENGINE.apply(s, Action("reveal", token="joker")).state
    with pytest.raises(Rejection) as err:
        ENGINE.apply(s, Action("reveal", token="ruby/1"))
    assert err.value.code == "no-reveal"


def test_nothing_is_played_until_the_line_is_confirmed() -> None:
    s = ENGINE.new_game(["a", "b"], 2, {}, {"face_up": ["ruby/1", "ruby/2"]})
    first = s.next_line[0].domino
    with pytest.raises(Rejection) as err:
        claim(s, first)
    assert err.value.code == "confirm-first"
    with pytest.raises(Rejection) as err:
        act(s, action="confirm", domino=next(n for n in range(1, 49) if n not in s.unconfirmed))
    assert err.value.code == "wrong-domino"
    s = confirm_all(s)
    with pytest.raises(Rejection) as err:
        act(s, action="confirm", domino=first)
    assert err.value.code == "not-expected"


def test_opening_events_announce_the_first_line_and_the_gems() -> None:
    s = ENGINE.new_game(["a", "b"], 2, {}, {"king_order": ["b", "a", "a", "b"]})
    events = ENGINE.opening_events(s)
    assert [e.kind for e in events] == ["line", "reveal-gems", "turn"]
    assert events[0].data["dominoes"] == [x.domino for x in s.next_line]
    assert events[2].data == {"player": "b"}
