"""The game state: what the daemon can know about an Oversiege table.

The daemon never sees a shuffled deck, so it does not know which cards are in a hand. It knows
what is on the table (castle sides, armaments, blockades, each discard pile, since every card
that leaves a hand is tapped) and it counts: cards in each hand and each draw pile. A card that is
neither in play nor in the discard pile is "in hand or deck"; that is all a tapped card has to be.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from tabletap.controller.loading.schema import Meta, Schema, check
from tabletap.controller.rules.sharing import CopyOnRead, peek, settle
from tabletap.games.oversiege.rules.data import CASTLE_CARDS, CHAMBER, Cards

HAND_KEPT = 2  # "You must ALWAYS end your turn with two cards in your hand."


@dataclass(slots=True)
class Side:
    """One player's castle, play area and card counts.

    A plain slotted dataclass, not a Schema: the engine copies sides on every play it judges,
    and states share the sides a play did not touch (see OversiegeState.fork), so a copy must
    cost next to nothing (`clone` copies the three lists by hand). JSON is checked by _SideJSON
    below instead.
    """

    hand: int
    deck: int
    destroyed: list[str] = field(default_factory=list)  # castle parts on their destroyed side
    chamber_open: bool = False  # the crown was captured: this player is out
    armaments: list[str] = field(default_factory=list)  # piece ids, at most two
    blockade: str | None = None
    discard: list[str] = field(default_factory=list)  # piece ids, in the order discarded

    def standing(self, part: str) -> bool:
        return part not in self.destroyed

    def clone(self) -> Side:
        return Side(self.hand, self.deck, self.destroyed[:], self.chamber_open,
                    self.armaments[:], self.blockade, self.discard[:])

    def in_play(self) -> list[str]:
        return self.armaments + ([self.blockade] if self.blockade else [])

    def to_json(self) -> dict[str, Any]:
        return {"destroyed": list(self.destroyed), "chamber_open": self.chamber_open,
                "armaments": list(self.armaments), "blockade": self.blockade,
                "hand": self.hand, "deck": self.deck, "discard": list(self.discard)}


@dataclass(slots=True, kw_only=True)
class OversiegeState:
    players: list[str]  # deck names, seats in turn order
    teams: list[list[str]]  # one team per player in free-for-all
    bridge: bool
    first_crown_wins: bool = False  # option: the first chamber opened ends a group game
    seed: int
    turn: int  # index into players
    turn_number: int = 1
    drawn: int = 0  # cards the current player drew at the start of this turn
    sides: dict[str, Side]
    winners: list[str] = field(default_factory=list)

    def clone(self) -> OversiegeState:
        """A copy sharing nothing mutable."""
        return OversiegeState(
            players=list(self.players), teams=[list(t) for t in self.teams], bridge=self.bridge,
            first_crown_wins=self.first_crown_wins, seed=self.seed, turn=self.turn,
            turn_number=self.turn_number, drawn=self.drawn,
            sides={name: side.clone() for name, side in self.sides.items()},
            winners=list(self.winners),
        )

    def fork(self) -> OversiegeState:
        """A copy to work a play out on: each side is copied only when the play looks it up,
        the others stay shared with this state (python-chess's way: states share what a move
        did not change). Call `settled()` on the result before keeping it."""
        return OversiegeState(
            players=self.players, teams=self.teams, bridge=self.bridge,
            first_crown_wins=self.first_crown_wins, seed=self.seed, turn=self.turn,
            turn_number=self.turn_number, drawn=self.drawn,
            sides=CopyOnRead(self.sides, Side.clone),  # type: ignore[arg-type]
            winners=list(self.winners),
        )

    def settled(self) -> OversiegeState:
        self.sides = settle(self.sides)
        return self

    @property
    def current(self) -> str:
        return self.players[self.turn]

    @property
    def over(self) -> bool:
        return bool(self.winners)

    def team_of(self, player: str) -> list[str]:
        return next(team for team in self.teams if player in team)

    def is_opponent(self, player: str, other: str) -> bool:
        return other not in self.team_of(player)

    def in_game(self, player: str) -> bool:
        return not peek(self.sides, player).chamber_open

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players), "teams": [list(t) for t in self.teams],
            "bridge": self.bridge, "first_crown_wins": self.first_crown_wins,
            "seed": self.seed, "turn": self.turn, "turn_number": self.turn_number,
            "drawn": self.drawn,
            "sides": {name: side.to_json() for name, side in self.sides.items()},
            "winners": list(self.winners),
        }

    @classmethod
    def from_json(cls, data: Any) -> OversiegeState:
        """Raises SchemaError (loading.schema) for a state that is not one (a damaged
        journal)."""
        checked = check(data, _StateJSON)
        return cls(
            players=list(checked.players), teams=[list(t) for t in checked.teams],
            bridge=checked.bridge, first_crown_wins=checked.first_crown_wins,
            seed=checked.seed, turn=checked.turn, turn_number=checked.turn_number,
            drawn=checked.drawn,
            sides={name: Side(side.hand, side.deck, list(side.destroyed), side.chamber_open,
                              list(side.armaments), side.blockade, list(side.discard))
                   for name, side in checked.sides.items()},
            winners=list(checked.winners),
        )


class _SideJSON(Schema):
    """The JSON form of a side, checked field by field."""

    destroyed: list[str] = []
    chamber_open: bool = False
    armaments: list[str] = []
    blockade: str | None = None
    hand: Annotated[int, Meta(ge=0)]
    deck: Annotated[int, Meta(ge=0)]
    discard: list[str] = []


class _StateJSON(Schema):
    """The JSON form of a whole state (the journal's), unknown keys refused."""

    players: list[str]
    teams: list[list[str]]
    bridge: bool
    first_crown_wins: bool = False
    seed: int
    turn: int
    turn_number: int = 1
    drawn: int = 0
    sides: dict[str, _SideJSON]
    winners: list[str] = []


def draw_count(side: Side, cards: Cards) -> int:
    """Cards drawn a turn: full blue icons count one, half icons a half, rounded down (TURNS),
    and never fewer than the data's minimum: 0 unless a maker's copy prints blue icons on the
    destroyed sides (cards.yaml `draw`)."""
    halves = 0
    for part in CASTLE_CARDS:
        up = not side.chamber_open if part == CHAMBER else side.standing(part)
        halves += cards.blue_halves[part][0 if up else 1]
    return max(halves // 2, cards.min_draw)
