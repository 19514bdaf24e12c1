"""Kingdomino's pieces: the 48 dominoes, The Lost Treasures' gem tokens (counts from
treasures.yaml), the kings and the castles; the seat rule (one of a player's kings seats that
colour) and how a piece is said ("king/blue/2" -> "the blue king": a player's two kings look
alike, so the number on the tag is never said)."""

from __future__ import annotations

import re

from tabletap.controller.language.said import Said

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


def words(parts: list[str]) -> Said | None:
    """`king/blue/2` -> "the blue king"; `castle/pink` -> "the pink castle"; `domino/12` ->
    "domino 12"; `treasure/ruby/2` -> "the ruby token". None: a part the game does not know."""
    from tabletap.games.kingdomino import words as w

    kind, rest = (parts[0], parts[1:]) if parts else ("", [])
    if kind == "king" and rest:
        return w.KINGS.get(rest[0])
    if kind == "castle" and rest:
        return w.CASTLES.get(rest[0])
    if kind == "domino" and len(rest) == 1 and rest[0].isdigit():
        return w.domino_number(int(rest[0]))
    if kind == "treasure" and rest:
        return w.gem_token("/".join(rest))
    return None
