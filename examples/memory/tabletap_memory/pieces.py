"""Memory's pieces: every card of the shipped decks, no seat rule (nobody owns a card), and
how an id is said (`card/owl/a` -> "owl card", a message of the game's catalog).

Imported with the spec, so the deck files are read only when a list or a name is asked for
(enrolling tags, the voice), never to find the game.
"""

from __future__ import annotations

from functools import cache

from tabletap.controller.language.said import Named, Said
from tabletap_memory.words import msg

PREFIX = "memory"


def pieces(decks: tuple[str, ...] = ()) -> list[str]:
    """Both cards of every picture of the shipped decks, default deck first: one set of tags
    serves every deck (the small deck is six of the default deck's pairs)."""
    from tabletap_memory.rules import ENGINE

    out: dict[str, None] = {}
    for name in ENGINE.deck_names():
        out.update(dict.fromkeys(f"{PREFIX}/card/{card}" for card in ENGINE.deck(name).cards))
    return list(out)


def seat_of(piece: str) -> str | None:
    """Memory has no personal pieces: players join by the roll button (the spec's seating)."""
    return None


@cache
def picture_words(picture: str) -> Named | None:
    """The name a shipped deck gives `picture` ("owl"), in every language its file spells it;
    None for a picture of no deck (its id is no word a child knows)."""
    from tabletap_memory.rules import ENGINE, DeckError

    for name in ENGINE.deck_names():
        try:
            deck = ENGINE.deck(name)
        except DeckError:  # the voice goes on; starting a game with it says what is wrong
            continue
        named = deck.say(picture)
        if named is not None:
            return named
    return None


def words(parts: list[str]) -> Said | None:
    """`card/owl/a` -> "owl card" (both cards of a pair sound alike, as they look alike);
    anything else is said plainly."""
    if len(parts) == 3 and parts[0] == "card" and parts[2] in ("a", "b"):
        named = picture_words(parts[1])
        if named is None:
            # TRANSLATORS: how a card is called whose picture is in no deck (enrolling tags)
            return msg("a card that is in no deck")
        # TRANSLATORS: how a card is called ("owl card"), as in "owl card does not seat anyone
        # in Memory"; picture is the picture's name from the deck file
        return msg("%(picture)s card", picture=named)
    return None
