"""Every action the engine would accept now: for tests, hints and self-play.

Kept beside the handlers' checks on purpose and cross-checked against them by the property
tests (every listed action is accepted; every accepted action is listed). It reads what the
state keeps ready (the forest's keys as actions, each player's fake keys) rather than trying
moves, and lists the same action values every time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletap.games.magic_keys.rules.actions import EndTurn, Move, Pond, Roll, TryKey
from tabletap.games.magic_keys.rules.state import FOREST, MagicKeysState
from tabletap.games.magic_keys.rules.track import GOLD, KEYS, Track


class _Values(dict[Any, Any]):
    """One action per value, made once (an unexpected value gets a fresh one)."""

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


def legal_actions(track: Track, state: MagicKeysState) -> list[Any]:
    if state.winner is not None:
        return []
    places = state.places
    held = places.held.get(state.players[state.current])
    if state.dice_mode == "physical":
        # the forest's keys and the golden key, the player's own fakes, the end-turn button
        if held:
            return [*places.tries, _GOLD, *map(_POND.__getitem__, held), _END]
        return [*places.tries, _GOLD, _END]
    # digital: move by a die showing; else pull the key the pawn has moved to (when it is
    # still there), roll, or end the turn in moons; and the player's own fakes to the pond
    if state.showing:
        actions = [*_MOVES[state.showing]]
    elif not state.dice:
        actions = [_END]
    else:
        assert state.pawn is not None
        key = track.key_at[state.pawn] if state.moved else None
        if key is not None and (key == GOLD or places[key] == FOREST):
            actions = [_TRY[key], _ROLL]
        else:
            actions = [_ROLL]
    if held:
        actions += map(_POND.__getitem__, held)
    return actions
