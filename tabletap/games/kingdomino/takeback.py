"""What the family puts back after a Kingdomino action is undone (the action's journal JSON)."""

from __future__ import annotations

from typing import Any

from tabletap.controller.spoken.words import piece_words

# A new line's domino tapped to check it is the one drawn: no player chose it, so it is not a
# move; undo takes it back with the move before it (the spec's `table_checks`).
TABLE_CHECKS = {"confirm": "the new line's dominoes stay on the table: tap them again"}
_NAMES = {"claim": "claim of domino {domino}", "place": "placement of domino {domino}",
          "discard": "discard of domino {domino}", "treasure": "gem", "orient": "gem"}


def move_name(action: dict[str, Any]) -> str:
    """A move as a person names it, after "ana's": "claim of domino 13"."""
    k = str(action.get("type") or action.get("action") or "")
    return _NAMES.get(k, "").format(domino=action.get("domino"))


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
