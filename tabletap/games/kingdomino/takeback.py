"""What the family puts back after a Kingdomino action is undone (the action's journal JSON)."""

from __future__ import annotations

from typing import Any

from tabletap.controller.spoken.words import piece_words


def put_back(action: dict[str, Any], before: Any = None) -> str:
    k = str(action.get("type") or action.get("action") or "")
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
