"""Piece ids (docs/CONTRACTS.md, "Pieces") read into what the rules need: whose card, which card.

    oversiege/<deck>/tower/<1-4>, oversiege/<deck>/entrance, oversiege/<deck>/chamber,
    oversiege/<deck>/<card>/<n>

Parsing lives apart from the rules so the table layer and the engine agree on one reading, and a
misspelt id gets the same answer wherever it turns up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tabletap.controller.rules.base import Rejection
from tabletap.games.oversiege.rules.data import CASTLE_CARDS, DECK_CARDS, Cards
from tabletap.games.oversiege.words import card as named
from tabletap.games.oversiege.words import msg, msg_n

PREFIX = "oversiege"
_COPY = re.compile(r"[1-9][0-9]*")  # ASCII digits only: str.isdigit() also passes '²'


@dataclass(frozen=True)
class Piece:
    """One card. `part` is a castle part (`tower/2`, `entrance`, `chamber`) or a deck card
    kind (`stone`, `key`, ...); `n` numbers the copies of a deck card."""

    id: str
    deck: str
    part: str
    n: int | None = None

    @property
    def castle(self) -> bool:
        return self.n is None


def castle_id(deck: str, part: str) -> str:
    return f"{PREFIX}/{deck}/{part}"


# piece id -> (the Cards it was read against, the Piece): the engine reads the same few hundred
# ids again and again while it lists legal plays; ids that are not pieces are never kept.
_READ: dict[str, tuple[Cards, Piece]] = {}


def parse_piece(piece: str, cards: Cards) -> Piece:
    """Read a piece id; raises Rejection(`unknown-piece`) for anything that is not one."""
    known = _READ.get(piece) if isinstance(piece, str) else None
    if known is not None and known[0] is cards:
        return known[1]
    read = _parse_piece(piece, cards)
    if len(_READ) < 100_000:
        _READ[piece] = (cards, read)
    return read


def _not_a_card() -> Rejection:
    """Made only when raised: a Rejection renders its sentence as it is made, and every piece
    id a game reads passes here once."""
    # TRANSLATORS: a refusal: a tag was read that is no card of Oversiege
    return Rejection("unknown-piece", msg("That is not a card of Oversiege."))


def _parse_piece(piece: str, cards: Cards) -> Piece:
    if not isinstance(piece, str):
        raise _not_a_card()
    bits = piece.split("/")
    if len(bits) < 3 or bits[0] != PREFIX or not bits[1]:
        raise _not_a_card()
    deck, rest = bits[1], "/".join(bits[2:])
    if rest in CASTLE_CARDS:
        return Piece(piece, deck, rest)
    if len(bits) != 4 or bits[2] not in DECK_CARDS:
        raise _not_a_card()
    copies = cards.copies[bits[2]]
    n = int(bits[3]) if _COPY.fullmatch(bits[3]) else 0
    if not 1 <= n <= copies:
        # TRANSLATORS: a refusal: a card's tag names a copy the deck does not have; card is
        # the card's name ("stone"), n how many of it a deck has
        raise Rejection("unknown-piece", msg_n(
            "That card is not in the deck: a deck has only %(n)s %(card)s card.",
            "That card is not in the deck: a deck has only %(n)s %(card)s cards.", copies,
            card=named(bits[2])))
    return Piece(piece, deck, bits[2], n)
