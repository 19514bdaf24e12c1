"""Every action the engine would accept now: for tests, hints and self-play.

Kept beside the handlers' checks on purpose and cross-checked against them by the property
tests (every listed action is accepted; every accepted action is listed).
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.rules.magic_keys.actions import EndTurn, Move, Pond, Roll, TryKey
from tabletap.controller.rules.magic_keys.state import FOREST, MagicKeysState
from tabletap.controller.rules.magic_keys.track import GOLD, RECOVERY, START, Track


def _digital_tries(track: Track, state: MagicKeysState) -> list[Any]:
    if not state.moved or state.showing or state.dice == 0:
        return []
    assert state.pawn is not None
    space = track.spaces[state.pawn]
    if space in (START, RECOVERY):
        return []
    if space == GOLD or state.places[space] == FOREST:
        return [TryKey(space)]
    return []


def legal_actions(track: Track, state: MagicKeysState) -> list[Any]:
    if state.winner is not None:
        return []
    ponds: list[Any] = [Pond(k) for k in state.held_by(state.player)]
    if state.dice_mode == "physical":
        tries: list[Any] = [TryKey(k) for k, p in state.places.items() if p == FOREST]
        return [*tries, TryKey(GOLD), *ponds, EndTurn()]
    actions = _digital_tries(track, state)
    if state.showing:
        actions += [Move(n) for n in sorted(set(state.showing))]
    elif state.dice > 0:
        actions.append(Roll(None))
    else:
        actions.append(EndTurn())
    return actions + ponds
