"""Magic Keys with real dice: the engine checks keys, the pond, turn order and the end.

Each test names the rulebook rule it checks (the Magic Keys rulebook).
"""

from __future__ import annotations

import pytest

from tabletap.games.magic_keys.rules import ENGINE, EndTurn, Move, Pond, Roll, TryKey

from .test_magic_keys_support import FAKES, TRUE_KEYS, event, game, kinds, outcome, play, rejected


def test_youngest_first_then_clockwise_in_seat_order():
    """II. Gameplay: "The youngest player takes their turn first. After that, each player takes
    turns in clockwise order." The first listed player is the youngest; seats go in list order."""
    state = game(("ana", "ben", "cleo"))
    assert ENGINE.current_player(state) == "ana"
    seen = []
    for _ in range(4):
        result = outcome(state, EndTurn())
        seen.append(event(result, "turn")["player"])
        state = result.state
    assert seen == ["ben", "cleo", "ana", "ben"]


@pytest.mark.parametrize(
    ("key", "gems"), [("purple/1", 2), ("blue/3", 2), ("green/1", 3), ("yellow/3", 4)]
)
def test_true_key_gives_gems_by_colour_and_hangs_on_the_tower(key, gems):
    """2. Pull out a key: "If it's a true key, the treasure chest will be opened! Get some gems
    according to the color of the key. Hang the used true key on the tower" (gem table:
    purple 2, blue 2, green 3, yellow 4)."""
    result = outcome(game(), TryKey(key))
    assert event(result, "chest-open") == {"player": "ana", "key": key, "gems": gems}
    assert event(result, "gems")["gems"] == gems
    assert ENGINE.scores(result.state)["ana"] == gems
    assert result.state.chest == 42 - gems
    assert ENGINE.public_view(result.state)["keys"][key] == "tower"


def test_a_used_true_key_cannot_be_tried_again():
    """2. Pull out a key: "You can never keep the true key you used!" (it hangs on the tower)."""
    state = play(game(), TryKey("purple/1"))
    rejected(state, TryKey("purple/1"), "key-already-used")


def test_fake_key_stays_shut_and_lies_in_front_of_the_player():
    """2. Pull out a key: "If it's a fake key, the treasure chest won't be opened ... put the fake
    key in front of you." """
    result = outcome(game(), TryKey("purple/4"))
    assert kinds(result) == ["fake", "turn"]
    assert event(result, "fake") == {"player": "ana", "key": "purple/4"}
    assert ENGINE.scores(result.state)["ana"] == 0
    assert result.state.chest == 42
    view = ENGINE.public_view(result.state)
    assert view["keys"]["purple/4"] == "held:ana"
    assert view["fakes_held"]["ana"] == ["purple/4"]


def test_a_revealed_fake_key_cannot_be_tried_again():
    """Tip: fake keys already found "are placed in front of players and in the magic pond", out
    of the forest; trying one again is refused."""
    state = play(game(), TryKey("purple/4"))
    rejected(state, TryKey("purple/4"), "fake-key-already-revealed")
    state = play(state, EndTurn(), EndTurn(), Pond("purple/4"))
    rejected(state, TryKey("purple/4"), "fake-key-already-revealed")


@pytest.mark.parametrize("key", ["purple/1", "purple/4"])
def test_any_chest_attempt_ends_the_turn(key):
    """3. End the turn, case 1: "If you try to open the chest, you will get gems or fake key ...
    then the next player starts their turn." """
    result = outcome(game(), TryKey(key))
    assert event(result, "turn") == {"player": "ben"}
    assert ENGINE.current_player(result.state) == "ben"


def test_golden_key_is_always_true_gives_five_and_goes_back():
    """Golden Key: "The golden key ... is the true key", "acquire five gems of memory", and
    "Golden key should not be hung on the tower. Please put it back in its original place!" """
    state = game()
    result = outcome(state, TryKey("gold"))
    assert event(result, "chest-open")["gems"] == 5
    assert ENGINE.scores(result.state)["ana"] == 5
    assert "gold" not in result.state.places
    assert TryKey("gold") in ENGINE.legal_actions(result.state)
    again = outcome(result.state, TryKey("gold"))
    assert ENGINE.scores(again.state)["ben"] == 5


