"""Shared helpers for the Magic Keys engine tests (this module holds no tests itself)."""

from __future__ import annotations

import pytest

from tabletap.controller.rules.base import Outcome, Rejection
from tabletap.games.magic_keys.rules import ENGINE, MagicKeysState

# The example hidden setup from docs/CONTRACTS.md: two fake keys per colour.
FAKES = [
    "purple/4", "purple/5", "blue/1", "blue/2", "green/3", "green/5", "yellow/1", "yellow/2",
]
TRUE_KEYS = [k for k in ENGINE.track.keys if k not in FAKES]


def game(
    players: tuple[str, ...] = ("ana", "ben", "cleo"),
    dice: str = "physical",
    fakes: list[str] | None = None,
    seed: int = 7,
) -> MagicKeysState:
    return ENGINE.new_game(
        list(players), seed, {"dice": dice}, {"fake_keys": FAKES if fakes is None else fakes}
    )


def play(state: MagicKeysState, *actions: object) -> MagicKeysState:
    for action in actions:
        state = ENGINE.apply(state, action).state
    return state


def outcome(state: MagicKeysState, action: object) -> Outcome:
    return ENGINE.apply(state, action)


def kinds(result: Outcome) -> list[str]:
    return [e.kind for e in result.events]


def event(result: Outcome, kind: str) -> dict:
    found = [e for e in result.events if e.kind == kind]
    assert len(found) == 1, f"expected one {kind} event, got {kinds(result)}"
    assert found[0].text.strip(), "every event carries a play-by-play sentence"
    return found[0].data


def rejected(state: MagicKeysState, action: object, code: str) -> Rejection:
    """Assert the action is refused with `code`, a readable sentence, and no state change."""
    before = ENGINE.state_to_json(state)
    with pytest.raises(Rejection) as info:
        ENGINE.apply(state, action)
    assert info.value.code == code, info.value.message
    assert info.value.message.endswith((".", "!")) and len(info.value.message) > 15
    assert ENGINE.state_to_json(state) == before
    return info.value
