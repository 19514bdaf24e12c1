"""Every action the engine would accept now: for tests, hints and self-play.

Kept beside the handlers' checks on purpose and cross-checked against them by the property
tests (every listed action is accepted; every accepted action is listed).
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.rules.magic_keys.actions import EndTurn, Move, Pond, Roll, TryKey
from tabletap.controller.rules.magic_keys.state import FOREST, HELD, MagicKeysState
from tabletap.controller.rules.magic_keys.track import GOLD, KEYS, RECOVERY, START, Track

# Actions are values: one instance of each is listed every time (building twenty new TryKeys
# per call was most of legal_actions' time in self-play).
_TRY: dict[str, TryKey] = {k: TryKey(k) for k in (*KEYS, GOLD)}
_POND: dict[str, Pond] = {k: Pond(k) for k in KEYS}
_MOVE: dict[int, Move] = {n: Move(n) for n in range(1, 5)}
_ROLL, _END = Roll(None), EndTurn()


def _digital_tries(track: Track, state: MagicKeysState) -> list[Any]:
    if not state.moved or state.showing or state.dice == 0:
        return []
    assert state.pawn is not None
    space = track.spaces[state.pawn]
    if space in (START, RECOVERY):
        return []
    if space == GOLD or state.places[space] == FOREST:
        return [_TRY.get(space) or TryKey(space)]
    return []


def legal_actions(track: Track, state: MagicKeysState) -> list[Any]:
    if state.winner is not None:
        return []
    if state.dice_mode == "physical":
        # one pass over the keys for both lists (the same order as held_by's)
        mark = HELD + state.player
        tries: list[Any] = []
        held: list[Any] = []
        for k, p in state.places.items():
            if p == FOREST:
                tries.append(_TRY.get(k) or TryKey(k))
            elif p == mark:
                held.append(_POND.get(k) or Pond(k))
        tries.append(_TRY[GOLD])
        tries += held
        tries.append(_END)
        return tries
    ponds: list[Any] = [_POND.get(k) or Pond(k) for k in state.held_by(state.player)]
    actions = _digital_tries(track, state)
    if state.showing:
        actions += [_MOVE.get(n) or Move(n) for n in sorted(set(state.showing))]
    elif state.dice > 0:
        actions.append(_ROLL)
    else:
        actions.append(_END)
    return actions + ponds