@pytest.mark.parametrize(("players", "needed"), [(2, 15), (3, 13), (4, 11)])
def test_first_to_the_required_gems_wins_at_once(players, needed):
    """III. The End of the Game: "As soon as a player acquires the required number of gems, the
    game immediately ends" (2 players 15, 3 players 13, 4 players 11)."""
    names = ("ana", "ben", "cleo", "dan")[:players]
    state = game(names)
    gems = 0
    while True:
        # ana takes the golden key every round; the others pass.
        result = outcome(state, TryKey("gold"))
        gems += 5
        if gems >= needed:
            break
        assert "win" not in kinds(result)
        state = play(result.state, *[EndTurn()] * (players - 1))
    assert kinds(result) == ["chest-open", "gems", "win"]
    assert event(result, "win") == {"winners": ["ana"]}
    assert ENGINE.winners(result.state) == ["ana"]
    assert ENGINE.is_over(result.state)
    assert ENGINE.current_player(result.state) is None


def test_reaching_exactly_the_threshold_wins():
    """III. The End of the Game: "acquires the required number of gems" - 13 of 13 is enough."""
    # ben takes the golden key twice (10), then a green key (3): exactly 13.
    state = play(
        game(),
        TryKey("gold"), TryKey("gold"), EndTurn(),
        EndTurn(), TryKey("gold"), EndTurn(),
        EndTurn(),
    )
    assert ENGINE.scores(state) == {"ana": 5, "ben": 10, "cleo": 0}
    result = outcome(state, TryKey("green/1"))
    assert ENGINE.scores(result.state)["ben"] == 13
    assert ENGINE.winners(result.state) == ["ben"]


def test_nothing_is_accepted_after_the_win():
    """III. The End of the Game: "the game immediately ends"."""
    state = play(game(("ana", "ben", "cleo", "dan")), TryKey("gold"), *[EndTurn()] * 3)
    state = play(state, TryKey("gold"))  # ana: 10
    state = play(state, *[EndTurn()] * 3, TryKey("purple/4"), *[EndTurn()] * 3)
    state = play(state, TryKey("blue/3"))  # ana: 12 >= 11
    assert ENGINE.winners(state) == ["ana"]
    assert ENGINE.legal_actions(state) == []
    for action in (TryKey("gold"), TryKey("purple/1"), Pond("purple/4"), EndTurn(), Roll(None),
                   Move(1)):
        rejected(state, action, "game-over")


def test_the_chest_running_out_gives_what_is_left():
    """Components: "42 gems of memory". The rulebook does not say what happens when the chest
    holds fewer gems than a key is worth; the engine gives what is left (docs/games/magic-keys.md).
    Four players at 10 gems each leave 2 in the chest; a yellow key (worth 4) then gives 2."""
    state = game(("ana", "ben", "cleo", "dan"))
    state = play(state, *[TryKey("gold")] * 8)
    assert ENGINE.scores(state) == {"ana": 10, "ben": 10, "cleo": 10, "dan": 10}
    assert state.chest == 2
    result = outcome(state, TryKey("yellow/3"))
    assert event(result, "chest-open")["gems"] == 2
    assert event(result, "gems") == {"player": "ana", "gems": 2, "total": 12, "chest": 0}
    assert result.state.chest == 0
    assert ENGINE.winners(result.state) == ["ana"]


def test_gems_are_conserved():
    """Components: 42 gems in all; every gem is either in the chest or in front of a player."""
    state = play(game(), TryKey("purple/1"), TryKey("green/1"), TryKey("gold"), TryKey("blue/1"))
    assert sum(ENGINE.scores(state).values()) + state.chest == 42
    assert sum(ENGINE.scores(state).values()) == 2 + 3 + 5


