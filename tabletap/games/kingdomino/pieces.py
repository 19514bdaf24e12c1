"""Kingdomino's pieces: the 48 dominoes, The Lost Treasures' gem tokens (counts from
treasures.yaml), the kings and the castles; the seat rule (one of a player's kings seats that
colour) and how an id is said ("king/blue/2" -> "blue king 2")."""

from __future__ import annotations

import re

DOMINOES = 48
KING = re.compile(r"^kingdomino/king/([a-z]+)/[12]$")


def pieces(decks: tuple[str, ...] = ()) -> list[str]:
    from tabletap.games.kingdomino.rules.state import COLOURS
    from tabletap.games.kingdomino.rules.treasures import all_tokens

    out = [f"kingdomino/domino/{n}" for n in range(1, DOMINOES + 1)]
    out += [f"kingdomino/treasure/{token}" for token in all_tokens()]
    out += [f"kingdomino/king/{c}/{n}" for c in COLOURS for n in (1, 2)]
    out += [f"kingdomino/castle/{c}" for c in COLOURS]
    return out


def seat_of(piece: str) -> str | None:
    """One of a player's kings, `kingdomino/king/<colour>/<n>`: the player is the colour."""
    m = KING.match(piece)
    return m.group(1) if m else None


def words(parts: list[str]) -> str | None:
    """`king/blue/2` -> "blue king 2"; `castle/pink` -> "pink castle"."""
    if len(parts) >= 2 and parts[0] in ("king", "castle"):
        parts = parts[1:2] + parts[:1] + parts[2:]
    return " ".join(p.replace("-", " ") for p in parts)
