"""Undo at the table: which actions may be taken back, and what the family puts back by hand.

The engine can restore the state before an action (states are immutable), but the pieces on the
table moved too: the play-by-play must say what to put back. It reads the action as the journal
holds it (its JSON form), so it needs no engine internals. A game without an entry here gets a
plain "put back what it moved" sentence.

Chance is never taken back (issue 9: "undo cannot be used to fish for a better roll"): a digital
roll, or a treasure turned face up, stays as it came.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.games import registry

JSON = dict[str, Any]
CHANCE_KINDS = {"roll": "a roll stays as rolled", "reveal": "a treasure turned face up stays "
                "face up"}


def kind(action: JSON) -> str:
    return str(action.get("type") or action.get("action") or "")


def chance_reason(action: JSON) -> str | None:
    """Why `action` can never be undone (it drew chance), or None."""
    return CHANCE_KINDS.get(kind(action))


GENERIC = "Put back on the table what that move changed."


def put_back(game: str, action: JSON, before: Any = None) -> str:
    """The sentence that tells the family how to restore the table after undoing `action`
    (played on the state `before`): the game's own `put_back` (controller.games.spec), or a
    plain sentence where it has none for an action shape (a journal from a newer version)."""
    spec = registry.find(game)
    if spec is None:
        return GENERIC
    try:
        return spec.put_back(action, before)
    except (KeyError, TypeError, ValueError):  # an action shape the game does not know
        return GENERIC


def is_move(game: str, action: JSON) -> bool:
    """Whether `action` is a move, not a table check of the game's (its spec's
    `table_checks`: a new line's domino tapped to check it, say). Undo goes back over checks to
    the move before and takes them back with it (issue 21, defect 4)."""
    spec = registry.find(game)
    return spec is None or kind(action) not in spec.table_checks


def checks_after_last_move(game: str, actions: list[JSON]) -> int:
    """How many table checks were accepted after the last move in `actions` (oldest first)."""
    count = 0
    for action in reversed(actions):
        if is_move(game, action):
            break
        count += 1
    return count


def checks_sentence(game: str, actions: list[JSON]) -> str:
    """What the family does about the table checks taken back with a move."""
    spec = registry.find(game)
    if spec is None:
        return ""
    said = {spec.table_checks[kind(a)] for a in actions if kind(a) in spec.table_checks}
    return " ".join(f"{s[0].upper()}{s[1:]}." for s in sorted(said))


def move_name(game: str, action: JSON) -> str:
    """A move as a person names it ("claim of domino 13"): the game's own `move_name`, or
    "move" where it has none for an action shape."""
    spec = registry.find(game)
    if spec is None or spec.move_name is None:
        return "move"
    try:
        return spec.move_name(action) or "move"
    except (KeyError, TypeError, ValueError):
        return "move"


def undid(game: str, owner: str, action: JSON) -> str:
    """The first words of an undo's sentence: which move, whose."""
    return f"Taken back: {owner}'s {move_name(game, action)}."
