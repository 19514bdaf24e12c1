"""Magic Keys' pieces: every id of the set, the player tokens that seat a player, and how an
id is said ("key/blue/3" -> "the third blue key": by colour and number, as a child sees it)."""

from __future__ import annotations

import re

from tabletap.controller.language.said import Said
from tabletap.games.magic_keys.words import KEYS, msg

COLOURS = ("purple", "blue", "green", "yellow")
KEYS_PER_COLOUR = 5
PLAYER_TOKEN = re.compile(r"^magic-keys/player/([a-z0-9]+(?:-[a-z0-9]+)*)$")


def pieces(decks: tuple[str, ...] = ()) -> list[str]:
    """Twenty true and fake keys, five per colour section, and the golden key."""
    keys = [f"magic-keys/key/{c}/{n}" for c in COLOURS for n in range(1, KEYS_PER_COLOUR + 1)]
    return keys + ["magic-keys/key/gold"]


def seat_of(piece: str) -> str | None:
    """A player token the maker enrolled, `magic-keys/player/<name>` (docs/FAMILIES.md)."""
    m = PLAYER_TOKEN.match(piece)
    return m.group(1) if m else None


def words(parts: list[str]) -> Said | None:
    """`key/gold` -> "the golden key"; `key/blue/3` -> "the third blue key"; `player/ana` ->
    "ana's player token"; anything else None (said plainly)."""
    if parts[:1] == ["key"] and "/".join(parts[1:]) in KEYS:
        return KEYS["/".join(parts[1:])]
    if len(parts) == 2 and parts[0] == "player":
        # TRANSLATORS: a player token (a tag that seats a player); player is the seat's name
        return msg("%(player)s's player token", player=parts[1])
    return None
