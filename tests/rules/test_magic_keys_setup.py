"""Magic Keys: starting a game, the secret fake keys, JSON forms and the public view."""

from __future__ import annotations

import pytest

from tabletap.controller.rules import engine_for
from tabletap.controller.rules.base import Rejection
from tabletap.games.magic_keys.rules import (
    ENGINE,
    EndTurn,
    MagicKeysState,
    Move,
    Pond,
    Roll,
    TryKey,
)

from .test_magic_keys_support import FAKES, game, play, rejected


def test_the_registry_serves_this_engine():
    assert engine_for("magic-keys") is ENGINE
    assert ENGINE.name == "magic-keys"


def test_a_new_game():
    """I. Game Preparation: "Put the keys in the designated slot", "Put all the gems in the
    treasure chest", "Place the pawn in the starting place"."""
    state = ENGINE.new_game(["ana", "ben"], 3, {"dice": "digital"}, {})
    view = ENGINE.public_view(state)
    assert set(view["keys"].values()) == {"forest"} and len(view["keys"]) == 20
    assert view["chest"] == 42 and view["scores"] == {"ana": 0, "ben": 0}
    assert view["pawn"] == {"position": 0, "space": "start"}
    assert view["dice"]["available"] == 3
    assert view["gems_required"] == 15
    assert ENGINE.new_game(["ana", "ben"], 3, {}, {}).dice_mode == "physical"


@pytest.mark.parametrize(
    ("players", "options", "setup", "says"),
    [
        (["ana"], {}, {}, "2 to 4 players"),
        (["a", "b", "c", "d", "e"], {}, {}, "2 to 4 players"),
        (["ana", "ana"], {}, {}, "different name"),
        (["ana", ""], {}, {}, "list of names"),
        (["ana", "ben"], {"speed": 2}, {}, "'speed'"),
        (["ana", "ben"], {"dice": "loaded"}, {}, "'loaded'"),
        (["ana", "ben"], {}, {"fakes": []}, "'fakes'"),
        (["ana", "ben"], {}, {"fake_keys": FAKES[:-1]}, "yellow has 1"),
        (["ana", "ben"], {}, {"fake_keys": FAKES[:-1] + ["yellow/9"]}, "'yellow/9'"),
        (["ana", "ben"], {}, {"fake_keys": FAKES[:-1] + ["gold"]}, "always true"),
        (["ana", "ben"], {}, {"fake_keys": FAKES[:-1] + ["yellow/1"]}, "more than once"),
        (["ana", "ben"], {}, {"fake_keys": FAKES[:-1] + ["blue/5"]}, "blue has 3"),
        (["ana", "ben"], {}, {"fake_keys": "purple/1"}, "list of keys"),
    ],
)
def test_impossible_setups_are_named(players, options, setup, says):
    """Components: 2-4 players ("Gems required" lists 2, 3 and 4 players); Tip: "three true keys
    and two fake keys in each color"."""
    with pytest.raises(Rejection) as info:
        ENGINE.new_game(players, 1, options, setup)
    assert info.value.code == "bad-setup"
    assert says in info.value.message


def test_fake_keys_are_chosen_from_the_seed():
    """Tip: "There are three true keys and two fake keys in each color." Without a forced setup
    the engine picks two fakes per colour from chance(seed, 0, "fake-keys")."""
    draws = set()
    for seed in range(20):
        fakes = ENGINE.new_game(["a", "b"], seed, {}, {}).fake_keys
        assert fakes == ENGINE.new_game(["a", "b"], seed, {}, {}).fake_keys
        for colour in ("purple", "blue", "green", "yellow"):
            assert sum(k.startswith(colour + "/") for k in fakes) == 2
        draws.add(fakes)
    assert len(draws) > 10  # afresh for every game, not one fixed set


def test_fake_keys_are_what_random_sample_draws():
    """The draw writes out random.sample(range(1, 6), 2) per colour (for speed): for every seed
    it must pick the very keys the sample picks, so a seed's game never changes."""
    from tabletap.controller.rules.base import chance
    for seed in [*range(3000), 2**40 + 3, -17]:
        rng = chance(seed, 0, "fake-keys")
        picked = {f"{c}/{n}" for c in ("purple", "blue", "green", "yellow")
                  for n in rng.sample(range(1, 6), 2)}
        fakes = ENGINE.new_game(["a", "b"], seed, {}, {}).fake_keys
        assert fakes == tuple(k for k in ENGINE.track.keys if k in picked)


def test_forced_fake_keys_are_used():
    state = game(fakes=list(reversed(FAKES)))
    assert set(state.fake_keys) == set(FAKES)


