"""The card content (cards.yaml): loaded once, validated, then read by the engine.

The rulebook names the cards but prints no counts, icons or draw values, so those live in a data
file a maker can correct for their copy. A broken file must fail loudly at start-up with the
reason, never half-load: the engine's "the entrance falls only to a ram" and "every card can be
named by a piece id" lean on the checks below.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Annotated, Literal

from tabletap.controller.language.said import Named
from tabletap.controller.loading.schema import Invalid, Meta, Schema
from tabletap.controller.loading.yamldoc import SourceError, parse_data

Status = Literal["confirmed", "likely", "guess"]
Icon = Literal["stone", "bolt", "ram"]
Blue = Literal["none", "half", "full"]

ARMAMENTS: tuple[str, ...] = ("catapult", "crossbow", "battering-ram")
PROJECTILES: tuple[str, ...] = ("stone", "bolt", "ram", "double-stone", "double-bolt")
OTHER_CARDS: tuple[str, ...] = ("rebuild", "key", "blockade")
DECK_CARDS: tuple[str, ...] = ARMAMENTS + PROJECTILES + OTHER_CARDS
TOWERS: tuple[str, ...] = ("tower/1", "tower/2", "tower/3", "tower/4")
ENTRANCE = "entrance"
CHAMBER = "chamber"
CASTLE_CARDS: tuple[str, ...] = TOWERS + (ENTRANCE, CHAMBER)
_HALVES = {"none": 0, "half": 1, "full": 2}


class CardDataError(ValueError):
    """cards.yaml is not usable; the message names the file and what is wrong."""


class _Strict(Schema, frozen=True):
    """A part of the file: unknown keys refused (a misspelt key must not fall back silently)."""


class _BlueIcons(_Strict):
    standing: Blue
    destroyed: Blue


class _CastleCard(_Strict):
    status: Status
    red: list[Icon]
    blue: _BlueIcons


class _Projectile(_Strict):
    status: Status
    armament: Literal["catapult", "crossbow", "battering-ram"]
    icon: Icon
    hits: Annotated[int, Meta(ge=1, le=2)]


class _DeckCard(_Strict):
    status: Status
    copies: Annotated[int, Meta(ge=1, le=20)]


class _MinimumDraw(_Strict):
    status: Status
    cards: Annotated[int, Meta(ge=0, le=5)]


class _Draw(_Strict):
    minimum: _MinimumDraw


def _spelling_fault(value: dict[str, str]) -> str | None:
    """What is wrong with a card's names, if anything: English (the fallback) must be there,
    and none empty."""
    if not value.get("en"):
        return "a name needs its English spelling, en: (the fallback)"
    empty = [lang for lang, text in value.items() if not text.strip()]
    return f"the {empty[0]} name is empty" if empty else None


class _CardsFile(_Strict):
    castle: dict[str, _CastleCard]
    draw: _Draw
    projectiles: dict[str, _Projectile]
    deck: dict[str, _DeckCard]
    names: dict[str, dict[str, str]]

    def __post_init__(self) -> None:
        for card, value in self.names.items():
            if (fault := _spelling_fault(value)) is not None:
                raise Invalid(("names", card), fault)


@dataclass(frozen=True)
class Projectile:
    armament: str
    icon: str
    hits: int


@dataclass(frozen=True)
class Cards:
    """The validated content. Castle parts are named as in piece ids: `tower/1`, `entrance`."""

    red: dict[str, frozenset[str]]
    blue_halves: dict[str, tuple[int, int]]  # part -> (halves when standing, when destroyed)
    min_draw: int  # the fewest cards drawn a turn (draw.minimum: 0, a maker's option)
    projectiles: dict[str, Projectile]
    copies: dict[str, int]
    status: dict[str, str]
    names: dict[str, Named]  # castle part or card kind -> its name in each language

    def name(self, part: str) -> Named:
        """What a castle part (`tower/1`) or card kind (`stone`) is called at the table."""
        return self.names[part]

    def deck_cards(self, deck: str) -> list[str]:
        """Every piece id of one player's draw deck, in a stable order."""
        return [
            f"oversiege/{deck}/{card}/{n}"
            for card in DECK_CARDS
            for n in range(1, self.copies[card] + 1)
        ]

    @property
    def deck_size(self) -> int:
        return sum(self.copies.values())


def _exact(section: str, got: dict[str, object], wanted: tuple[str, ...]) -> None:
    missing = [k for k in wanted if k not in got]
    extra = [k for k in got if k not in wanted]
    if missing:
        raise CardDataError(f"{section}: missing {', '.join(missing)}")
    if extra:
        raise CardDataError(
            f"{section}: unknown entry {extra[0]!r} (expected {', '.join(wanted)})"
        )


def parse_cards(text: str, source: str = "cards.yaml") -> Cards:
    """Validate the file's text; raises CardDataError naming `source` and the problem."""
    try:
        data = parse_data(text, source, _CardsFile)
    except SourceError as exc:
        raise CardDataError(str(exc)) from None
    try:
        _exact("castle", data.castle, CASTLE_CARDS)
        _exact("projectiles", data.projectiles, PROJECTILES)
        _exact("deck", data.deck, DECK_CARDS)
        _exact("names", data.names, CASTLE_CARDS + DECK_CARDS)
        if data.castle[ENTRANCE].red != ["ram"]:
            raise CardDataError("castle.entrance.red: the entrance falls only to a ram, [ram]")
        if data.castle[CHAMBER].red:
            raise CardDataError("castle.chamber.red: the chamber is opened by the key, use []")
    except CardDataError as exc:
        raise CardDataError(f"{source}: {exc}") from None
    return Cards(
        red={part: frozenset(card.red) for part, card in data.castle.items()},
        blue_halves={
            part: (_HALVES[card.blue.standing], _HALVES[card.blue.destroyed])
            for part, card in data.castle.items()
        },
        min_draw=data.draw.minimum.cards,
        projectiles={
            name: Projectile(p.armament, p.icon, p.hits) for name, p in data.projectiles.items()
        },
        copies={name: card.copies for name, card in data.deck.items()},
        names={card: Named.of(value, source) for card, value in data.names.items()},
        status={
            **{f"castle.{k}": v.status for k, v in data.castle.items()},
            "draw.minimum": data.draw.minimum.status,
            **{f"projectiles.{k}": v.status for k, v in data.projectiles.items()},
            **{f"deck.{k}": v.status for k, v in data.deck.items()},
        },
    )


@cache
def load_cards() -> Cards:
    """The packaged cards.yaml (read once: the engine is pure after import)."""
    text = resources.files(__package__).joinpath("cards.yaml").read_text(encoding="utf-8")
    return parse_cards(text, "tabletap/games/oversiege/rules/cards.yaml")
