"""What the family puts back after a Magic Keys action is undone (the action's journal JSON).

Sentences, not strings (docs/LANGUAGES.md): the controller says them in the family's language.
A key the journal names that is not one of the set raises KeyError, and the controller says its
plain sentence instead.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.language.said import Said
from tabletap.games.magic_keys.words import key, msg, msg_n


def _kind(action: dict[str, Any]) -> str:
    return str(action.get("type") or action.get("action") or "")


def move_name(action: dict[str, Any]) -> Said | str:
    """A move as a person names it, after "ana's": "try of the first purple key"; "" for an
    action shape it does not know (the controller says "move")."""
    k = _kind(action)
    if k == "try-key":
        # TRANSLATORS: undo: "Taken back: ana's <try of the first purple key>"; key its name
        return msg("try of %(key)s", key=key(action["key"]))
    if k == "pond":
        # TRANSLATORS: undo: "Taken back: ana's <throw of ... into the pond>"; key its name
        return msg("throw of %(key)s into the pond", key=key(action["key"]))
    if k == "move":
        # TRANSLATORS: undo: "Taken back: ana's <pawn move>" (the table's dice)
        return msg("pawn move")
    if k == "end-turn":
        # TRANSLATORS: undo: "Taken back: ana's <end of the turn>"
        return msg("end of the turn")
    return ""


def put_back(action: dict[str, Any], before: Any = None) -> Said | str:
    """What to put back by hand; "" where nothing on the table moved (a roll is never taken
    back)."""
    k = _kind(action)
    if k == "try-key":
        # TRANSLATORS: undo of a key's try at the chest; key is its name
        return msg("Put %(key)s back on its space, and give back any gems it earned.",
                   key=key(action["key"]))
    if k == "pond":
        # TRANSLATORS: undo of a fake key thrown into the pond; key is its name
        return msg("Take %(key)s out of the pond and put it back in front of you.",
                   key=key(action["key"]))
    if k == "move":
        # TRANSLATORS: undo of a pawn move (the table's dice); n is how many spaces
        return msg_n("Move the pawn back %(n)s space.", "Move the pawn back %(n)s spaces.",
                     int(action.get("steps") or 0))
    return ""  # end-turn: nothing on the table moved
