"""What the family puts back after a Memory card is taken back (the flip's journal JSON and the
state before it, so the sentence knows whether the card was the turn's first, a miss or the
one that made a pair). The session adds "It is ana's turn again." where the turn had passed.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.language.said import Named, Said
from tabletap_memory.pieces import picture_words
from tabletap_memory.words import msg


def _name(card: str) -> Named:
    """A card's picture name; ValueError for a picture of no deck, so the controller says its
    plain sentence instead of an id."""
    named = picture_words(card.rpartition("/")[0])
    if named is None:
        raise ValueError(f"no deck has the card {card!r}")
    return named


def put_back(action: dict[str, Any], before: Any = None) -> Said:
    kind = str(action.get("type") or action.get("action") or "")
    if kind != "flip":
        raise ValueError(f"not a Memory action: {kind!r}")  # the controller says it plainly
    name = _name(str(action["card"]))
    first = getattr(before, "turned", None)
    if first is None:  # the turn's first card (or no state to tell): back face down
        # TRANSLATORS: said after a card is taken back (undo), the turn's first card; picture
        # is its picture's name from the deck file
        return msg("Turn the %(picture)s card face down again.", picture=name)
    first_name = _name(first)
    if first_name == name:  # it made a pair: both go back where they lay
        # TRANSLATORS: said after the card that made a pair is taken back (undo): that card
        # goes face down, the pair's first card stays face up; picture is the pair's picture
        return msg("Put the %(picture)s pair back where it lay: this %(picture)s card face "
                   "down, the other %(picture)s card face up.", picture=name)
    # TRANSLATORS: said after the turn's second card (a miss) is taken back (undo): first is the
    # picture of the turn's first card, turned face up again; picture is the card taken back
    return msg("Turn the %(first)s card face up again; the %(picture)s card stays face down.",
               first=first_name, picture=name)
