"""What the family puts back after a Magic Keys action is undone (the action's journal JSON)."""

from __future__ import annotations

from typing import Any

from tabletap.controller.spoken.words import piece_words


def _key(key: str) -> str:
    return "the golden key" if key == "gold" else f"the {piece_words('magic-keys/key/' + key)}"


def move_name(action: dict[str, Any]) -> str:
    """A move as a person names it, after "ana's": "try of the purple key 1"."""
    k = str(action.get("type") or action.get("action") or "")
    if k == "try-key":
        return f"try of {_key(action['key'])}"
    if k == "pond":
        return f"{_key(action['key'])} put in the pond"
    return {"move": "pawn move", "end-turn": "end of the turn"}.get(k, "")


def put_back(action: dict[str, Any], before: Any = None) -> str:
    k = str(action.get("type") or action.get("action") or "")
    if k == "try-key":
        return (f"Put {_key(action['key'])} back on its space, and give back any gems it "
                "earned.")
    if k == "pond":
        return f"Take {_key(action['key'])} out of the pond and put it back on its space."
    if k == "move":
        steps = action.get("steps")
        return f"Move the pawn back {steps} space{'s' if steps != 1 else ''}."
    return ""  # end-turn: nothing on the table moved (a roll is never taken back)
