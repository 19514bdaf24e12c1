"""Magic Keys at the table: which reader a key was tapped at decides the action.

A key at the `chest` reader is a try at the chest, a key at the `pond` reader is thrown into the
magic pond; the `end-turn` button ends a turn that ran out of dice, the `roll` button rolls the
digital dice. Lifting a key means nothing: the action happened when it was tapped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tabletap.controller.games.base import (
    ButtonPressed,
    GameTable,
    ManualAction,
    PieceLifted,
    PiecePlaced,
    TableInput,
)
from tabletap.controller.rules.base import Rejection
from tabletap.controller.rules.magic_keys import ENGINE, EndTurn, Move, Pond, Roll, TryKey

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
                return self._stop_and_try(state, key)
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
                return Roll(self.forced.get("roll"))
            return None
        if isinstance(event, ManualAction):
            action = self.engine.action_from_json(manual_action(event.data))
            if isinstance(action, Roll) and action.dice is None:
                return Roll(self.forced.get("roll"))
            return action
        return None

    def _stop_and_try(self, state: Any, key: str) -> Any:
        """With digital dice, a key tapped at the chest while a roll waits for its move is the
        move to that key's space and the try, in one gesture: the child moves the pawn, pulls
        the key and tries it, with no console. Only a move that a die showing makes exactly
        (or, for the golden key, reaches or passes) is read this way; anything else goes to the
        engine as a plain try, which says why it is refused."""
        if state.dice_mode != "digital" or not state.showing or state.pawn is None:
            return TryKey(key)
        distance = self.engine.track.position_of(key) - state.pawn
        dice = sorted(set(state.showing))
        fits = [n for n in dice if n == distance or (key == "gold" and 0 < distance <= n)]
        return (Move(fits[0]), TryKey(key)) if fits else TryKey(key)

    def accepted(self, action: Any) -> None:
        if isinstance(action, Roll):
            self.forced.pop("roll", None)

    def force(self, kind: str, value: Any) -> None:
        if kind == "roll":
            value = tuple(value)
        super().force(kind, value)
