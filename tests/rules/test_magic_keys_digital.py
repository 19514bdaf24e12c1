"""Magic Keys with digital dice: the engine rolls, keeps the dice and walks the pawn.

Each test names the rulebook rule it checks (the Magic Keys rulebook). Forced rolls
(`Roll((3, "moon", 1))`) stand in for a scenario's `roll:` step.
"""

from __future__ import annotations

import pytest

from tabletap.controller.rules.base import chance
from tabletap.games.magic_keys.rules import ENGINE, EndTurn, Move, Pond, Roll, TryKey

from .test_magic_keys_support import event, game, kinds, outcome, play, rejected

M = "moon"
TRACK = ENGINE.track


def digital(players: tuple[str, ...] = ("ana", "ben", "cleo"), seed: int = 7):
    return game(players, dice="digital", seed=seed)


def walk(state, space: str):
    """Walk the pawn to a space with moon-free forced rolls (every die keeps rolling)."""
    target = TRACK.spaces.index(space)
    while state.pawn < target:
        step = min(4, target - state.pawn)
        state = play(state, Roll((step,) + (1,) * (state.dice - 1)), Move(step))
    assert state.pawn == target
    return state


def test_a_roll_sets_the_moons_aside():
    """1. Roll the dice: "Roll three dice simultaneously, and put aside all dice with the moon
    symbol" - Jane's example: moon, 3 and 1."""
    result = outcome(digital(), Roll((M, 3, 1)))
    assert event(result, "roll")["dice"] == [M, 3, 1]
    view = ENGINE.public_view(result.state)
    assert view["dice"] == {"available": 2, "set_aside": 1, "showing": [3, 1], "rolled": True,
                            "moved": False}


def test_the_engine_draws_the_faces_from_the_seed_and_records_them():
    """Components: "Each side of the dice consists of the following: 1, 2, 3, 4, moon, moon."
    An unforced roll is drawn from chance(seed, counter, "roll") and the resolved action carries
    the faces, so replaying the journal never draws again."""
    state = digital(seed=11)
    result = outcome(state, Roll(None))
    rng = chance(11, 0, "roll")
    expected = tuple(rng.choice((1, 2, 3, 4, M, M)) for _ in range(3))
    assert result.action == Roll(expected)
    assert result.state.rolls == 1
    assert ENGINE.apply(state, result.action).state == result.state


def test_a_forced_roll_must_fit_the_dice_in_hand():
    """1. Roll the dice: you roll the dice you still have; each shows 1-4 or moon."""
    state = digital()
    rejected(state, Roll((1, 2)), "bad-roll")
    rejected(state, Roll((1, 2, 3, 4)), "bad-roll")
    rejected(state, Roll((1, 2, 5)), "bad-roll")
    rejected(state, Roll((1, 2, "sun")), "bad-roll")
    rejected(state, Roll((0, 2, 3)), "bad-roll")
    rejected(state, Roll((True, 2, 3)), "bad-roll")
    smaller = play(state, Roll((M, 3, 1)), Move(3))
    rejected(smaller, Roll((1, 2, 3)), "bad-roll")


def test_move_by_one_of_the_numbers_showing():
    """1. Roll the dice: "Choose one of the remaining dice and advance the game pawn by the number
    indicated on the chosen dice" - Jane chooses 3 and moves three spaces."""
    state = play(digital(), Roll((M, 3, 1)))
    rejected(state, Move(4), "no-such-die")
    rejected(state, Move(0), "no-such-die")
    result = outcome(state, Move(3))
    assert event(result, "move") == {
        "player": "ana", "steps": 3, "from": 0, "to": 3, "space": "purple/3"
    }
    assert ENGINE.public_view(result.state)["pawn"] == {"position": 3, "space": "purple/3"}


