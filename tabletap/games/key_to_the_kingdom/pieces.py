"""Key to the Kingdom's pieces, as the default content pack counts them: every hero's figure and
items, the magic items, the key pieces, the event cards, the companions (for a companion card
kept apart from the deck) and the Demon die; the seat rule (a hero's figure seats that hero) and
how an id is said ("key/red/1" -> "red key 1")."""

from __future__ import annotations

import re

from tabletap.controller.language.said import Said
from tabletap.games.key_to_the_kingdom.words import msg

HERO = re.compile(r"^kttk/hero/(?P<hero>[a-z0-9-]+)$")
KEY_COLOURS = ("red", "green", "blue")


def pieces(decks: tuple[str, ...] = ()) -> list[str]:
    from tabletap.games.key_to_the_kingdom.rules.pack import MAGIC_ITEMS, load_pack

    pack = load_pack()
    out = [f"kttk/hero/{h}" for h in pack.heroes]
    out += [f"kttk/item/{h}/{i}" for h in pack.heroes for i in pack.items]
    out += [f"kttk/magic/{m}" for m in MAGIC_ITEMS]
    out += [f"kttk/key/{c}/{n}" for c in KEY_COLOURS for n in range(1, pack.keys_per_colour + 1)]
    out += [f"kttk/event/{n}" for n in range(1, len(pack.cards) + 1)]
    out += [f"kttk/companion/{name}" for name in pack.companions]
    return out + ["kttk/demon-die"]


def seat_of(piece: str) -> str | None:
    """Set-up by game card: a hero's figure seats that hero (the player is the hero)."""
    m = HERO.match(piece)
    return m.group("hero") if m else None


def words(parts: list[str]) -> Said | None:
    """`key/red/1` -> "red key 1"; `item/knight/sword` -> "knight's sword"; `hero/knight` ->
    "knight"... said as the family names the pieces, by the default pack's names (a piece
    id carries no pack)."""
    from tabletap.games.key_to_the_kingdom.rules import named
    from tabletap.games.key_to_the_kingdom.rules.pack import load_pack

    pack = load_pack()
    if len(parts) == 3 and parts[0] == "key":
        # TRANSLATORS: a key piece's name; colour is its colour, number counts the pieces
        return msg("%(colour)s key %(number)s", colour=named.colour(parts[1]), number=parts[2])
    if len(parts) == 3 and parts[0] == "item":
        return named.item(pack, f"{parts[1]}/{parts[2]}")
    if len(parts) == 2 and parts[0] == "hero":
        # TRANSLATORS: a hero's figure, as a piece; hero is the hero's name
        return msg("%(hero)s", hero=named.hero(pack, parts[1]))
    if len(parts) == 2 and parts[0] == "magic":
        # TRANSLATORS: a magic item's token, as a piece; item is its name ("bee cannon")
        return msg("%(item)s", item=named.kind(pack, parts[1]))
    if len(parts) == 2 and parts[0] == "companion" and parts[1] in pack.companions:
        # TRANSLATORS: a companion card, as a piece; companion is its name ("owl")
        return msg("%(companion)s", companion=named.card(pack, pack.companions[parts[1]]))
    if parts == ["demon-die"]:
        # TRANSLATORS: the Demon die, as a piece
        return msg("Demon die")
    if len(parts) == 2 and parts[0] == "event" and parts[1].isdigit():
        # TRANSLATORS: an event card, as a piece; number is the number on its back
        return msg("event card %(number)s", number=int(parts[1]))
    return None
