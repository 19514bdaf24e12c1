"""Sentences fit to be spoken: what the play-by-play prints, said the way a person would say it.

The engines write for a reader ("red places <game>/red/catapult/1", "at [1, -1]"); a voice
reading that aloud spells out slashes and brackets. This module turns piece ids into words, says
negative numbers and coordinates plainly, and drops the console's symbols, so every sentence the
table speaks is one a child understands. It knows no game's rules, only how ids are spelt
(docs/CONTRACTS.md, "Pieces").
"""

from __future__ import annotations

import re
from functools import lru_cache

from tabletap.controller.games import registry
from tabletap.controller.language.messages import msg
from tabletap.controller.language.said import Said

# a piece id, with or without its game prefix ("<game>/red/stone/1", "tower/1", "pink/1")
_PIECE = re.compile(r"\b(?:[a-z][a-z0-9-]*/)+[a-z0-9][a-z0-9-]*\b")
_COORDS = re.compile(r"\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]")
_NEGATIVE = re.compile(r"(?<![\w-])-(\d)")
_SYMBOLS = str.maketrans({"✗": " ", "…": " ", "→": " to ", "`": "", "_": " "})

def game_name(game: str) -> str:
    """A game's name as a person says it (its spec's title); an unknown id is said word by
    word."""
    return registry.title(game)


def piece_words(piece: str) -> str:
    """A piece id in words, the way its game says it: `game/<name>` -> "the <title> card";
    otherwise the game's own `piece_words` (controller.games.spec) of the parts after its prefix
    ("key/blue/3" -> "blue key 3"), or those parts word by word."""
    return _piece_words(piece)


@lru_cache(maxsize=4096)  # the ids of a box or two; bounded, as the sentences are anyone's
def _piece_words(piece: str) -> str:
    if piece.startswith("game/"):
        return f"the {game_name(piece[5:])} card"
    parts = piece.split("/")
    spec = registry.by_prefix(parts[0]) if len(parts) > 1 else None
    if spec is not None:
        parts = parts[1:]
        said = spec.piece_words(parts)
        if said is not None:
            return said
    return " ".join(p.replace("-", " ") for p in parts)


def spoken(text: str) -> str:
    """The sentence as the voice should say it."""
    text = text.translate(_SYMBOLS)
    text = _COORDS.sub(lambda m: f"column {m.group(1)}, row {m.group(2)}", text)
    text = _PIECE.sub(lambda m: piece_words(m.group(0)), text)
    text = _NEGATIVE.sub(r"minus \1", text)
    return " ".join(text.split())


def refusal(reason: Said) -> Said:
    """A refusal is said with its reason: the family hears why, not only a red blink."""
    # TRANSLATORS: said aloud when the table refuses a move; reason is the sentence saying why
    return msg("No. %(reason)s", reason=reason)
