"""Magic Keys actions and their JSON form (what the journal and scenario `do:` steps hold).

`action_from_json` only checks the shape; whether a key exists or a die face is possible is the
engine's business, so that a journal entry with a wrong value is rejected with the same code and
sentence as the same action made at the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletap.controller.rules.base import JSON, Rejection

Face = int | str  # 1, 2, 3, 4 or "moon"


@dataclass(frozen=True)
class TryKey:
    """The pulled key tried at the chest: `<colour>/<n>` or `gold`."""

    key: str


@dataclass(frozen=True)
class Pond:
    """A revealed fake key thrown into the magic pond."""

    key: str


@dataclass(frozen=True)
class EndTurn:
    """The end-turn button: the turn ended in all moons."""


@dataclass(frozen=True)
class Roll:
    """Digital dice: roll the dice still available; None lets the engine draw the faces."""

    dice: tuple[Face, ...] | None = None


@dataclass(frozen=True)
class Move:
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


def _bad(message: str) -> Rejection:
    return Rejection("bad-action", message)


def _fields(data: dict[str, Any], allowed: set[str], kind: str) -> None:
    extra = sorted(set(data) - allowed - {"type"})
    if extra:
        raise _bad(f"A {kind} action has no field {', '.join(map(repr, extra))}.")


def _key_field(data: dict[str, Any], kind: str) -> str:
    key = data.get("key")
    if not isinstance(key, str) or not key:
        raise _bad(f"A {kind} action needs a key name, like \"blue/3\" or \"gold\".")
    return key


def _face(value: Any) -> Face:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise _bad(f"A die face must be a number or \"moon\", not {value!r}.")
    return value


def action_from_json(data: Any) -> Action:
    """Raises Rejection `bad-action` naming what is malformed."""
    if not isinstance(data, dict):
        raise _bad(f"An action must be a JSON object with a \"type\", not {data!r}.")
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
            raise _bad(
                f"A roll's dice must be a list of faces, like [3, \"moon\", 1], not {dice!r}."
            )
        return Roll(tuple(_face(f) for f in dice))
    if kind == "move":
        _fields(data, {"steps"}, kind)
        steps = data.get("steps")
        if isinstance(steps, bool) or not isinstance(steps, int):
            raise _bad(f"A move needs a whole number of steps, not {steps!r}.")
        return Move(steps)
    raise _bad(
        f"Magic Keys has no action {kind!r}; it knows try-key, pond, end-turn, roll and move."
    )
