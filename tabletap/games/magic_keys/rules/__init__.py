"""Magic Keys (Happy Baobab): the pure rules engine, its actions, its state and its board data.

docs/games/magic-keys.md explains both dice modes, every reason code and every decision taken
where the rulebook is silent.
"""

from __future__ import annotations

from tabletap.games.magic_keys.rules.actions import (
    Action,
    EndTurn,
    Move,
    Pond,
    Roll,
    TryKey,
    action_from_json,
    action_to_json,
)
from tabletap.games.magic_keys.rules.engine import MagicKeysEngine
from tabletap.games.magic_keys.rules.state import MagicKeysState
from tabletap.games.magic_keys.rules.track import (
    Track,
    TrackDataError,
    load_track,
    parse_track,
)

ENGINE = MagicKeysEngine(load_track())

__all__ = [
    "ENGINE",
    "Action",
    "EndTurn",
    "MagicKeysEngine",
    "MagicKeysState",
    "Move",
    "Pond",
    "Roll",
    "Track",
    "TrackDataError",
    "TryKey",
    "action_from_json",
    "action_to_json",
    "load_track",
    "parse_track",
]
