"""Engine actions and their JSON form (the journal's and `do:`'s).

One small dataclass for every play keeps the engine's dispatch simple; the JSON form names its
fields per play (`replaces`, `target`, `targets`) so a journal line reads like the table talk.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from tabletap.controller.rules.base import JSON, Rejection
from tabletap.games.oversiege.words import msg

log = logging.getLogger("tabletap.games.oversiege")
KINDS = ("armament", "attack", "rebuild", "key", "blockade", "discard", "end-turn")


@dataclass(frozen=True)
class Action:
    """`card` is the card played from hand; `targets` what it acts on (for an armament, the
    armament it replaces)."""

    kind: str
    card: str | None = None
    targets: tuple[str, ...] = ()


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Armament(_Strict):
    action: Literal["armament"]
    card: str
    replaces: str | None = None


class _Attack(_Strict):
    action: Literal["attack"]
    card: str
    targets: list[str] = Field(min_length=1, max_length=2)


class _Targeted(_Strict):
    action: Literal["rebuild", "key"]
    card: str
    target: str


class _OneCard(_Strict):
    action: Literal["blockade", "discard"]
    card: str


class _EndTurn(_Strict):
    action: Literal["end-turn"]


_ADAPTER: TypeAdapter[Any] = TypeAdapter(
    Annotated[
        _Armament | _Attack | _Targeted | _OneCard | _EndTurn, Field(discriminator="action")
    ]
)


def action_to_json(action: Action) -> JSON:
    data: JSON = {"action": action.kind}
    if action.card is not None:
        data["card"] = action.card
    if action.kind == "armament":
        if action.targets:
            data["replaces"] = action.targets[0]
    elif action.kind == "attack":
        data["targets"] = list(action.targets)
    elif action.kind in ("rebuild", "key"):
        data["target"] = action.targets[0]
    return data


def action_from_json(data: JSON) -> Action:
    """Raises Rejection(`bad-action`) naming what is wrong."""
    try:
        parsed = _ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "action"
        log.info("not an Oversiege action (%s: %s); actions are %s", where, first["msg"],
                 ", ".join(KINDS))
        raise Rejection(
            "bad-action",
            # TRANSLATORS: a refusal of a play sent from the phone that is not one of Oversiege's
            msg("That is not a play of Oversiege."),
        ) from None
    if isinstance(parsed, _Armament):
        return Action("armament", parsed.card, (parsed.replaces,) if parsed.replaces else ())
    if isinstance(parsed, _Attack):
        return Action("attack", parsed.card, tuple(parsed.targets))
    if isinstance(parsed, _Targeted):
        return Action(parsed.action, parsed.card, (parsed.target,))
    if isinstance(parsed, _OneCard):
        return Action(parsed.action, parsed.card)
    return Action("end-turn")
