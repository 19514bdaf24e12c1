"""Malformed input never escapes as anything but a Rejection (issue: "Bad input gets a clear
message and leaves state untouched"; `{"action": ["place"]}` once raised TypeError inside the
daemon). Random JSON-ish values, and mappings shaped almost like real actions, are fed to
action_from_json, apply (at several points of a game) and new_game."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletap.controller.rules.base import Rejection
from tabletap.games.kingdomino.rules import ENGINE as E
from tabletap.games.kingdomino.rules.actions import ACTION_NAMES

SCALARS = (
    st.none() | st.booleans() | st.integers(-3, 2**70) | st.floats(allow_nan=True)
    | st.text(max_size=8) | st.sampled_from(["N", "E", "ruby/2", "joker", "ana", "ben"])
    | st.integers(0, 50)
)
JSONISH = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=8,
)
FIELDS = st.sampled_from(["domino", "at", "facing", "token", "turns"])
NEAR_ACTIONS = st.builds(
    lambda name, extra: {"action": name, **extra},
    st.sampled_from(ACTION_NAMES) | JSONISH,
    st.dictionaries(FIELDS, JSONISH | st.lists(st.integers(-9, 9), min_size=2, max_size=2),
                    max_size=3),
)


def _states() -> list:
    """A new game and a few states met later in one (claims, placements, treasures)."""
    state = E.new_game(["ana", "ben"], 3, {}, {})
    out = [state]
    rng = random.Random(3)
    for n in range(60):
        state = E.apply(state, rng.choice(E.legal_actions(state))).state
        if n % 12 == 0:
            out.append(state)
    return out


STATES = _states()


def _only_rejections(call, *args) -> None:
    try:
        call(*args)
    except Rejection as exc:
        assert exc.code and exc.message


@pytest.mark.parametrize("data", [
    {"action": ["place"]},
    {"action": "place", "domino": 5, "at": [0, 1], "facing": ["N"]},
    {"action": "place", "domino": 5, "at": [0, 1], "facing": {"N": 1}},
    {"action": "claim", "domino": 5, 3: 4, "x": 1},
])
def test_unhashable_values_are_bad_actions(data):
    """A list where a name belongs was a TypeError (`name not in _FIELDS`)."""
    with pytest.raises(Rejection) as info:
        E.action_from_json(data)
    assert info.value.code == "bad-action"


def test_king_order_names_players_not_numbers():
    """setup.king_order [1, 2, 3] for players "1", "2", "3" was a StopIteration."""
    with pytest.raises(Rejection) as info:
        E.new_game(["1", "2", "3"], 0, {}, {"king_order": [1, 2, 3]})
    assert info.value.code == "bad-setup"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=NEAR_ACTIONS | JSONISH, which=st.integers(0, len(STATES) - 1))
def test_garbage_actions_are_rejections(data, which):
    state = STATES[which]
    before = E.state_to_json(state)
    try:
        action = E.action_from_json(data)
    except Rejection as exc:
        assert exc.code == "bad-action"
        return
    _only_rejections(E.apply, state, action)
    assert E.state_to_json(state) == before


@settings(max_examples=200, deadline=None)
@given(players=st.lists(SCALARS, max_size=4) | JSONISH, options=JSONISH, setup=JSONISH,
       seed=SCALARS)
def test_garbage_setups_are_rejections(players, options, setup, seed):
    _only_rejections(E.new_game, players, seed, options, setup)


@settings(max_examples=200, deadline=None)
@given(options=st.dictionaries(st.sampled_from(["treasures", "mighty_duel", "harmony"]),
                               JSONISH),
       setup=st.dictionaries(st.sampled_from(["draw", "king_order", "face_up"]),
                             JSONISH | st.lists(st.sampled_from(["ana", "ben", 1, "ruby/1"]))))
def test_near_setups_are_rejections(options, setup):
    _only_rejections(E.new_game, ["ana", "ben"], 0, options, setup)