def test_a_roll_waits_for_its_move():
    """1. Roll the dice: a roll is followed by choosing a die and moving; only "After moving the
    game pawn" may you roll again or pull a key."""
    state = play(walk(digital(), "purple/2"), Roll((M, 3, 1)))
    rejected(state, Roll((1, 1)), "choose-die-first")
    rejected(state, Roll(None), "choose-die-first")
    rejected(state, TryKey("purple/2"), "choose-die-first")


def test_roll_again_with_the_remaining_dice_the_moved_die_included():
    """1. Roll the dice: "Roll all remaining dice and put aside the moon dice from the result
    again" - Jane "can roll only two dice because Jane put one moon dice aside", then rolls moon
    and 4 and moves four."""
    state = play(digital(), Roll((M, 3, 1)), Move(3))
    assert state.dice == 2
    result = outcome(state, Roll((M, 4)))
    assert result.state.dice == 1
    state = play(result.state, Move(4))
    assert TRACK.spaces[state.pawn] == "blue/2"
    assert TryKey("blue/2") in ENGINE.legal_actions(state)
    assert Roll(None) in ENGINE.legal_actions(state)


def test_no_move_without_a_roll():
    """1. Roll the dice and move forward: the pawn moves by a die just rolled, once per roll."""
    state = digital()
    rejected(state, Move(1), "must-roll-first")
    moved = play(state, Roll((2, 2, 2)), Move(2))
    rejected(moved, Move(2), "must-roll-first")


def test_pull_a_key_only_after_rolling_this_turn():
    """II. Gameplay: each turn starts with "1. Roll the dice and move forward"; a key is pulled
    only after that, even when the last turn left the pawn on a key."""
    state = play(digital(), Roll((M, 3, 1)), Move(3), Roll((M, M)))
    assert ENGINE.current_player(state) == "ben" and TRACK.spaces[state.pawn] == "purple/3"
    rejected(state, TryKey("purple/3"), "must-roll-first")


def test_a_key_is_pulled_only_after_a_move_even_when_the_pond_brought_the_dice_back():
    """1. Roll the dice and move forward: "After moving the game pawn, you can choose one of the
    following: ... Pull out a key"; 2.: "If you decide to stop moving, you should pull out the
    key from the space where the game pawn is currently located." A turn that starts on a key
    must roll and move before pulling; so must one whose first roll was all moons and whose
    dice the pond brought back (Magic Pond: "continue with your turn", which is step 1)."""
    state = play(walk(digital(("ana", "ben")), "purple/4"), TryKey("purple/4"))  # ana: a fake
    state = play(state, Roll((1, M, M)), Move(1), Roll((M,)))  # ben's moons leave it on purple/1
    assert ENGINE.current_player(state) == "ana" and TRACK.spaces[state.pawn] == "purple/1"
    rejected(state, TryKey("purple/1"), "must-roll-first")
    state = play(state, Roll((M, M, M)))  # away from the start: no teleport; ana may pond
    assert state.dice == 0 and ENGINE.current_player(state) == "ana"
    state = play(state, Pond("purple/4"))
    assert state.dice == 3 and not state.moved
    err = rejected(state, TryKey("purple/1"), "must-roll-first")
    assert "move the pawn" in err.message
    assert TryKey("purple/1") not in ENGINE.legal_actions(state)
    state = play(state, Roll((1, M, 4)), Move(1))
    assert state.moved and TryKey("purple/2") in ENGINE.legal_actions(state)
    result = outcome(state, TryKey("purple/2"))
    assert kinds(result)[0] == "chest-open" and not result.state.moved


def test_all_moons_ends_the_turn_and_the_pawn_stays():
    """1. Roll the dice: "If all dice have been put aside due to dice showing moon during your
    turn ... immediately proceed with the 3. End the turn step"; 3. End the turn, case 2: "the next
    player will start their turn without moving the pawn to the starting space"."""
    state = play(digital(), Roll((M, 3, 1)), Move(3))
    result = outcome(state, Roll((M, M)))
    assert kinds(result) == ["roll", "turn"]
    assert event(result, "turn") == {"player": "ben"}
    assert result.state.pawn == 3
    assert result.state.dice == 3 and not result.state.rolled  # ben's fresh dice


