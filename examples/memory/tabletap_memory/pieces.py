"""Memory's pieces: every card of the shipped decks, no seat rule (nobody owns a card), and
how an id is said (`card/owl/a` -> "owl card").

Imported with the spec, so the deck files are read only when a list or a name is asked for
(enrolling tags, the voice), never to find the game.
"""

from __future__ import annotations

from functools import cache

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
def picture_words(picture: str) -> str:
    """The name a shipped deck gives `picture` ("owl"); a picture of no deck, from its id."""
    from tabletap_memory.rules import ENGINE, DeckError

    for name in ENGINE.deck_names():
        try:
            deck = ENGINE.deck(name)
        except DeckError:  # the voice goes on; starting a game with it says what is wrong
            continue
        if picture in deck.names:
            return deck.say(picture)
    return picture.replace("-", " ")


def words(parts: list[str]) -> str | None:
    """`card/owl/a` -> "owl card" (both cards of a pair sound alike, as they look alike);
    anything else is said plainly."""
    if len(parts) == 3 and parts[0] == "card" and parts[2] in ("a", "b"):
        return f"{picture_words(parts[1])} card"
    return None
