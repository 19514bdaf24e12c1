"""Kingdomino's actions and their JSON form (what the journal stores and `do:` steps give).

A malformed action is a Rejection with code `bad-action` and a sentence saying, in words a
family understands, what is wrong (issue 20: no raw value, id or bracket is ever said back).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletap.controller.language.said import Said
from tabletap.controller.rules.base import JSON, Rejection
from tabletap.games.kingdomino.rules.kingdom import FACINGS, Pos
from tabletap.games.kingdomino.rules.treasures import all_tokens
from tabletap.games.kingdomino.words import msg

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


def _bad(message: Said) -> Rejection:
    """A move entered wrong (by hand, at the console or a `do:` step): said in words, never
    with the raw value, which may hold brackets or ids."""
    return Rejection("bad-action", message)


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        # TRANSLATORS: a refusal of a move entered by hand: a number was expected
        raise _bad(msg("A move needs whole numbers there."))
    return value


def _not_a_move() -> Rejection:
    # TRANSLATORS: a refusal of a move entered by hand that is no Kingdomino move
    return _bad(msg("That is not a Kingdomino move."))


def normalise_token(value: Any) -> str:
    """Accept `ruby/2` or the piece id `kingdomino/treasure/ruby/2`."""
    if not isinstance(value, str):
        raise _not_a_token()
    token = value[len(TREASURE_PREFIX):] if value.startswith(TREASURE_PREFIX) else value
    if token not in all_tokens():
        raise _not_a_token()
    return token


def _not_a_token() -> Rejection:
    # TRANSLATORS: a refusal of a move entered by hand naming no treasure token of the box
    return _bad(msg("That is not one of the treasure tokens."))


def action_from_json(data: Any) -> Action:
    if not isinstance(data, dict):
        raise _not_a_move()
    name = data.get("action")
    if not isinstance(name, str) or name not in _FIELDS:  # a list or a mapping is unhashable
        raise _not_a_move()
    required, optional = _FIELDS[name]
    extra = set(data) - {"action", *required, *optional}
    missing = [f for f in required if f not in data]
    if extra or missing:
        # TRANSLATORS: a refusal of a move entered by hand with parts missing or too many
        raise _bad(msg("That move is missing something, or says too much."))
    fields: dict[str, Any] = {}
    if "domino" in data:
        number = _int(data["domino"], "domino")
        if not 1 <= number <= 48:
            # TRANSLATORS: a refusal of a move entered by hand
            raise _bad(msg("Domino numbers run from 1 to 48."))
        fields["domino"] = number
    if "at" in data:
        at = data["at"]
        if not isinstance(at, list | tuple) or len(at) != 2:
            # TRANSLATORS: a refusal of a move entered by hand: no square of a kingdom
            raise _bad(msg("That is not a square of a kingdom."))
        fields["at"] = (_int(at[0], "at's row"), _int(at[1], "at's col"))
    if "facing" in data:
        if not isinstance(data["facing"], str) or data["facing"] not in FACINGS:
            # TRANSLATORS: a refusal of a move entered by hand: which way a domino points
            raise _bad(msg("A domino points up, down, left or right."))
        fields["facing"] = data["facing"]
    if data.get("token") is not None:
        fields["token"] = normalise_token(data["token"])
    if "turns" in data:
        turns = _int(data["turns"], "turns")
        if not 0 <= turns <= 3:
            # TRANSLATORS: a refusal of a move entered by hand: how far a gem is turned
            raise _bad(msg("A gem turns by none, one, two or three quarter turns."))
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
