"""Every action the engine would accept now: for tests, hints and self-play.

Kept beside the handlers' checks on purpose and cross-checked against them by the property
tests (every listed action is accepted; every accepted action is listed). It reads what the
state keeps ready (the keys in the forest, each player's fake keys) rather than trying moves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletap.controller.rules.magic_keys.actions import EndTurn, Move, Pond, Roll, TryKey
from tabletap.controller.rules.magic_keys.state import FOREST, MagicKeysState
from tabletap.controller.rules.magic_keys.track import GOLD, KEYS, RECOVERY, START, Track


class _Values(dict[Any, Any]):
    """Actions are values: one instance of each is listed every time (building twenty new
    TryKeys per call was most of legal_actions' time in self-play); an unexpected key gets a
    fresh one."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[Any], Any], keys: tuple[Any, ...]) -> None:
        super().__init__((k, make(k)) for k in keys)
        self.make = make

    def __missing__(self, key: Any) -> Any:
        return self.make(key)


_TRY = _Values(TryKey, (*KEYS, GOLD))
_POND = _Values(Pond, KEYS)
_MOVE = _Values(Move, (1, 2, 3, 4))
_ROLL, _END, _GOLD = Roll(None), EndTurn(), _TRY[GOLD]


class _Moves(dict[tuple[int, ...], tuple[Move, ...]]):
    """The moves one set of dice showing allows, once per set: each die number once, in order."""

    def __missing__(self, showing: tuple[int, ...]) -> tuple[Move, ...]:
        moves = self[showing] = tuple(_MOVE[n] for n in sorted(set(showing)))
        return moves


_MOVES = _Moves()


def _digital_try(track: Track, state: MagicKeysState) -> Any:
    """The key the pawn stands on, when it may be pulled now; else None."""
    if not state.moved or state.showing or state.dice == 0:
        return None
    assert state.pawn is not None
    space = track.spaces[state.pawn]
    if space in (START, RECOVERY):
        return None
    if space == GOLD or state.places[space] == FOREST:
        return _TRY[space]
    return None


def legal_actions(track: Track, state: MagicKeysState) -> list[Any]:
    if state.winner is not None:
        return []
    places = state.places
    held = places.held.get(state.player, ())
    if state.dice_mode == "physical":
        # the forest's keys and the golden key, the player's own fakes, the end-turn button
        return [*map(_TRY.__getitem__, places.forest), _GOLD, *map(_POND.__getitem__, held),
                _END]
    key = _digital_try(track, state)
    actions: list[Any] = [] if key is None else [key]
    if state.showing:
        actions += _MOVES[state.showing]
    else:
        actions.append(_ROLL if state.dice > 0 else _END)
    if held:
        actions += map(_POND.__getitem__, held)
    return actions