def test_the_view_hides_the_fake_keys_unless_revealed():
    """Tip: you "figure out how many true/fake keys are left in the forest by counting used keys"
    - which forest keys are fake is the game's secret."""
    state = play(game(), TryKey("purple/4"))
    view = ENGINE.public_view(state)
    assert "fake_keys" not in view and "seed" not in view
    assert view["keys"]["purple/4"] == "held:ana"
    assert view["keys"]["purple/5"] == "forest"
    assert "pawn" not in view and "dice" not in view  # real dice: the engine cannot see them
    revealed = ENGINE.public_view(state, reveal=True)
    assert revealed["fake_keys"] == FAKES
    assert view["current_player"] == "ben" and view["winners"] == [] and not view["over"]


def test_state_json_round_trips_exactly():
    state = play(game(dice="digital"), Roll((3, "moon", 1)))
    data = ENGINE.state_to_json(state)
    again = ENGINE.state_from_json(data)
    assert again == state
    assert ENGINE.state_to_json(again) == data
    assert data["fake_keys"] == FAKES and data["rolls"] == 1 and data["showing"] == [3, 1]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"current": 5}, "current player"),
        ({"places": {"purple/1": "forest"}}, "coloured key"),
        ({"chest": -1}, "chest"),
        ({"surprise": 1}, "surprise"),
        ({"pawn": 40}, "off the track"),
        ({"pawn": None}, "pawn"),
        ({"showing": [5]}, "numbers showing"),
        ({"places": {**dict.fromkeys(FAKES, "held:zoe")}}, "impossible place"),
    ],
)
def test_a_damaged_state_is_refused_with_a_reason(change, says):
    data = ENGINE.state_to_json(game(dice="digital")) | change
    with pytest.raises(ValueError, match=says):
        ENGINE.state_from_json(data)


def test_the_engine_never_mutates_its_input():
    """Engines never mutate the input state: accepted actions build a new one."""
    state = game()
    before = ENGINE.state_to_json(state)
    after = play(state, TryKey("purple/4"), TryKey("purple/1"), EndTurn())
    assert ENGINE.state_to_json(state) == before
    assert ENGINE.state_to_json(after) != before
    assert isinstance(after, MagicKeysState)


@pytest.mark.parametrize(
    ("action", "data"),
    [
        (TryKey("blue/3"), {"type": "try-key", "key": "blue/3"}),
        (TryKey("gold"), {"type": "try-key", "key": "gold"}),
        (Pond("purple/4"), {"type": "pond", "key": "purple/4"}),
        (EndTurn(), {"type": "end-turn"}),
        (Roll(None), {"type": "roll", "dice": None}),
        (Roll((3, "moon", 1)), {"type": "roll", "dice": [3, "moon", 1]}),
        (Move(3), {"type": "move", "steps": 3}),
    ],
)
def test_actions_as_json(action, data):
    assert ENGINE.action_to_json(action) == data
    assert ENGINE.action_from_json(data) == action


def test_a_roll_without_dice_means_draw():
    assert ENGINE.action_from_json({"type": "roll"}) == Roll(None)


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ("try-key", "not an action"),
        ({"key": "blue/3"}, "no such action"),
        ({"type": "jump"}, "no such action"),
        ({"type": "try-key"}, "needs a key"),
        ({"type": "try-key", "key": 3}, "needs a key"),
        ({"type": "pond", "key": ""}, "needs a key"),
        ({"type": "end-turn", "now": True}, "does not know: now"),
        ({"type": "roll", "dice": "3,1"}, "list of faces"),
        ({"type": "roll", "dice": [3, None]}, "die face"),
        ({"type": "roll", "dice": [True, 1, 2]}, "die face"),
        ({"type": "move"}, "whole number"),
        ({"type": "move", "steps": "3"}, "whole number"),
        ({"type": "move", "steps": 2.5}, "whole number"),
    ],
)
def test_malformed_actions_are_named(data, says):
    with pytest.raises(Rejection) as info:
        ENGINE.action_from_json(data)
    assert info.value.code == "bad-action"
    assert says in info.value.message


def test_apply_refuses_a_foreign_action():
    rejected(game(), "try-key", "bad-action")


def test_a_forced_roll_may_come_as_a_list():
    """A scenario's `roll: [3, moon, 1]` arrives as a list; the journal keeps a tuple."""
    result = ENGINE.apply(game(dice="digital"), Roll([3, "moon", 1]))
    assert result.action == Roll((3, "moon", 1))
