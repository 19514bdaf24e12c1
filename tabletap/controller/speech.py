"""Sentences fit to be spoken: what the play-by-play prints, said the way a person would say it.

The engines write for a reader ("red places oversiege/red/catapult/1", "at [1, -1]"); a voice
reading that aloud spells out slashes and brackets. This module turns piece ids into words, says
negative numbers and coordinates plainly, and drops the console's symbols, so every sentence the
table speaks is one a child understands. It knows no game's rules, only how ids are spelt
(docs/CONTRACTS.md, "Pieces").
"""

from __future__ import annotations

import re

# a piece id, with or without its game prefix ("oversiege/red/stone/1", "tower/1", "pink/1")
_PIECE = re.compile(r"\b(?:[a-z][a-z0-9-]*/)+[a-z0-9][a-z0-9-]*\b")
_COORDS = re.compile(r"\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]")
_NEGATIVE = re.compile(r"(?<![\w-])-(\d)")
_GAME_PREFIXES = ("magic-keys/", "oversiege/", "kingdomino/", "key-to-the-kingdom/", "game/")
_SYMBOLS = str.maketrans({"✗": " ", "…": " ", "→": " to ", "`": "", "_": " "})

GAME_NAMES = {
    "magic-keys": "Magic Keys",
    "oversiege": "Oversiege",
    "kingdomino": "Kingdomino",
    "key-to-the-kingdom": "Key to the Kingdom",
}


def game_name(game: str) -> str:
    """`key-to-the-kingdom` -> "Key to the Kingdom"; an unknown id is said word by word."""
    return GAME_NAMES.get(game, game.replace("-", " "))


def piece_words(piece: str) -> str:
    """`magic-keys/key/blue/3` -> "blue key 3"; `oversiege/red/battering-ram/1` -> "red
    battering ram 1"; `kingdomino/king/pink/1` -> "pink king 1"; `game/kingdomino` -> "the
    Kingdomino card"."""
    if piece.startswith("game/"):
        return f"the {game_name(piece[5:])} card"
    for prefix in _GAME_PREFIXES:
        if piece.startswith(prefix):
            piece = piece[len(prefix):]
            break
    parts = piece.split("/")
    if parts == ["key", "gold"]:
        return "golden key"
    if len(parts) >= 2 and parts[0] in ("key", "king", "castle", "player"):
        parts = parts[1:2] + parts[:1] + parts[2:]  # key/blue/3 -> blue key 3
    return " ".join(p.replace("-", " ") for p in parts)


def spoken(text: str) -> str:
    """The sentence as the voice should say it."""
    text = text.translate(_SYMBOLS)
    text = _COORDS.sub(lambda m: f"column {m.group(1)}, row {m.group(2)}", text)
    text = _PIECE.sub(lambda m: piece_words(m.group(0)), text)
    text = _NEGATIVE.sub(r"minus \1", text)
    return " ".join(text.split())


def refusal(message: str) -> str:
    """A refusal is said with its reason: the family hears why, not only a red blink."""
    return spoken(f"No. {message}")
