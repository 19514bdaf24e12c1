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
from tabletap.controller.language.messages import msg
from tabletap.controller.language.said import Said, plain

JSON = dict[str, Any]
Part = Said | str | None  # a sentence a game gave: a message, English (older games), or none


def kind(action: JSON) -> str:
    return str(action.get("type") or action.get("action") or "")


def chance_reason(action: JSON, drew: bool = False) -> Said | None:
    """Why `action` can never be undone (it drew chance, or the engine says it `drew`), as the
    refusal's whole sentence; None when it may be."""
    match kind(action):
        case "roll":
            # TRANSLATORS: refusal of undo: digital dice were rolled
            return msg("That cannot be taken back: a roll stays as rolled.")
        case "reveal":
            # TRANSLATORS: refusal of undo: a treasure was turned face up
            return msg("That cannot be taken back: a treasure turned face up stays face up.")
    if drew:
        # TRANSLATORS: refusal of undo: the move drew chance (a card, a die)
        return msg("That cannot be taken back: chance stays as it came.")
    return None


# TRANSLATORS: said after an undo when the game does not say what to put back
GENERIC = msg("Put back on the table what that move changed.")


def said(part: Part) -> Said | None:
    """A game's sentence as a message: a Said as it is, English as a plain string (the language
    checks then name it), nothing for "" or None."""
    if isinstance(part, Said):
        return part
    return plain(part) if part else None


def sentences(*parts: Part) -> Said:
    """Whole sentences said one after the other (never pieces of one sentence)."""
    kept = [p for p in (said(part) for part in parts) if p is not None]
    if not kept:
        return plain("")
    out = kept[-1]
    for first in reversed(kept[:-1]):
        # TRANSLATORS: two whole sentences said one after the other; keep the order, change
        # only the space between them if your language separates sentences otherwise
        out = msg("%(first)s %(then)s", first=first, then=out)
    return out


def put_back(game: str, action: JSON, before: Any = None) -> Said | None:
    """The sentence that tells the family how to restore the table after undoing `action`
    (played on the state `before`): the game's own `put_back` (controller.games.spec), or a
    plain sentence where it has none for an action shape (a journal from a newer version);
    None when nothing on the table moved."""
    spec = registry.find(game)
    if spec is None:
        return GENERIC
    try:
        return said(spec.put_back(action, before))
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


def checks_sentence(game: str, actions: list[JSON]) -> Said | None:
    """What the family does about the table checks taken back with a move: each of the game's
    `table_checks` sentences, each a whole sentence of its catalog (an English fragment of a
    game not yet translated is capitalised and ended with a full stop here)."""
    spec = registry.find(game)
    if spec is None:
        return None
    found = {spec.table_checks[kind(a)] for a in actions if kind(a) in spec.table_checks}
    parts = [s if isinstance(s, Said) else plain(f"{s[0].upper()}{s[1:]}.") for s in found]
    return sentences(*sorted(parts, key=lambda p: p.msgid)) if parts else None


def move_name(game: str, action: JSON) -> Said:
    """A move as a person names it ("claim of domino 13"): the game's own `move_name`, or
    "move" where it has none for an action shape."""
    spec = registry.find(game)
    named: Part = None
    if spec is not None and spec.move_name is not None:
        try:
            named = spec.move_name(action)
        except (KeyError, TypeError, ValueError):
            named = None
    # TRANSLATORS: a move named in an undo's sentence when the game gives no better name
    return said(named) or msg("move")


def undid(game: str, owner: str, action: JSON) -> Said:
    """The first words of an undo's sentence: which move, whose."""
    # TRANSLATORS: the start of an undo's sentence; player is a name, move the move's name
    # (a message of the game's: "claim of domino 13", "try of the purple key 1")
    return msg("Taken back: %(player)s's %(move)s.", player=owner, move=move_name(game, action))
