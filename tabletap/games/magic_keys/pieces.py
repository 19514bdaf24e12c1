"""Magic Keys' pieces: every id of the set, the player tokens that seat a player, and how an
id is said ("key/blue/3" -> "blue key 3")."""

from __future__ import annotations

import re

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


def words(parts: list[str]) -> str | None:
    """`key/gold` -> "golden key"; `key/blue/3` -> "blue key 3"; `player/ana` -> "ana
    player"."""
    if parts == ["key", "gold"]:
        return "golden key"
    if len(parts) >= 2 and parts[0] in ("key", "player"):
        parts = parts[1:2] + parts[:1] + parts[2:]
    return " ".join(p.replace("-", " ") for p in parts)
