"""The treasure tokens (treasures.yaml): loaded once, validated, then read by the engine.

The rulebook gives the counts (five gem types × 3 and a Joker) but not the crowns and skulls on
each token, so those live in a data file a maker corrects for their copy; every value there is
marked unverified. A broken file fails loudly at start-up, never half-loads.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Annotated, Literal

from tabletap.controller.language.said import Named
from tabletap.controller.loading.schema import Invalid, Meta, Schema
from tabletap.controller.loading.yamldoc import SourceError, parse_data

GEM_TYPES: tuple[str, ...] = ("ruby", "sapphire", "emerald", "topaz", "amethyst")
JOKER = "joker"
SKULL = "skull"
QUARTERS: tuple[str, ...] = ("nw", "ne", "se", "sw")  # clockwise from the top-left

Quarter = int | Literal["skull"]
Status = Literal["confirmed", "likely", "guess"]


class TreasureDataError(ValueError):
    """treasures.yaml is not usable; the message says what is wrong."""


class _Strict(Schema, frozen=True):
    """The file's shapes: unknown keys refused (Schema), and read-only once loaded."""


class _Quarters(_Strict):
    nw: Quarter
    ne: Quarter
    se: Quarter
    sw: Quarter


class _Token(_Strict):
    # the gem's name in each language (`{en: ruby, de: Rubin}`), English the fallback
    name: dict[str, str]
    status: Status
    count: Annotated[int, Meta(ge=1)]
    quarters: _Quarters

    def __post_init__(self) -> None:
        if not self.name.get("en"):
            raise Invalid("name", "a name needs its English spelling (en: ...), the fallback")


class _TreasureFile(_Strict):
    unverified: bool
    gems: dict[Literal["ruby", "sapphire", "emerald", "topaz", "amethyst"], _Token]
    joker: _Token


@dataclass(frozen=True)
class TokenKind:
    """A gem type (or the Joker) and its quarters in the data file's orientation."""

    name: str
    count: int
    quarters: tuple[Quarter, Quarter, Quarter, Quarter]
    named: Named  # how it is said, in each language


def parse_treasures(text: str, source: str = "treasures.yaml") -> dict[str, TokenKind]:
    try:
        data = parse_data(text, source, _TreasureFile)
    except SourceError as exc:
        raise TreasureDataError(str(exc)) from None
    if set(data.gems) != set(GEM_TYPES):
        raise TreasureDataError(f"{source}: gems needs exactly {', '.join(GEM_TYPES)}")
    # Piece ids are kingdomino/treasure/<gem>/<1-3> and kingdomino/treasure/joker
    # (docs/CONTRACTS.md, "Pieces").
    if any(t.count > 3 for t in data.gems.values()) or data.joker.count != 1:
        raise TreasureDataError(f"{source}: at most 3 tokens of a gem type and exactly 1 joker")
    kinds: dict[str, TokenKind] = {}
    for name, token in [*data.gems.items(), (JOKER, data.joker)]:
        quarters = tuple(getattr(token.quarters, q) for q in QUARTERS)
        if any(isinstance(v, int) and v < 0 for v in quarters):
            raise TreasureDataError(f"{source}: {name}: a quarter cannot carry negative crowns")
        kinds[name] = TokenKind(name, token.count, quarters,  # type: ignore[arg-type]
                                Named.of(token.name, source))
    return kinds


@cache
def token_kinds() -> dict[str, TokenKind]:
    text = resources.files(__package__).joinpath("treasures.yaml").read_text(encoding="utf-8")
    return parse_treasures(text)


@cache
def all_tokens() -> tuple[str, ...]:
    """Every token's short id (`ruby/1`, ..., `joker`): the piece id without its prefix."""
    out: list[str] = []
    for name, kind in token_kinds().items():
        if name == JOKER:
            out.append(JOKER)
        else:
            out.extend(f"{name}/{n}" for n in range(1, kind.count + 1))
    return tuple(out)


def token_kind(token: str) -> str:
    """`ruby/2` -> `ruby`; `joker` -> `joker`."""
    return token.split("/", 1)[0]


def oriented(token: str, turns: int) -> tuple[Quarter, Quarter, Quarter, Quarter]:
    """The token's quarters (nw, ne, se, sw) after `turns` quarter turns clockwise: one turn
    moves what was top-left to the top-right."""
    base = token_kinds()[token_kind(token)].quarters
    return tuple(base[(i - turns) % 4] for i in range(4))  # type: ignore[return-value]


def gem_types_for_victory(kinds: list[str]) -> bool:
    """Five different gem types, the Joker standing in for any one missing type."""
    real = {k for k in kinds if k != JOKER}
    return len(real) + (1 if JOKER in kinds else 0) >= len(GEM_TYPES)
