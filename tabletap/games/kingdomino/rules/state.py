"""Kingdomino's game state and its JSON form.

The state is a plain dataclass the engine forks before changing (`KingdominoState.fork`: the
small lists copied, each kingdom copied only when the action looks it up, the others shared with
the state before, as python-chess's states share what a move did not change), so a rejected
action leaves the caller's state exactly as it was. Everything in it is JSON-friendly;
positions become [row, col] lists and squares [terrain, crowns].
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabletap.controller.rules.base import JSON, Rejection
from tabletap.games.kingdomino.rules.board import SQUARE, Board
from tabletap.games.kingdomino.rules.dominoes import Domino, Square
from tabletap.games.kingdomino.rules.kingdom import (
    FACING_NAMES,
    Pos,
    new_treasure_corners,
    placement_spots,
)
from tabletap.games.kingdomino.rules.regions import Regions
from tabletap.games.kingdomino.rules.scoring import PlacedGem

COLOURS: tuple[str, ...] = ("pink", "yellow", "green", "blue")  # the base game's four kings
STEPS = ("claim", "place", "treasure", "over")


@dataclass
class Kingdom:
    cells: dict[Pos, Square]
    gems: list[PlacedGem] = field(default_factory=list)
    placed: list[int] = field(default_factory=list)  # dominoes in the kingdom, in play order
    discards: list[int] = field(default_factory=list)
    # its territories, kept up to date by `place` (read afresh when the cells were changed
    # some other way): what makes `points` a short sum
    regions: Regions | None = field(default=None, compare=False, repr=False)
    # its squares as bits, kept up to date by `place` likewise (board.Board): what makes legal
    # placements a few integer operations
    board: Board | None = field(default=None, compare=False, repr=False)

    def copy(self) -> Kingdom:
        """A copy to change (squares and gems are frozen, so they are shared)."""
        new = object.__new__(Kingdom)  # (not through __init__: a place copies one a move)
        cells = dict(self.cells)
        board = self.board
        new.__dict__.update(
            cells=cells, gems=list(self.gems), placed=list(self.placed),
            discards=list(self.discards),
            regions=self.regions.copy() if self._regions_current() else None,
            board=board.copy_for(cells) if board is not None and board.reads(self.cells)
            else None)
        return new

    def _regions_current(self) -> bool:
        return self.regions is not None and self.regions.size == len(self.cells)

    def place(self, pos: Pos, square: Square) -> None:
        """Put one square into the kingdom, and into its territories."""
        regions = self.territories()
        board = self.bits()
        self.cells[pos] = square
        regions.add(pos, square)
        if board is not None and not board.add(pos, square):
            self.board = None

    def bits(self) -> Board | None:
        """The kingdom's board, read afresh when the cells were changed some other way; None
        for a kingdom with squares beyond the board (only ever built by hand)."""
        board = self.board
        if board is None or not board.reads(self.cells):
            board = self.board = Board.of(self.cells)
        return board

    def placement_codes(self, size: int, domino: Domino) -> list[int] | None:
        """Legal placements as board codes (Board.codes), or None: ask placement_spots."""
        board = self.bits()
        if board is None:
            return None
        return board.codes(size, domino.left.terrain, domino.right.terrain)

    def treasure_corners(self, placed: tuple[Pos, Pos]) -> list[Pos]:
        """kingdom.new_treasure_corners, judging only the corners the board finds full."""
        board = self.bits()
        return new_treasure_corners(self.cells, placed,
                                    None if board is None else board.full_corners)

    def territories(self) -> Regions:
        if not self._regions_current():
            self.regions = Regions.of(self.cells)
        return self.regions  # type: ignore[return-value]

    def points(self) -> int:
        """The score before variant bonuses (scoring.score_kingdom's, from the territories)."""
        return self.territories().points(self.gems)


@dataclass(frozen=True)
class Slot:
    """A domino laid out in a line, and the king standing on it (a king id like `pink/1`).
    Frozen, so states share their slots (a claim puts a new slot in the fork's line)."""

    domino: int
    king: str | None = None


@dataclass
class KingdominoState:
    players: list[str]
    seed: int
    counter: int  # chance draws made so far (controller.rules.base.chance)
    options: dict[str, bool]
    size: int  # 5, or 7 in the Mighty Duel
    colours: dict[str, str]  # player -> colour
    kings: dict[str, str]  # king id -> owner
    deck: list[int]  # dominoes still in the box, in the order they will come out (hidden)
    line: list[Slot]  # the line whose dominoes are placed this round
    next_line: list[Slot]  # the new line, claimed this round; empty in the last round
    order: list[str]  # kings still to act this round; order[0] acts now
    step: str  # what order[0]'s owner does now: claim, place, treasure; or over
    round: int
    kingdoms: dict[str, Kingdom]
    face_up: list[str] = field(default_factory=list)  # gem tokens face up beside the box
    bag: list[str] = field(default_factory=list)  # tokens still chest side up
    reveals: int = 0  # tokens the table must turn gem side up (and tap) before play goes on
    treasures: list[Pos] = field(default_factory=list)  # corners awaiting a gem
    unconfirmed: list[int] = field(default_factory=list)  # dominoes of the new line not tapped
    gem_winner: str | None = None  # five different gem types: the immediate victory
    game: int = 1  # Dynasty: which of the three games
    results: list[dict[str, list[int]]] = field(default_factory=list)  # Dynasty: per game,
    # player -> [points, largest territory, crowns]

    def fork(self) -> KingdominoState:
        """A copy to work an action out on: the lists an action changes copied (they are
        short; their slots are frozen and shared), the kingdoms shared until the action
        changes one (`own_kingdom`). Built from this state's attributes rather than through
        __init__ (the forks are most of what an action costs); players, options, colours and
        kings are never changed, so they are shared."""
        fork = object.__new__(KingdominoState)
        attrs = fork.__dict__
        attrs.update(self.__dict__)
        attrs["deck"], attrs["line"] = list(self.deck), list(self.line)
        attrs["next_line"], attrs["order"] = list(self.next_line), list(self.order)
        attrs["face_up"], attrs["bag"] = list(self.face_up), list(self.bag)
        attrs["treasures"], attrs["unconfirmed"] = list(self.treasures), list(self.unconfirmed)
        if self.results:
            attrs["results"] = [{p: list(v) for p, v in r.items()} for r in self.results]
        else:
            attrs["results"] = []
        return fork

    def own_kingdom(self, player: str) -> Kingdom:
        """`player`'s kingdom, to change on this fork: copied (and the mapping with it) so the
        state it was forked from keeps the kingdom it had. An action changes one kingdom."""
        kingdoms = dict(self.kingdoms)
        k = kingdoms[player] = kingdoms[player].copy()
        self.kingdoms = kingdoms
        return k

    def spots(self, player: str, domino: Domino) -> list[tuple[int, int, str]]:
        """kingdom.placement_spots for `player`'s kingdom, from its board when it has one."""
        k = self.kingdoms[player]
        codes = k.placement_codes(self.size, domino)
        if codes is None:
            return placement_spots(k.cells, self.size, domino)
        return [(*SQUARE[code >> 2], FACING_NAMES[code & 3]) for code in codes]


def _pos(value: Any) -> Pos:
    return (int(value[0]), int(value[1]))


def kingdom_to_json(k: Kingdom) -> JSON:
    return {
        "cells": [[r, c, sq.terrain, sq.crowns] for (r, c), sq in sorted(k.cells.items())],
        "gems": [
            {
                "kind": g.kind,
                "token": g.token,
                "corner": list(g.corner),
                "quarters": list(g.quarters),
            }
            for g in k.gems
        ],
        "placed": list(k.placed),
        "discards": list(k.discards),
    }


def kingdom_from_json(data: JSON) -> Kingdom:
    return Kingdom(
        cells={(int(r), int(c)): Square(str(t), int(n)) for r, c, t, n in data["cells"]},
        gems=[
            PlacedGem(g["kind"], _pos(g["corner"]), tuple(g["quarters"]), g["token"])
            for g in data["gems"]
        ],
        placed=[int(n) for n in data["placed"]],
        discards=[int(n) for n in data["discards"]],
    )


def state_to_json(s: KingdominoState) -> JSON:
    return {
        "game": "kingdomino",
        "players": list(s.players),
        "seed": s.seed,
        "counter": s.counter,
        "options": dict(s.options),
        "size": s.size,
        "colours": dict(s.colours),
        "kings": dict(s.kings),
        "deck": list(s.deck),
        "line": [[slot.domino, slot.king] for slot in s.line],
        "next_line": [[slot.domino, slot.king] for slot in s.next_line],
        "order": list(s.order),
        "step": s.step,
        "round": s.round,
        "kingdoms": {p: kingdom_to_json(k) for p, k in s.kingdoms.items()},
        "face_up": list(s.face_up),
        "bag": list(s.bag),
        "reveals": s.reveals,
        "treasures": [list(c) for c in s.treasures],
        "unconfirmed": list(s.unconfirmed),
        "gem_winner": s.gem_winner,
        "dynasty_game": s.game,
        "results": [dict(r) for r in s.results],
    }


def state_from_json(data: JSON) -> KingdominoState:
    try:
        if data.get("game") != "kingdomino":
            raise ValueError("not a Kingdomino state")
        state = KingdominoState(
            players=list(data["players"]),
            seed=int(data["seed"]),
            counter=int(data["counter"]),
            options={k: bool(v) for k, v in data["options"].items()},
            size=int(data["size"]),
            colours=dict(data["colours"]),
            kings=dict(data["kings"]),
            deck=[int(n) for n in data["deck"]],
            line=[Slot(int(d), k) for d, k in data["line"]],
            next_line=[Slot(int(d), k) for d, k in data["next_line"]],
            order=list(data["order"]),
            step=str(data["step"]),
            round=int(data["round"]),
            kingdoms={p: kingdom_from_json(k) for p, k in data["kingdoms"].items()},
            face_up=list(data["face_up"]),
            bag=list(data["bag"]),
            reveals=int(data["reveals"]),
            treasures=[_pos(c) for c in data["treasures"]],
            unconfirmed=[int(n) for n in data["unconfirmed"]],
            gem_winner=data["gem_winner"],
            game=int(data["dynasty_game"]),
            results=[{p: list(v) for p, v in r.items()} for r in data["results"]],
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise Rejection("bad-state", f"This is not a Kingdomino game state ({exc}).") from None
    if state.step not in STEPS:
        raise Rejection("bad-state", f"Unknown step {state.step!r} in a Kingdomino state.")
    return state
