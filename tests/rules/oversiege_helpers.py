"""Shared helpers for the Oversiege rules tests: short names for cards and plays."""

from __future__ import annotations

import pytest

from tabletap.controller.rules.base import Rejection
from tabletap.games.oversiege.rules import ENGINE, OversiegeState

E = ENGINE


def card(deck: str, name: str) -> str:
    """`card("red", "stone/1")` -> `oversiege/red/stone/1`."""
    return f"oversiege/{deck}/{name}"


def game(
    players: tuple[str, ...] = ("red", "blue"), options: dict | None = None,
    setup: dict | None = None,
) -> OversiegeState:
    return E.new_game(list(players), 0, options or {}, setup or {})


def play(state: OversiegeState, **action) -> OversiegeState:
    """Apply a play written as its JSON form; returns the new state."""
    return E.apply(state, E.action_from_json(action)).state


def outcome(state: OversiegeState, **action):
    return E.apply(state, E.action_from_json(action))


def refused(state: OversiegeState, code: str, **action) -> Rejection:
    """The play is rejected with `code` and the state is left exactly as it was."""
    before = E.state_to_json(state)
    with pytest.raises(Rejection) as info:
        play(state, **action)
    assert info.value.code == code, info.value
    assert info.value.message
    assert E.state_to_json(state) == before
    return info.value


def end_turn(state: OversiegeState) -> OversiegeState:
    """Discard down to two cards with the current player's highest-numbered loose cards, then
    end the turn (tests use it to hand the turn on without caring what was discarded)."""
    side = state.sides[state.current]
    loose = [c for c in E.cards.deck_cards(state.current)
             if c not in side.in_play() and c not in side.discard and "/key/" not in c]
    while state.sides[state.current].hand > 2:
        state = play(state, action="discard", card=loose.pop())
    return play(state, action="end-turn")


def armed(state: OversiegeState, *armaments: str) -> OversiegeState:
    """Place the current player's armaments (by name, e.g. `catapult/1`)."""
    for name in armaments:
        state = play(state, action="armament", card=card(state.current, name))
    return state


def with_hand(state: OversiegeState, player: str, hand: int) -> OversiegeState:
    """A copy where `player` holds `hand` cards, taken from (or put back on) their deck, so a
    test can make several plays in one turn; cards stay conserved."""
    state = state.clone()
    side = state.sides[player]
    side.deck -= hand - side.hand
    side.hand = hand
    assert side.deck >= 0
    return state
