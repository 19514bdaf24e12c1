"""Malformed input never escapes as anything but a Rejection (issue: "Bad input gets a clear
message and leaves state untouched"; a `tabletap do` with a list where a name belongs once
crashed the daemon). Random JSON-ish values, and mappings shaped almost like real actions,
are fed to action_from_json, apply and new_game."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletap.controller.rules.base import Rejection
from tabletap.games.oversiege.rules import ENGINE as E
from tabletap.games.oversiege.rules.actions import KINDS

SCALARS = (
    st.none() | st.booleans() | st.integers(-3, 2**70) | st.floats(allow_nan=True)
    | st.text(max_size=8) | st.sampled_from(["oversiege/red/key/1", "oversiege/blue/chamber",
                                              "oversiege/red/stone/²", "oversiege/red/stone/٣",
                                              "oversiege/red/stone/01", "red", "tower/1"])
)
JSONISH = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=8,
)
FIELDS = st.sampled_from(["action", "card", "target", "targets", "replaces"])
NEAR_ACTIONS = st.builds(
    lambda kind, extra: {"action": kind, **extra},
    st.sampled_from(KINDS) | JSONISH,
    st.dictionaries(FIELDS, JSONISH, max_size=3),
)
START = E.new_game(["red", "blue"], 0, {}, {"destroyed": {"blue": ["tower/1"]}})


def _only_rejections(call, *args) -> None:
    try:
        call(*args)
    except Rejection as exc:
        assert exc.code and exc.message


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=NEAR_ACTIONS | JSONISH)
def test_garbage_actions_are_rejections(data):
    before = E.state_to_json(START)
    try:
        action = E.action_from_json(data)
    except Rejection as exc:
        assert exc.code == "bad-action"
        return
    _only_rejections(E.apply, START, action)
    assert E.state_to_json(START) == before


@settings(max_examples=200, deadline=None)
@given(players=st.lists(SCALARS, max_size=3) | JSONISH, options=JSONISH, setup=JSONISH)
def test_garbage_setups_are_rejections(players, options, setup):
    _only_rejections(E.new_game, players, 0, options, setup)


@settings(max_examples=200, deadline=None)
@given(options=st.dictionaries(st.sampled_from(["teams", "first_crown_wins"]), JSONISH),
       setup=st.dictionaries(st.sampled_from(["first", "destroyed", "hands"]), JSONISH))
def test_near_setups_are_rejections(options, setup):
    _only_rejections(E.new_game, ["red", "blue", "green"], 0, options, setup)


@pytest.mark.parametrize("card", ["oversiege/red/stone/²", "oversiege/red/stone/٣"])
def test_non_ascii_digits_are_not_copy_numbers(card):
    """Piece ids (docs/CONTRACTS.md): the copy number is 1..copies in ASCII digits; '²' passed
    str.isdigit() and then int() raised ValueError."""
    with pytest.raises(Rejection) as info:
        E.apply(START, E.action_from_json({"action": "discard", "card": card}))
    assert info.value.code == "unknown-piece"
