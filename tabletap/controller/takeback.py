"""Undo at the table: which actions may be taken back, and what the family puts back by hand.

The engine can restore the state before an action (states are immutable), but the pieces on the
table moved too: the play-by-play must say what to put back. It reads the action as the journal
holds it (its JSON form), so it needs no engine internals. A game without an entry here gets a
plain "put back what it moved" sentence.

Chance is never taken back (issue 9: "undo cannot be used to fish for a better roll"): a digital
roll, or a treasure turned face up, stays as it came.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletap.controller.speech import piece_words

JSON = dict[str, Any]
CHANCE_KINDS = {"roll": "a roll stays as rolled", "reveal": "a treasure turned face up stays "
                "face up"}


def kind(action: JSON) -> str:
    return str(action.get("type") or action.get("action") or "")


def chance_reason(action: JSON) -> str | None:
    """Why `action` can never be undone (it drew chance), or None."""
    return CHANCE_KINDS.get(kind(action))


def _key(key: str) -> str:
    return "the golden key" if key == "gold" else f"the {piece_words('magic-keys/key/' + key)}"


def _magic_keys(action: JSON) -> str:
    k = kind(action)
    if k == "try-key":
        return (f"Put {_key(action['key'])} back on its space, and give back any gems it "
                "earned.")
    if k == "pond":
        return f"Take {_key(action['key'])} out of the pond and put it back on its space."
    if k == "move":
        steps = action.get("steps")
        return f"Move the pawn back {steps} space{'s' if steps != 1 else ''}."
    return ""


def _oversiege(action: JSON) -> str:
    card = action.get("card")
    k = kind(action)
    if k == "end-turn":
        return "Put the cards just drawn back on top of the deck."
    if card is None:
        return ""
    said = f"Put {piece_words(card)} back in the hand"
    if k == "attack":
        hit = " and ".join(piece_words(t) for t in action.get("targets", []))
        return f"{said}, and stand {hit} back up as it was."
    if k == "rebuild":
        return f"{said}, and lay {piece_words(action['target'])} down again as destroyed."
    if k == "key":
        return f"{said}, and close {piece_words(action['target'])} again."
    if k == "armament" and action.get("replaces"):
        return f"{said}, and bring {piece_words(action['replaces'])} back from the discard pile."
    if k == "discard":
        return f"Take {piece_words(card)} back from the discard pile into the hand."
    return f"{said}."


def _kingdomino(action: JSON) -> str:
    k = kind(action)
    domino = action.get("domino")
    if k == "claim":
        return f"Take the king back off domino {domino}."
    if k == "place":
        return f"Take domino {domino} back out of the kingdom and put the king back on it."
    if k == "discard":
        return f"Bring domino {domino} back, with the king on it."
    if k == "treasure":
        return f"Take the {piece_words(str(action.get('token')))} back off the kingdom."
    if k == "confirm":
        return f"Domino {domino} stays on the table; tap it again."
    return ""


PUT_BACK: dict[str, Callable[[JSON], str]] = {
    "magic-keys": _magic_keys,
    "oversiege": _oversiege,
    "kingdomino": _kingdomino,
}


def put_back(game: str, action: JSON) -> str:
    """The sentence that tells the family how to restore the table after undoing `action`."""
    describe = PUT_BACK.get(game)
    if describe is None:
        return "Put back on the table what that move changed."
    try:
        return describe(action)
    except (KeyError, TypeError):  # an action shape this file does not know yet
        return "Put back on the table what that move changed."
