"""Magic Keys at the table: which reader a key was tapped at decides the action.

A key at the `chest` reader is a try at the chest, a key at the `pond` reader is thrown into the
magic pond; the `end-turn` button ends a turn that ran out of dice, the `roll` button rolls the
digital dice. Lifting a key means nothing: the action happened when it was tapped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from controller.games.base import (
    ButtonPressed,
    GameTable,
    ManualAction,
    PieceLifted,
    PiecePlaced,
    TableInput,
)
from controller.rules.base import Rejection
from controller.rules.magic_keys import ENGINE, EndTurn, Pond, Roll, TryKey

KEY_PIECE = re.compile(r"^magic-keys/key/(?:(purple|blue|green|yellow)/([1-5])|(gold))$")


def key_of(piece: str) -> str:
    """`magic-keys/key/blue/3` -> `blue/3`; Rejection `unknown-piece` for anything else."""
    m = KEY_PIECE.match(piece)
    if not m:
        raise Rejection("unknown-piece", f"{piece} is not one of the Magic Keys pieces.")
    return "gold" if m.group(3) else f"{m.group(1)}/{m.group(2)}"


def manual_action(data: dict[str, Any]) -> dict[str, Any]:
    """`do: {action: move, steps: 3}` -> the engine's JSON form `{type: move, steps: 3}`."""
    if "action" not in data:
        raise Rejection("bad-action", "A hand-entered action needs an `action:` key.")
    converted = {k: v for k, v in data.items() if k != "action"}
    converted["type"] = data["action"]
    return converted


@dataclass
class MagicKeysTable(GameTable):
    game: str = "magic-keys"
    engine: Any = ENGINE

    def interpret(self, state: Any, event: TableInput, now: float) -> Any:
        if isinstance(event, PieceLifted):
            return None
        if isinstance(event, PiecePlaced):
            self.check_piece_game(event.piece)
            key = key_of(event.piece)
            if event.reader == "chest":
                return TryKey(key)
            if event.reader == "pond":
                return Pond(key)
            raise Rejection(
                "wrong-reader",
                f"Magic Keys uses the chest and pond readers; {event.reader!r} means nothing here.",
            )
        if isinstance(event, ButtonPressed):
            if event.name == "end-turn":
                return EndTurn()
            if event.name == "roll":
                return Roll(self.forced.pop("roll", None))
            return None
        if isinstance(event, ManualAction):
            return self.engine.action_from_json(manual_action(event.data))
        return None

    def force(self, kind: str, value: Any) -> None:
        if kind == "roll":
            value = tuple(value)
        super().force(kind, value)
