"""Sentences fit to be spoken: what the play-by-play prints, said the way a person would say it.

The engines' sentences are messages now (language.Said), rendered in the family's language
before they reach the voice; what is left for this module is the console's symbols (a voice
reading "…" or "✗" aloud says nothing useful) and the piece ids an older add-on may still put in a
plain sentence. Coordinates are no longer rewritten: no sentence should hold one, and a bracket
that reaches the voice stays there, so tests/language finds the sentence that let it through.
It knows no game's rules, only how ids are spelt (docs/CONTRACTS.md, "Pieces").
"""

from __future__ import annotations

import re
from functools import lru_cache

from tabletap.controller.games import registry
from tabletap.controller.language.messages import msg
from tabletap.controller.language.said import Said, plain
from tabletap.controller.language.words import Words

# a piece id, with or without its game prefix ("<game>/red/stone/1", "tower/1", "pink/1")
_PIECE = re.compile(r"\b(?:[a-z][a-z0-9-]*/)+[a-z0-9][a-z0-9-]*\b")
_SYMBOLS = str.maketrans({"✗": " ", "…": " ", "→": ", ", "`": "", "_": " "})
_ENGLISH = Words()


def game_name(game: str) -> str:
    """A game's name as a person says it in English (its spec's title), for logs and the
    maker's shell; sentences for people take `registry.title_said`."""
    return registry.title(game)


def piece_words(piece: str) -> str:
    """A piece id in English words ("blue key 3"), for logs and the games' own English."""
    return _ENGLISH(piece_said(piece))


def piece_said(piece: str) -> Said:
    """A piece id as a sentence's part, in the family's language once rendered: `game/<name>`
    is "the <title> card"; otherwise the game's own `piece_words` (controller.games.spec) of the
    parts after its prefix (a Said, or English), or those parts word by word."""
    return _piece_said(piece)


@lru_cache(maxsize=4096)  # the ids of a box or two; bounded, as the sentences are anyone's
def _piece_said(piece: str) -> Said:
    if piece.startswith("game/"):
        # TRANSLATORS: a game card named in a sentence ("the <title> card"); game is its title
        return msg("the %(game)s card", game=registry.title_said(piece[5:]))
    parts = piece.split("/")
    spec = registry.by_prefix(parts[0]) if len(parts) > 1 else None
    if spec is not None:
        parts = parts[1:]
        said = spec.piece_words(parts)
        if isinstance(said, Said):
            return said
        if said is not None:
            return plain(said)
    return plain(" ".join(p.replace("-", " ") for p in parts))


def spoken(text: str) -> str:
    """The sentence as the voice should say it: no console symbols (a voice says a minus sign
    in its own language by itself)."""
    text = text.translate(_SYMBOLS)
    text = _PIECE.sub(lambda m: piece_words(m.group(0)), text)
    return " ".join(text.split())


def refusal(reason: Said) -> Said:
    """A refusal is said with its reason: the family hears why, not only a red blink."""
    # TRANSLATORS: said aloud when the table refuses a move; reason is the sentence saying why
    return msg("No. %(reason)s", reason=reason)
