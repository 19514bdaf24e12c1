"""The Magic Keys game state: an immutable value the engine replaces, never edits.

A frozen pydantic model, so that `state_from_json` checks a journal's or a test's JSON for us
and `model_copy(update=...)` builds the next state while the old one stays as it was (a rejected
action must leave the family's game exactly where it was).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

DiceMode = Literal["physical", "digital"]
DICE_COUNT = 3  # Components: "3 dice"

FOREST = "forest"
TOWER = "tower"
POND = "pond"
HELD = "held:"  # followed by the player's name


class MagicKeysState(BaseModel):
    """Where every key is, who has how many gems, whose turn it is, and (digital) the dice.

    `places` maps each coloured key to forest | tower | held:<player> | pond. The golden key is
    not listed: it always goes back to its space. `pawn`, `dice`, `showing`, `rolled` and
    `moved` only mean something with digital dice (the engine cannot see real dice or the
    pawn); `rolls` counts digital rolls and is the chance counter, so a replayed roll lands in
    the same place.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: tuple[str, ...] = Field(min_length=2, max_length=4)
    seed: int
    dice_mode: DiceMode
    fake_keys: tuple[str, ...]
    places: dict[str, str]
    gems: dict[str, int]
    chest: int = Field(ge=0)
    current: int = Field(ge=0)
    winner: str | None = None
    pawn: int | None = None
    dice: int = Field(DICE_COUNT, ge=0, le=DICE_COUNT)
    showing: tuple[int, ...] = ()
    rolled: bool = False
    moved: bool = False  # the pawn moved by a die this turn: only then may a key be pulled
    rolls: int = Field(0, ge=0)

    @model_validator(mode="after")
    def _consistent(self) -> MagicKeysState:
        if len(set(self.players)) != len(self.players):
            raise ValueError("player names must differ")
        if self.current >= len(self.players):
            raise ValueError("current player index out of range")
        if list(self.gems) != list(self.players):
            raise ValueError("gems must list every player, in seat order")
        if self.winner is not None and self.winner not in self.players:
            raise ValueError(f"winner {self.winner!r} is not a player")
        for key, place in self.places.items():
            if place not in (FOREST, TOWER, POND) and not (
                place.startswith(HELD) and place[len(HELD):] in self.players
            ):
                raise ValueError(f"key {key} has an impossible place {place!r}")
        if not set(self.fake_keys) <= set(self.places):
            raise ValueError("every fake key must be one of the coloured keys")
        if len(self.showing) > self.dice or any(not 1 <= n <= 4 for n in self.showing):
            raise ValueError("the numbers showing must be 1-4, one per die still in hand")
        if (self.dice_mode == "digital") != (self.pawn is not None):
            raise ValueError("the pawn is tracked exactly when the dice are digital")
        return self

    @property
    def player(self) -> str:
        """Whose turn it is (the last mover's name once the game is over)."""
        return self.players[self.current]

    def held_by(self, player: str) -> list[str]:
        """The revealed fake keys lying in front of `player`, in key order."""
        return [k for k, p in self.places.items() if p == HELD + player]
