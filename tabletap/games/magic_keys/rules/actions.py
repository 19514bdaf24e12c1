"""Magic Keys actions and their JSON form (what the journal and scenario `do:` steps hold).

`action_from_json` only checks the shape; whether a key exists or a die face is possible is the
engine's business, so that a journal entry with a wrong value is rejected with the same code and
sentence as the same action made at the table.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct

from tabletap.controller.language.said import Said
from tabletap.controller.rules.base import JSON, Rejection
from tabletap.games.magic_keys.words import msg

Face = int | str  # 1, 2, 3, 4 or "moon"


class TryKey(Struct, frozen=True):
    """The pulled key tried at the chest: `<colour>/<n>` or `gold`."""

    key: str


class Pond(Struct, frozen=True):
    """A revealed fake key thrown into the magic pond."""

    key: str


class EndTurn(Struct, frozen=True):
    """The end-turn button: the turn ended in all moons."""


class Roll(Struct, frozen=True):
    """Digital dice: roll the dice still available; None lets the engine draw the faces."""

    dice: tuple[Face, ...] | None = None


class Move(Struct, frozen=True):
    """Digital dice: move the pawn by one of the number dice showing."""

    steps: int


Action = TryKey | Pond | EndTurn | Roll | Move


def action_to_json(action: Action) -> JSON:
    if isinstance(action, TryKey):
        return {"type": "try-key", "key": action.key}
    if isinstance(action, Pond):
        return {"type": "pond", "key": action.key}
    if isinstance(action, EndTurn):
        return {"type": "end-turn"}
    if isinstance(action, Roll):
        return {"type": "roll", "dice": None if action.dice is None else list(action.dice)}
    if isinstance(action, Move):
        return {"type": "move", "steps": action.steps}
    raise TypeError(f"not a Magic Keys action: {action!r}")


def _bad(message: Said) -> Rejection:
    return Rejection("bad-action", message)


def _fields(data: dict[str, Any], allowed: set[str], kind: str) -> None:
    extra = sorted(set(data) - allowed - {"type"})
    if extra:
        # TRANSLATORS: refusal of a hand-entered action with fields it does not have
        raise _bad(msg("That action has a field it does not know: %(fields)s.",
                       fields=", ".join(extra)))


def _key_field(data: dict[str, Any], kind: str) -> str:
    key = data.get("key")
    if not isinstance(key, str) or not key:
        # TRANSLATORS: refusal of a hand-entered key action that names no key
        raise _bad(msg("That action needs a key: say which one."))
    return key


def _face(value: Any) -> Face:
    if isinstance(value, bool) or not isinstance(value, int | str):
        # TRANSLATORS: refusal of a hand-entered roll with a face no die has
        raise _bad(msg("A die face must be a number or moon."))
    return value


def action_from_json(data: Any) -> Action:
    """Raises Rejection `bad-action` naming what is malformed."""
    if not isinstance(data, dict):
        # TRANSLATORS: refusal of a hand-entered action that is not an action at all
        raise _bad(msg("That is not an action: an action says its type."))
    kind = data.get("type")
    if kind == "try-key":
        _fields(data, {"key"}, kind)
        return TryKey(_key_field(data, kind))
    if kind == "pond":
        _fields(data, {"key"}, kind)
        return Pond(_key_field(data, kind))
    if kind == "end-turn":
        _fields(data, set(), kind)
        return EndTurn()
    if kind == "roll":
        _fields(data, {"dice"}, kind)
        dice = data.get("dice")
        if dice is None:
            return Roll(None)
        if not isinstance(dice, list | tuple):
            # TRANSLATORS: refusal of a hand-entered roll whose dice are not a list
            raise _bad(msg("A roll's dice must be a list of faces, one for each die."))
        return Roll(tuple(_face(f) for f in dice))
    if kind == "move":
        _fields(data, {"steps"}, kind)
        steps = data.get("steps")
        if isinstance(steps, bool) or not isinstance(steps, int):
            # TRANSLATORS: refusal of a hand-entered move without a number of steps
            raise _bad(msg("A move needs a whole number of steps."))
        return Move(steps)
    # TRANSLATORS: refusal of an action Magic Keys does not have
    raise _bad(msg("Magic Keys has no such action: it knows trying a key, the pond, ending the "
                   "turn, rolling and moving."))
