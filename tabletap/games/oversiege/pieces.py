"""Oversiege's pieces: each player's castle and deck (counts from cards.yaml), and the seat rule
(any card of a deck seats that deck: the player is their deck)."""

from __future__ import annotations

import re

DEFAULT_DECKS = ("red", "blue")
DECK_CARD = re.compile(r"^oversiege/([a-z0-9]+(?:-[a-z0-9]+)*)/")


def pieces(decks: tuple[str, ...] = ()) -> list[str]:
    """Each player's castle (four towers, entrance, chamber) and draw deck."""
    from tabletap.games.oversiege.rules.data import CASTLE_CARDS, load_cards

    cards = load_cards()
    out: list[str] = []
    for deck in decks or DEFAULT_DECKS:
        out += [f"oversiege/{deck}/{part}" for part in CASTLE_CARDS]
        out += cards.deck_cards(deck)
    return out


def seat_of(piece: str) -> str | None:
    """Any card of a player's deck (or castle) seats that deck."""
    m = DECK_CARD.match(piece)
    return m.group(1) if m else None

