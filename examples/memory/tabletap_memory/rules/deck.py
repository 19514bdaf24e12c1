"""Memory's decks (decks/<name>.yaml): loaded once, validated, then read by the engine.

A deck is the pictures of its pairs and the words the table says for each, in every language
the file spells them (`name: {en: owl, de: Eule}`; a plain string is English only, and English
is the fallback). Names are not in the game's catalog because they belong to the file: a family
whose box has other pictures edits the file and names them in its own language. A broken file
fails loudly naming the file, the line and the key (tabletap's bounded YAML loader,
controller.loading.yamldoc, checking the file against the msgspec Schemas below, as
Kingdomino's treasures.yaml is read), never half-loads: the engine refuses the game that names
it (`bad-deck`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from tabletap.controller.language.said import Named
from tabletap.controller.loading.schema import Schema
from tabletap.controller.loading.yamldoc import SourceError, YamlDoc, load_text, validate

# A picture's id is one part of a piece id (memory/card/<picture>/<a|b>): lower-case words
# joined by hyphens, as docs/CONTRACTS.md ("Pieces") spells every part.
PICTURE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
CARD = re.compile(r"^([a-z0-9]+(?:-[a-z0-9]+)*)/([ab])$")
SIDES = ("a", "b")  # the two cards of a pair
MAX_PAIRS = 60  # 120 tags: more than any table holds, few enough to enrol in an evening
DEFAULT = "default"
ENGLISH = "en"  # the spelling every name must have: said where the family's language has none
LANGUAGE = re.compile(r"^[a-z]{2,3}(?:[-_][A-Za-z0-9]+)*$")  # a catalog's code: de, pt_BR

# A name as the file spells it: one string (English) or a mapping language -> spelling,
# left open to the schema and checked by `_named`, whose sentence says what to write (a schema
# union's error would name the types it expected, not a name's two forms).
Spelling = Any


class DeckError(ValueError):
    """A deck file is not usable; the message names the file, the line and the key."""


class _Picture(Schema, frozen=True):
    name: Spelling  # required: a picture the table cannot name cannot be said


class _DeckFile(Schema, frozen=True):
    ours: bool  # true: made up for tabletap, from no rulebook or published box (1 is no bool)
    title: Spelling
    pictures: dict[str, _Picture]


@dataclass(frozen=True)
class Deck:
    """One deck: its pictures in the file's order, their words, and the cards they make."""

    name: str  # as the `deck` option spells it
    title: Named  # what the pictures are, per language ("twelve animals and things in the sky")
    ours: bool
    names: Mapping[str, Named]  # picture -> the words the table says ("owl"), per language
    pictures: tuple[str, ...] = field(init=False)
    cards: tuple[str, ...] = field(init=False)  # owl/a, owl/b, fox/a, ...

    def __post_init__(self) -> None:
        pictures = tuple(self.names)
        object.__setattr__(self, "pictures", pictures)
        object.__setattr__(self, "cards", tuple(f"{p}/{s}" for p in pictures for s in SIDES))

    @property
    def pairs(self) -> int:
        return len(self.pictures)

    def say(self, picture: str) -> Named | None:
        """The words for `picture` ("owl") in every language the file has; None for a picture
        not in this deck (its id is no word to say: the caller says so without naming it)."""
        return self.names.get(picture)


def parse_deck(text: str, source: str = "default.yaml", name: str = DEFAULT) -> Deck:
    """A deck from its file's text; DeckError naming file, line and key for anything wrong."""
    try:
        doc = load_text(text, source)
        data = validate(doc, _DeckFile)
        title = _named(doc, ("title",), data.title, 80)
        if not data.pictures:
            raise doc.error(("pictures",), "a deck needs at least one pair of pictures")
        if len(data.pictures) > MAX_PAIRS:
            raise doc.error(("pictures",), f"{len(data.pictures)} pictures is more than the "
                            f"{MAX_PAIRS} a deck may have")
        names: dict[str, Named] = {}
        for picture, entry in data.pictures.items():
            if not isinstance(picture, str) or not PICTURE.match(picture):
                raise doc.error(("pictures", picture), "a picture's id is lower-case words "
                                "joined by hyphens (it is part of the cards' piece ids)")
            names[picture] = _named(doc, ("pictures", picture, "name"), entry.name, 40)
        _check_distinct(doc, names)
    except SourceError as exc:
        raise DeckError(str(exc)) from None
    return Deck(name, title, data.ours, names)


def _named(doc: YamlDoc, where: tuple[str, ...], value: Spelling, longest: int) -> Named:
    """One name of the file as a `Named`, each spelling tidied; SourceError at `where` for a
    name without English, a language code that is none, or a spelling no voice can say."""
    if not isinstance(value, str | dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in (
                value.items() if isinstance(value, dict) else ())):
        raise doc.error(where, "a name is words (owl) or one spelling per language "
                        "({en: owl, de: Eule})")
    spellings = {ENGLISH: value} if isinstance(value, str) else dict(value)
    if ENGLISH not in spellings:
        raise doc.error(where, "a name needs its English spelling (en: ...), the one said "
                        "where the family's language has none")
    tidy: dict[str, str] = {}
    for language, spelling in spellings.items():
        at = where if isinstance(value, str) else (*where, language)
        if not LANGUAGE.match(language):
            raise doc.error(at, f"{language!r} is not a language code (de, fr, es, ko, ...)")
        words = " ".join(spelling.split())
        if not words or len(words) > longest or "/" in words:
            raise doc.error(at, f"a name is words to say, 1 to {longest} characters, "
                            "without a slash")
        tidy[language] = words
    return Named.of(tidy, source=doc.path)


def _check_distinct(doc: YamlDoc, names: Mapping[str, Named]) -> None:
    """Two pictures with one name in a language could not be told apart by that family."""
    seen: dict[tuple[str, str], str] = {}
    for picture, named in names.items():
        for language, words in named.names:
            other = seen.setdefault((language, words.casefold()), picture)
            if other != picture:
                at = ("pictures", picture, "name") + (() if len(named.names) == 1
                                                      else (language,))
                raise doc.error(at, f"{words!r} is already the name of {other}: the family "
                                "could not tell them apart")


def deck_names() -> tuple[str, ...]:
    """Every deck this package ships, by the `deck` option's spelling, the default first."""
    folder = resources.files(__package__).joinpath("decks")
    found = sorted(f.name.removesuffix(".yaml") for f in folder.iterdir()
                   if f.name.endswith(".yaml"))
    return tuple(sorted(found, key=lambda n: n != DEFAULT))


@cache
def load_deck(name: str = DEFAULT) -> Deck:
    """The shipped deck `name`; KeyError for a deck there is not (the engine says which are)."""
    if name not in deck_names():
        raise KeyError(name)
    path = resources.files(__package__).joinpath("decks", f"{name}.yaml")
    return parse_deck(path.read_text(encoding="utf-8"), f"decks/{name}.yaml", name)


def card_parts(card: str) -> tuple[str, str] | None:
    """`owl/a` -> (`owl`, `a`); None for anything not shaped like a card."""
    m = CARD.match(card)
    return (m.group(1), m.group(2)) if m else None