def test_all_moons_with_a_fake_key_waits_for_the_pond_or_end_turn():
    """Events occur!: "When all dice show moon and if you have a fake key at that time, you can
    perform the 'Magic Pond and Fake Key' event" - so the turn waits for that choice."""
    state = walk(digital(("ana", "ben")), "purple/4")
    state = play(state, TryKey("purple/4"))  # fake: it lies in front of ana; ben's turn
    # ben leaves the start first (three moons there would teleport), then rolls his last moon.
    state = play(state, Roll((1, M, M)), Move(1), Roll((M,)))
    assert ENGINE.current_player(state) == "ana"
    result = outcome(state, Roll((1, M, M)))
    state = play(result.state, Move(1))
    waiting = outcome(state, Roll((M,)))
    assert kinds(waiting) == ["roll"]
    assert ENGINE.current_player(waiting.state) == "ana"
    assert waiting.state.dice == 0
    assert set(ENGINE.legal_actions(waiting.state)) == {EndTurn(), Pond("purple/4")}
    rejected(waiting.state, Roll(None), "no-dice-left")
    rejected(waiting.state, Move(1), "no-dice-left")
    rejected(waiting.state, TryKey("purple/2"), "no-dice-left")
    ended = outcome(waiting.state, EndTurn())
    assert event(ended, "turn") == {"player": "ben"}
    assert ended.state.pawn == waiting.state.pawn
    ponded = outcome(waiting.state, Pond("purple/4"))
    assert ponded.state.dice == 3 and ENGINE.current_player(ponded.state) == "ana"
    assert Roll(None) in ENGINE.legal_actions(ponded.state)


def test_pond_brings_back_the_dice_mid_turn():
    """Magic Pond and Fake Key: "bring back all the dice you had put away because the moon came
    out. After that, continue with your turn." """
    state = play(walk(digital(("ana", "ben")), "purple/4"), TryKey("purple/4"))
    state = play(state, Roll((1, 1, 1)), Move(1), TryKey("purple/1"))  # ben; back to ana
    state = play(state, Roll((M, M, 2)), Move(2))
    assert state.dice == 1
    result = outcome(state, Pond("purple/4"))
    assert event(result, "pond") == {"player": "ana", "key": "purple/4"}
    assert result.state.dice == 3
    assert result.state.pawn == state.pawn


def test_end_turn_needs_all_moons():
    """3. End the turn: a turn ends by trying the chest or "If all dice show moon"."""
    state = digital()
    rejected(state, EndTurn(), "dice-left")
    rejected(play(state, Roll((M, 3, 1)), Move(3)), EndTurn(), "dice-left")


def test_try_the_key_on_the_pawns_space_then_back_to_start():
    """2. Pull out a key: "pull out the key from the space where the game pawn is currently
    located"; 3. End the turn, case 1: "move the game pawn to the starting space"."""
    state = walk(digital(), "green/2")
    rejected(state, TryKey("green/1"), "not-on-key-space")
    result = outcome(state, TryKey("green/2"))
    assert event(result, "chest-open")["gems"] == 3
    assert result.state.pawn == 0
    assert ENGINE.current_player(result.state) == "ben"


def test_no_key_to_pull_on_the_start_or_recovery_space():
    """Special Spaces: the start and the red recovery box hold no key."""
    teleported = play(digital(), Roll((M, M, M)))
    assert TRACK.spaces[teleported.pawn] == "recovery"
    rejected(teleported, TryKey("green/1"), "not-on-key-space")
    rejected(teleported, TryKey("gold"), "not-on-key-space")


