"""Kingdomino's actions and their JSON form (what the journal stores and `do:` steps give).

A malformed action is a Rejection with code `bad-action` and a sentence naming the field, so a
typo in a scenario or at the console says what to fix.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletap.controller.rules.base import JSON, Rejection
from tabletap.games.kingdomino.rules.kingdom import FACINGS, Pos
from tabletap.games.kingdomino.rules.treasures import all_tokens

PIECE_PREFIX = "kingdomino/"
TREASURE_PREFIX = "kingdomino/treasure/"

# action name -> (required fields, optional fields)
_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "confirm": (("domino",), ()),
    "reveal": ((), ("token",)),
    "claim": (("domino",), ()),
    "place": (("domino", "at", "facing"), ()),
    "discard": (("domino",), ()),
    "treasure": (("token", "turns"), ()),
}
ACTION_NAMES = tuple(_FIELDS)


@dataclass(frozen=True)
class Action:
    """One Kingdomino action.

    confirm   the table tapped domino N of the line just drawn
    reveal    a treasure token was turned gem side up (`token`; None: draw it from the seed)
    claim     the acting king goes on domino N of the new line
    place     the acting king's domino goes into the kingdom (`at`, `facing`)
    discard   the acting king's domino has no legal place and leaves the game
    treasure  the face-up gem `token` goes on the discovered corner, `turns` quarter turns
    """

    action: str
    domino: int | None = None
    at: Pos | None = None
    facing: str | None = None
    token: str | None = None
    turns: int | None = None


def _bad(message: str) -> Rejection:
    return Rejection("bad-action", message)


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"{name} must be a whole number, not {value!r}.")
    return value


def normalise_token(value: Any) -> str:
    """Accept `ruby/2` or the piece id `kingdomino/treasure/ruby/2`."""
    if not isinstance(value, str):
        raise _bad(f"token must be a treasure token like 'ruby/2' or 'joker', not {value!r}.")
    token = value[len(TREASURE_PREFIX):] if value.startswith(TREASURE_PREFIX) else value
    if token not in all_tokens():
        raise _bad(f"{value!r} is not a treasure token (ruby/1 .. amethyst/3, joker).")
    return token


def action_from_json(data: Any) -> Action:
    if not isinstance(data, dict):
        raise _bad(f"an action is a mapping with an 'action' key, not {data!r}.")
    name = data.get("action")
    if not isinstance(name, str) or name not in _FIELDS:  # a list or a mapping is unhashable
        raise _bad(f"unknown action {name!r}; Kingdomino knows {', '.join(ACTION_NAMES)}.")
    required, optional = _FIELDS[name]
    extra = set(data) - {"action", *required, *optional}
    if extra:
        raise _bad(f"{name} does not take {', '.join(sorted(map(str, extra)))}.")
    missing = [f for f in required if f not in data]
    if missing:
        raise _bad(f"{name} needs {', '.join(missing)}.")
    fields: dict[str, Any] = {}
    if "domino" in data:
        number = _int(data["domino"], "domino")
        if not 1 <= number <= 48:
            raise _bad(f"domino numbers run from 1 to 48, not {number}.")
        fields["domino"] = number
    if "at" in data:
        at = data["at"]
        if not isinstance(at, list | tuple) or len(at) != 2:
            raise _bad(f"at must be [row, col] relative to the castle, not {at!r}.")
        fields["at"] = (_int(at[0], "at's row"), _int(at[1], "at's col"))
    if "facing" in data:
        if not isinstance(data["facing"], str) or data["facing"] not in FACINGS:
            raise _bad(f"facing must be one of {', '.join(FACINGS)}, not {data['facing']!r}.")
        fields["facing"] = data["facing"]
    if data.get("token") is not None:
        fields["token"] = normalise_token(data["token"])
    if "turns" in data:
        turns = _int(data["turns"], "turns")
        if not 0 <= turns <= 3:
            raise _bad(f"turns counts quarter turns clockwise, 0 to 3, not {turns}.")
        fields["turns"] = turns
    return Action(name, **fields)


def action_to_json(action: Action) -> JSON:
    out: JSON = {"action": action.action}
    if action.domino is not None:
        out["domino"] = action.domino
    if action.at is not None:
        out["at"] = list(action.at)
    if action.facing is not None:
        out["facing"] = action.facing
    if action.token is not None:
        out["token"] = action.token
    if action.turns is not None:
        out["turns"] = action.turns
    return out
