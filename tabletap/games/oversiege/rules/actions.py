"""Engine actions and their JSON form (the journal's and `do:`'s).

One small dataclass for every play keeps the engine's dispatch simple; the JSON form names its
fields per play (`replaces`, `target`, `targets`) so a journal line reads like the table talk.
The JSON form is checked as a msgspec tagged union on `action` (loading.schema): one class per
play, so each play's keys are its own and any other key is refused.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Annotated

from tabletap.controller.loading.schema import Meta, Schema, SchemaError, check, loc_text
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


class _Play(Schema, tag_field="action"):
    """A play's JSON form; the class's tag is its `action` value."""


class _Armament(_Play, tag="armament"):
    card: str
    replaces: str | None = None


class _Attack(_Play, tag="attack"):
    card: str
    targets: Annotated[tuple[str, ...], Meta(min_length=1, max_length=2)]


class _Rebuild(_Play, tag="rebuild"):
    card: str
    target: str


class _Key(_Play, tag="key"):
    card: str
    target: str


class _Blockade(_Play, tag="blockade"):
    card: str


class _Discard(_Play, tag="discard"):
    card: str


class _EndTurn(_Play, tag="end-turn"):
    pass


_Wire = _Armament | _Attack | _Rebuild | _Key | _Blockade | _Discard | _EndTurn
# Each play's class by its tag. msgspec keeps what it learns of a Struct class but works a
# union out again on every convert (about 8 us a play against 0.7 us for the class, and the
# journal replays every play at start-up), so a well-tagged action goes straight to its class;
# anything else goes to the union, whose error says what is wrong.
_BY_TAG: dict[str, type[_Play]] = {cls.__struct_config__.tag: cls for cls in _Wire.__args__}


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
    kind = data.get("action") if isinstance(data, dict) else None
    shape = _BY_TAG.get(kind, _Wire) if isinstance(kind, str) else _Wire
    try:
        parsed: _Play = check(data, shape)
    except SchemaError as exc:
        log.info("not an Oversiege action (%s: %s); actions are %s",
                 loc_text(exc.loc) or "action", exc.message, ", ".join(KINDS))
        raise Rejection(
            "bad-action",
            # TRANSLATORS: a refusal of a play sent from the phone that is not one of Oversiege's
            msg("That is not a play of Oversiege."),
        ) from None
    if isinstance(parsed, _Armament):
        return Action("armament", parsed.card, (parsed.replaces,) if parsed.replaces else ())
    if isinstance(parsed, _Attack):
        return Action("attack", parsed.card, parsed.targets)
    if isinstance(parsed, _Rebuild | _Key):
        return Action(parsed.__struct_config__.tag, parsed.card, (parsed.target,))
    if isinstance(parsed, _Blockade | _Discard):
        return Action(parsed.__struct_config__.tag, parsed.card)
    return Action("end-turn")