def test_an_empty_space_has_no_key_but_still_counts():
    """docs/games/magic-keys.md, "Sources beyond the rulebook": "A player may only stop and pull
    a key on a space that still holds one; empty spaces still count when moving"."""
    state = play(walk(digital(), "purple/2"), TryKey("purple/2"))  # true: onto the tower
    state = play(state, Roll((2, 1, 1)), Move(2))
    assert TRACK.spaces[state.pawn] == "purple/2"
    rejected(state, TryKey("purple/2"), "space-has-no-key")
    assert not [a for a in ENGINE.legal_actions(state) if isinstance(a, TryKey)]
    state = play(state, Roll((1, 1, 1)), Move(1))
    assert TRACK.spaces[state.pawn] == "purple/3"


def test_moving_past_the_golden_key_stops_there():
    """Golden Key: "When the game pawn arrives or passes here, you can open the treasure chest
    with a golden key" - the pawn stops on the golden key's space."""
    state = walk(digital(), "yellow/4")
    result = outcome(state, Roll((4, 4, 4)))
    moved = outcome(result.state, Move(4))
    assert event(moved, "move")["to"] == TRACK.gold_position
    assert ENGINE.public_view(moved.state)["pawn"]["space"] == "gold"
    rejected(moved.state, TryKey("yellow/5"), "not-on-key-space")
    won = outcome(moved.state, TryKey("gold"))
    assert event(won, "chest-open")["gems"] == 5


def test_stopping_on_recovery_brings_back_the_dice():
    """Recovery: "If the game pawn stops in the red box with the characters on it, you can bring
    back all the dice you've put away and use them." """
    state = walk(digital(), "blue/4")
    state = play(state, Roll((M, M, 2)))
    assert state.dice == 1
    result = outcome(state, Move(2))
    assert TRACK.spaces[result.state.pawn] == "recovery"
    assert kinds(result) == ["move", "recovery"]
    assert result.state.dice == 3


def test_passing_over_recovery_brings_nothing_back():
    """Recovery: only when the pawn "stops" in the red box."""
    state = play(walk(digital(), "blue/4"), Roll((M, M, 3)), Move(3))
    assert TRACK.spaces[state.pawn] == "green/1"
    assert state.dice == 1


def test_teleport_on_the_first_roll_at_the_start():
    """Teleport: "When you roll the dice the very first time at the starting place if all three
    dice show moon, go directly to the 'Recovery' space ... You can bring back all dice then
    continue your turn." """
    result = outcome(digital(), Roll((M, M, M)))
    assert kinds(result) == ["roll", "teleport"]
    assert result.state.pawn == TRACK.recovery_position
    assert result.state.dice == 3
    assert ENGINE.current_player(result.state) == "ana"
    assert Roll(None) in ENGINE.legal_actions(result.state)


def test_no_teleport_away_from_the_start():
    """Teleport: "This event only applies when the dice are rolled at the starting place." A
    first roll of three moons elsewhere simply ends the turn."""
    state = play(digital(), Roll((M, 3, 1)), Move(3), Roll((M, M)))  # ben, pawn on purple/3
    result = outcome(state, Roll((M, M, M)))
    assert kinds(result) == ["roll", "turn"]
    assert result.state.pawn == 3


def test_pond_in_digital_mode_follows_the_same_rules():
    """Magic Pond and Fake Key: only a fake key "you have"."""
    state = walk(digital(), "purple/4")
    rejected(state, Pond("purple/4"), "pond-needs-fake-key")


@pytest.mark.parametrize("space", ["purple/1", "gold"])
def test_legal_actions_with_digital_dice(space):
    """1. Roll the dice: after moving, "Roll the dice and move again" or "Pull out a key"."""
    state = walk(digital(), space)
    assert set(ENGINE.legal_actions(state)) == {Roll(None), TryKey(space)}
    assert set(ENGINE.legal_actions(digital())) == {Roll(None)}
    showing = play(digital(), Roll((3, 1, 3)))
    assert ENGINE.legal_actions(showing) == [Move(1), Move(3)]
