"""Memory's game state and its JSON form.

The table never knows where a card lies, only what was tapped, so the state is what everyone
at the table saw: whose turn it is, the card face up this turn, the pairs each player keeps,
and the cards turned over at least once and still on the table (`seen`: no secret, everyone
saw them, but what a perfect memory would hold; self-play's greedy player reads it).

A frozen dataclass of tuples: the engine builds a new state for every card, so a refused
card leaves the caller's state exactly as it was, and a state is a value (equal, hashable).
Its JSON form is checked by a Schema (controller.loading.schema, msgspec) only when a journal
or state file is read, never on the engine's path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from tabletap.controller.loading.schema import Meta, Schema, SchemaError, check, loc_text
from tabletap.controller.rules.base import JSON


@dataclass(frozen=True, slots=True)
class MemoryState:
    players: tuple[str, ...]  # seats in turn order
    deck: str  # the `deck` option: which deck file's pictures are in play
    current: int = 0  # index into players of whose turn it is
    turned: str | None = None  # the card face up this turn, `<picture>/<a|b>`
    found: tuple[tuple[str, str], ...] = ()  # (picture, player), in the order found
    seen: frozenset[str] = field(default_factory=frozenset)

    @property
    def player(self) -> str:
        return self.players[self.current]

    def taken(self) -> dict[str, str]:
        """Picture -> the player who keeps its pair."""
        return dict(self.found)

    def pairs(self) -> dict[str, int]:
        """How many pairs each player keeps: the score."""
        out = dict.fromkeys(self.players, 0)
        for _, player in self.found:
            out[player] += 1
        return out


class _StateJSON(Schema):
    """The saved state's shape, strict (a "0" is no index): every key required, none more."""

    players: Annotated[list[str], Meta(min_length=1)]
    deck: str
    current: Annotated[int, Meta(ge=0)]
    turned: str | None
    found: list[list[str]]
    seen: list[str]


def state_to_json(state: MemoryState, cards: tuple[str, ...]) -> JSON:
    """The state as plain JSON, `seen` in the deck's order (`cards`) so equal states write
    equal text."""
    return {
        "players": list(state.players),
        "deck": state.deck,
        "current": state.current,
        "turned": state.turned,
        "found": [list(pair) for pair in state.found],
        "seen": [c for c in cards if c in state.seen],
    }


def state_from_json(data: JSON) -> MemoryState:
    """The shape only; the engine checks it against the deck. ValueError naming the first
    problem (a damaged journal or state file)."""
    try:
        raw = check(data, _StateJSON)
    except SchemaError as exc:
        where = loc_text(exc.loc) or "state"
        raise ValueError(f"not a Memory state: {where}: {exc.message}") from None
    if any(len(pair) != 2 for pair in raw.found):
        raise ValueError("not a Memory state: found: each entry is [picture, player]")
    return MemoryState(tuple(raw.players), raw.deck, raw.current, raw.turned,
                       tuple((p, who) for p, who in raw.found), frozenset(raw.seen))
