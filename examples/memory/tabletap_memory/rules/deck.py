"""Memory's decks (decks/<name>.yaml): loaded once, validated, then read by the engine.

A deck is the pictures of its pairs and the words the table says for each. The decks live in
data files, not in code, so a family whose box has other pictures edits a file, and a broken
file fails loudly naming the file, the line and the key (tabletap's bounded YAML loader,
controller.loading.yamldoc, as Kingdomino's treasures.yaml is read), never half-loads: the
engine refuses the game that names it (`bad-deck`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from tabletap.controller.loading.yamldoc import SourceError, load_text, validate

# A picture's id is one part of a piece id (memory/card/<picture>/<a|b>): lower-case words
# joined by hyphens, as docs/CONTRACTS.md ("Pieces") spells every part.
PICTURE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
CARD = re.compile(r"^([a-z0-9]+(?:-[a-z0-9]+)*)/([ab])$")
SIDES = ("a", "b")  # the two cards of a pair
MAX_PAIRS = 60  # 120 tags: more than any table holds, few enough to enrol in an evening
DEFAULT = "default"


class DeckError(ValueError):
    """A deck file is not usable; the message names the file, the line and the key."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Picture(_Strict):
    name: str = Field(min_length=1, max_length=40)


class _DeckFile(_Strict):
    ours: StrictBool  # true: made up for tabletap, from no rulebook or published box
    title: str = Field(min_length=1, max_length=80)
    pictures: dict[str, _Picture]


@dataclass(frozen=True)
class Deck:
    """One deck: its pictures in the file's order, their words, and the cards they make."""

    name: str  # as the `deck` option spells it
    title: str
    ours: bool
    names: Mapping[str, str]  # picture -> the words the table says ("owl")
    pictures: tuple[str, ...] = field(init=False)
    cards: tuple[str, ...] = field(init=False)  # owl/a, owl/b, fox/a, ...

    def __post_init__(self) -> None:
        pictures = tuple(self.names)
        object.__setattr__(self, "pictures", pictures)
        object.__setattr__(self, "cards", tuple(f"{p}/{s}" for p in pictures for s in SIDES))

    @property
    def pairs(self) -> int:
        return len(self.pictures)

    def say(self, picture: str) -> str:
        """The words for `picture` ("owl"); a picture of no deck is said from its id."""
        return self.names.get(picture) or picture.replace("-", " ")


def parse_deck(text: str, source: str = "default.yaml", name: str = DEFAULT) -> Deck:
    """A deck from its file's text; DeckError naming file, line and key for anything wrong."""
    try:
        doc = load_text(text, source)
        data = validate(doc, _DeckFile)
        if not data.pictures:
            raise doc.error(("pictures",), "a deck needs at least one pair of pictures")
        if len(data.pictures) > MAX_PAIRS:
            raise doc.error(("pictures",), f"{len(data.pictures)} pictures is more than the "
                            f"{MAX_PAIRS} a deck may have")
        said: dict[str, str] = {}
        for picture, entry in data.pictures.items():
            if not isinstance(picture, str) or not PICTURE.match(picture):
                raise doc.error(("pictures", picture), "a picture's id is lower-case words "
                                "joined by hyphens (it is part of the cards' piece ids)")
            words = " ".join(entry.name.split())
            if not words or "/" in words:
                raise doc.error(("pictures", picture, "name"), "a name is words to say, "
                                "without a slash")
            if words in said:
                raise doc.error(("pictures", picture, "name"), f"{words!r} is already the "
                                f"name of {said[words]}: the family could not tell them apart")
            said[words] = picture
    except SourceError as exc:
        raise DeckError(str(exc)) from None
    return Deck(name, data.title, data.ours, {picture: words for words, picture in said.items()})


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
