"""What the family puts back after a Kingdomino action is undone (the action's journal JSON).

Sentences, not strings (docs/LANGUAGES.md): the controller says them in the table's language.
Dominoes are named by the numbers on their backs here, as the undo sentences always have: the
family just moved that domino and the number is what the journal and the log show.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.language.said import Said
from tabletap.games.kingdomino.words import gem, msg

# A new line's domino tapped to check it is the one drawn: no player chose it, so it is not a
# move; undo takes it back with the move before it (the spec's `table_checks`).
TABLE_CHECKS = {
    # TRANSLATORS: said after an undo that took back the taps of a new line's dominoes
    "confirm": msg("The new line's dominoes stay on the table: tap them again."),
}


def _kind(action: dict[str, Any]) -> str:
    return str(action.get("type") or action.get("action") or "")


def move_name(action: dict[str, Any]) -> Said | str:
    """A move as a person names it, after "ana's": "claim of domino 13"."""
    k, domino = _kind(action), action.get("domino")
    if k == "claim":
        # TRANSLATORS: a move taken back, after "Taken back: ana's"; domino is its number
        return msg("claim of domino %(domino)s", domino=domino)
    if k == "place":
        # TRANSLATORS: a move taken back, after "Taken back: ana's"; domino is its number
        return msg("placement of domino %(domino)s", domino=domino)
    if k == "discard":
        # TRANSLATORS: a move taken back, after "Taken back: ana's"; domino is its number
        return msg("discard of domino %(domino)s", domino=domino)
    if k in ("treasure", "orient"):
        # TRANSLATORS: a move taken back, after "Taken back: ana's": a gem set on a kingdom
        return msg("gem")
    return ""


def put_back(action: dict[str, Any], before: Any = None) -> Said | str:
    """What to put back by hand; "" when nothing on the table moved."""
    k, domino = _kind(action), action.get("domino")
    if k == "claim":
        # TRANSLATORS: said after an undo; domino is the number on the domino's back
        return msg("Take the king back off domino %(domino)s.", domino=domino)
    if k == "place":
        # TRANSLATORS: said after an undo; domino is the number on the domino's back
        return msg("Take domino %(domino)s back out of the kingdom and put the king back on "
                   "it.", domino=domino)
    if k == "discard":
        # TRANSLATORS: said after an undo; domino is the number on the domino's back
        return msg("Bring domino %(domino)s back, with the king on it.", domino=domino)
    if k == "treasure":
        # TRANSLATORS: said after an undo; gem is the gem's name (ruby, ..., joker)
        return msg("Take the %(gem)s back off the kingdom.", gem=gem(str(action.get("token"))))
    if k == "confirm":
        # TRANSLATORS: said after an undo; domino is the number on the domino's back
        return msg("Domino %(domino)s stays on the table; tap it again.", domino=domino)
    return ""
