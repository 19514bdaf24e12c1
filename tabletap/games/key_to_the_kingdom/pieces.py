"""Key to the Kingdom's pieces, as the default content pack counts them: every hero's figure and
items, the magic items, the key pieces, the event cards, the companions (for a companion card
kept apart from the deck) and the Demon die; the seat rule (a hero's figure seats that hero) and
how an id is said ("key/red/1" -> "red key 1")."""

from __future__ import annotations

import re

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


def words(parts: list[str]) -> str | None:
    """`key/red/1` -> "red key 1"; `item/knight/sword` -> "knight's sword"; `hero/knight` ->
    "the knight"... said as the family names the pieces."""
    if len(parts) == 3 and parts[0] == "key":
        return f"{parts[1]} key {parts[2]}"
    if len(parts) == 3 and parts[0] == "item":
        return f"{parts[1].replace('-', ' ')}'s {parts[2].replace('-', ' ')}"
    if len(parts) == 2 and parts[0] in ("hero", "magic", "companion"):
        return parts[1].replace("-", " ")
    if parts == ["demon-die"]:
        return "Demon die"
    if len(parts) == 2 and parts[0] == "event":
        return f"event card {parts[1]}"
    return None
