"""What the family puts back after an Oversiege action is undone (the action's journal JSON)."""

from __future__ import annotations

from typing import Any

from tabletap.controller.spoken.words import piece_words


def move_name(action: dict[str, Any]) -> str:
    """A move as a person names it, after "ana's": "attack with the red stone 1"."""
    k = str(action.get("type") or action.get("action") or "")
    card = action.get("card")
    if k == "end-turn":
        return "end of the turn"
    return f"{k} with {piece_words(card)}" if isinstance(card, str) else ""


def put_back(action: dict[str, Any], before: Any = None) -> str:
    card = action.get("card")
    k = str(action.get("type") or action.get("action") or "")
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