def test_pond_takes_one_of_your_fake_keys_any_time_and_repeats():
    """Magic Pond and Fake Key: "At any time of your turn, put one fake key you have into the
    magic pond ... If you have multiple fake keys, you may use this ability several times during a
    single turn. If you want, you can keep them for later." """
    state = play(game(), TryKey("purple/4"), EndTurn(), EndTurn(), TryKey("blue/1"))
    state = play(state, EndTurn(), EndTurn())
    assert ENGINE.public_view(state)["fakes_held"]["ana"] == ["purple/4", "blue/1"]
    first = outcome(state, Pond("blue/1"))
    assert event(first, "pond") == {"player": "ana", "key": "blue/1"}
    assert ENGINE.current_player(first.state) == "ana"  # the turn goes on
    second = outcome(first.state, Pond("purple/4"))
    view = ENGINE.public_view(second.state)
    assert view["keys"]["purple/4"] == view["keys"]["blue/1"] == "pond"
    assert view["fakes_held"]["ana"] == []


def test_pond_only_takes_a_revealed_fake_key():
    """Magic Pond and Fake Key: "put one fake key you have" - a key still in the forest (even one
    that is secretly fake), a true key on the tower and the golden key are not fake keys you
    have."""
    state = play(game(), TryKey("purple/1"), EndTurn(), EndTurn())
    rejected(state, Pond("purple/5"), "pond-needs-fake-key")  # secretly fake, never tried
    rejected(state, Pond("purple/1"), "pond-needs-fake-key")  # true, on the tower
    rejected(state, Pond("gold"), "pond-needs-fake-key")


def test_pond_takes_only_your_own_fake_key():
    """Magic Pond and Fake Key: "one fake key you have", during "your turn"."""
    state = play(game(), TryKey("purple/4"))  # ben's turn; the fake lies in front of ana
    rejected(state, Pond("purple/4"), "not-your-fake-key")


def test_a_fake_key_goes_into_the_pond_once():
    """Magic Pond and Fake Key: a fake key put "into the magic pond" is no longer yours."""
    state = play(game(), TryKey("purple/4"), EndTurn(), EndTurn(), Pond("purple/4"))
    rejected(state, Pond("purple/4"), "fake-key-already-in-pond")


def test_unknown_keys_are_refused():
    """Components: "5 keys for each color (purple, blue, green, yellow), 1 golden key"."""
    state = game()
    rejected(state, TryKey("red/1"), "unknown-key")
    rejected(state, TryKey("purple/6"), "unknown-key")
    rejected(state, Pond("purple/0"), "unknown-key")


def test_end_turn_is_always_allowed_with_real_dice():
    """3. End the turn, case 2: "If all dice show moon: Finish your turn immediately". With real
    dice the engine cannot see the moons, so the end-turn button is trusted."""
    result = outcome(game(), EndTurn())
    assert kinds(result) == ["turn"]
    assert ENGINE.current_player(result.state) == "ben"
    assert ENGINE.scores(result.state) == {"ana": 0, "ben": 0, "cleo": 0}


def test_roll_and_move_need_digital_dice():
    """1. Roll the dice and move forward: with real dice the family rolls and moves by hand."""
    state = game()
    rejected(state, Roll(None), "physical-dice")
    rejected(state, Roll((1, 2, 3)), "physical-dice")
    rejected(state, Move(2), "physical-dice")


def test_legal_actions_with_real_dice():
    """Every key still in the forest may be pulled, the golden key always (Golden Key), the
    current player's fake keys may go into the pond, and the turn may end in moons."""
    state = play(game(), TryKey("purple/4"), TryKey("purple/1"), EndTurn())
    actions = ENGINE.legal_actions(state)
    tries = {a.key for a in actions if isinstance(a, TryKey)}
    assert tries == (set(ENGINE.track.keys) - {"purple/1", "purple/4"}) | {"gold"}
    assert [a for a in actions if isinstance(a, Pond)] == [Pond("purple/4")]
    assert EndTurn() in actions
    assert not [a for a in actions if isinstance(a, Roll | Move)]


def test_every_true_key_is_worth_its_colour():
    """Number of gems by key color: every one of the twelve true keys opens the chest."""
    for key in TRUE_KEYS:
        result = outcome(game(), TryKey(key))
        assert "chest-open" in kinds(result)
    for key in FAKES:
        assert "fake" in kinds(outcome(game(), TryKey(key)))
