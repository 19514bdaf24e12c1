"""Oversiege's messages (catalog domain `oversiege`, docs/LANGUAGES.md) and how its cards are
named in them.

The spec's sentences are defined here as messages, so the spec is built from their `msgid` and
its English cannot drift from the catalog. Cards are named by their names in cards.yaml (one
spelling per language) and their owner, never by their piece id: "the red catapult".
"""

from __future__ import annotations

from tabletap.controller.language.said import Domain, Named, Said

msg, msg_n, msg_p, msg_np = Domain("oversiege").functions()

# TRANSLATORS: the game's name, said when it is chosen and when it begins
TITLE = msg("Oversiege")
# TRANSLATORS: the set-up page's sentence beside the teams option
TEAMS_HELP = msg("Teams of players who win together; with no teams, everyone plays alone.")
# TRANSLATORS: the set-up page's sentence beside the "first crown wins" option
FIRST_CROWN_HELP = msg("The first player to take a crown wins at once.")
# TRANSLATORS: a choice of a yes-or-no option on the set-up page
NO = msg("No")
# TRANSLATORS: a choice of a yes-or-no option on the set-up page
YES = msg("Yes")
# TRANSLATORS: said when Oversiege is chosen, after "Setting up Oversiege:"; how players join
SEATING = msg("each player taps a card of their deck")
# TRANSLATORS: the page's hint for the name of a deck still to be enrolled
HINT = msg("deck colours, e.g. red, blue")


def card(kind: str) -> Named:
    """A castle part (`tower/1`, `entrance`) or card kind (`stone`) by its name in cards.yaml."""
    from tabletap.games.oversiege.rules.data import load_cards

    return load_cards().name(kind)


def piece(card_id: str) -> Said:
    """A card by its owner and name, inside a sentence: "the red catapult", "blue's tower 1"."""
    return words(_parts(card_id))


def first(card_id: str) -> Said:
    """A card as `piece` says it, at the start of a sentence: "The red catapult"."""
    return words(_parts(card_id), start=True)


def _parts(card_id: str) -> list[str]:
    bits = card_id.split("/") if isinstance(card_id, str) else []
    return bits[1:] if bits[:1] == ["oversiege"] else bits


def words(parts: list[str], start: bool = False) -> Said:
    """A card's words from the parts of its id after the prefix (the spec's `piece_words`);
    `start` for the start of a sentence, where a language writes a capital."""
    from tabletap.games.oversiege.rules.data import CASTLE_CARDS, DECK_CARDS

    deck, rest = (parts[0], "/".join(parts[1:])) if len(parts) > 1 else ("", "")
    if deck and rest in CASTLE_CARDS:
        # TRANSLATORS: a castle card; deck is its player's name (their deck's colour, as
        # entered), card the castle card's name ("tower 1", "entrance")
        return msg("%(deck)s's %(card)s", deck=deck, card=card(rest))
    if deck and len(parts) == 3 and parts[1] in DECK_CARDS and start:
        # TRANSLATORS: a card of a player's deck at the start of a sentence ("The red catapult
        # is already in play."); deck is the player's name (their deck's colour, as entered),
        # card the card's name
        return msg_p("start of a sentence", "The %(deck)s %(card)s", deck=deck,
                     card=card(parts[1]))
    if deck and len(parts) == 3 and parts[1] in DECK_CARDS:
        # TRANSLATORS: a card of a player's deck; deck is the player's name (their deck's
        # colour, as entered: "red"), card the card's name ("catapult"): "the red catapult"
        return msg("the %(deck)s %(card)s", deck=deck, card=card(parts[1]))
    # TRANSLATORS: a card tapped that Oversiege does not know
    return msg("a card Oversiege does not know")
