"""The game state: what the daemon can know about an Oversiege table.

The daemon never sees a shuffled deck, so it does not know which cards are in a hand. It knows
what is on the table (castle sides, armaments, blockades, each discard pile, since every card
that leaves a hand is tapped) and it counts: cards in each hand and each draw pile. A card that is
neither in play nor in the discard pile is "in hand or deck"; that is all a tapped card has to be.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from tabletap.controller.rules.oversiege.data import CASTLE_CARDS, CHAMBER, Cards

HAND_KEPT = 2  # "You must ALWAYS end your turn with two cards in your hand."


class Side(BaseModel):
    """One player's castle, play area and card counts."""

    model_config = ConfigDict(extra="forbid")

    destroyed: list[str] = Field(default_factory=list)  # castle parts on their destroyed side
    chamber_open: bool = False  # the crown was captured: this player is out
    armaments: list[str] = Field(default_factory=list)  # piece ids, at most two
    blockade: str | None = None
    hand: int = Field(ge=0)
    deck: int = Field(ge=0)
    discard: list[str] = Field(default_factory=list)  # piece ids, in the order discarded

    def standing(self, part: str) -> bool:
        return part not in self.destroyed

    def clone(self) -> Side:
        return self.model_copy(update={
            "destroyed": list(self.destroyed),
            "armaments": list(self.armaments),
            "discard": list(self.discard),
        })

    def in_play(self) -> list[str]:
        return self.armaments + ([self.blockade] if self.blockade else [])


class OversiegeState(BaseModel):
    model_config = ConfigDict(extra="forbid")

    players: list[str]  # deck names, seats in turn order
    teams: list[list[str]]  # one team per player in free-for-all
    bridge: bool
    first_crown_wins: bool = False  # option: the first chamber opened ends a group game
    seed: int
    turn: int  # index into players
    turn_number: int = 1
    drawn: int = 0  # cards the current player drew at the start of this turn
    sides: dict[str, Side]
    winners: list[str] = Field(default_factory=list)

    def clone(self) -> OversiegeState:
        """A copy sharing nothing mutable (a deep copy, done by hand: it is on the hot path
        of legal_actions, where copy.deepcopy dominated)."""
        return self.model_copy(update={
            "players": list(self.players),
            "teams": [list(t) for t in self.teams],
            "sides": {name: side.clone() for name, side in self.sides.items()},
            "winners": list(self.winners),
        })

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
        return not self.sides[player].chamber_open


def draw_count(side: Side, cards: Cards) -> int:
    """Cards drawn a turn: full blue icons count one, half icons a half, rounded down (TURNS),
    and never fewer than the data's minimum: 0 unless a maker's copy prints blue icons on the
    destroyed sides (cards.yaml `draw`)."""
    halves = 0
    for part in CASTLE_CARDS:
        up = not side.chamber_open if part == CHAMBER else side.standing(part)
        halves += cards.blue_halves[part][0 if up else 1]
    return max(halves // 2, cards.min_draw)
