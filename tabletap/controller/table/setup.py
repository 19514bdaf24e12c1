"""Choosing a game at the table: game cards, seats, and the gestures that undo or abandon.

A family has no screen and no shell, only the game cards (`tabletap:game/<game>` tags), the
pieces and two buttons. So the table itself runs the set-up:

- Tapping a game card when no game is under way opens a set-up for that game.
- Players join by tapping a piece that is theirs; the game's seat rule (its spec's
  `seating.seat_of`, controller.games.spec) says whose it is. Seats follow the join order, and the
  lights count them in the last player's colour.
- A game whose players have no personal pieces (`seating.by_button`) seats the next player
  ("player 1", "player 2", ...) at each short press of `roll`.
- A long press of `end-turn` starts the game with the config's options for it.
- Abandoning needs three deliberate steps no child makes by accident: tap a game card while a
  game is under way, hold `end-turn`, then tap a game card again, each within ABANDON_WINDOW
  seconds. The last card tapped opens the set-up of its game, so "abandon, then start another"
  is one gesture.
- Taking back a slip: tap a game card while a game is under way, then press `roll`.
Nothing of a set-up is journaled until the game starts: a restart simply forgets it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgspec
from msgspec import Struct, field

from tabletap.controller.games import registry
from tabletap.controller.games.base import ButtonPressed, PieceLifted, PiecePlaced, TableInput
from tabletap.controller.language.messages import msg, msg_n
from tabletap.controller.language.said import Said
from tabletap.controller.rules.base import Rejection
from tabletap.controller.spoken.words import piece_said

GAME_CARD = re.compile(r"^game/([a-z0-9]+(?:-[a-z0-9]+)*)$")
ABANDON_WINDOW = 10.0  # seconds between the steps of the abandon and undo gestures
# After a game card is tapped in play, a short press of `roll` takes back the last action. The
# buttons alone are all spoken for (games hold `roll` to move by a die, or `end-turn` to
# discard), and a game card first is a step no child makes by accident.
UNDO_BUTTON = "roll"
START_BUTTON = "end-turn"  # held: start the game
JOIN_BUTTON = "roll"  # pressed: seat the next player, in games without personal pieces

SeatRule = Callable[[str], str | None]


def game_card(piece: str) -> str | None:
    m = GAME_CARD.match(piece)
    return m.group(1) if m else None


def max_players(game: str, options: dict[str, Any]) -> int | None:
    """The most players `game` seats under `options`, as its spec declares it; None for a
    game tabletap does not know."""
    spec = registry.find(game)
    return None if spec is None else spec.players.most_for(options)


def seat_rule(game: str) -> SeatRule | None:
    """Which player a tapped piece seats in `game`; Rejection(`unknown-game`) if unknown."""
    return registry.game(game).seating.seat_of


def how_to_join(game: str) -> Said:
    """How players join `game`, a sentence of the game's own catalog (its spec's seating)."""
    spec = registry.find(game)
    if spec is not None:
        return Said(spec.name, spec.seating.how)
    # TRANSLATORS: how players join a game the table knows no seating sentence for
    return msg("each player taps one of their pieces")


def title(game: str) -> Said:
    return registry.title_said(game)


class Table(Struct, frozen=True):
    """What the set-up needs to know of the table to decide: whether a game is under way, the
    game it is (or last was), whether a finished game is still on the table, and the options a
    game would start with."""

    playing: bool
    game: str | None
    finished: bool
    options_for: Callable[[str], dict[str, Any]]


# -- the decisions the session carries out -----------------------------------------------------


class Wait(Struct, frozen=True):
    """Say `text` and show `lights` (None: leave them); with `seats`, count them first (and
    the session says the colour of the player who sat last)."""

    text: str | Said
    lights: str | None = "pending"
    seats: tuple[str, ...] | None = None


class Reject(Struct, frozen=True):
    rejection: Rejection


class Quiet(Struct, frozen=True):
    """The input means nothing now."""


class Start(Struct, frozen=True):
    """Start `game` for `players`; the set-up is over if it starts (`TableSetup.started`)."""

    game: str
    players: tuple[str, ...]


class Undo(Struct, frozen=True):
    """Take back the last move (or say there is nothing to take back)."""


class Abandon(Struct, frozen=True):
    """Abandon the game under way, then carry out `then` (the set-up the last card opens)."""

    then: Wait | Reject


class GoOn(Struct, frozen=True):
    """The family changed their mind: say so, and let the game have the input."""

    # TRANSLATORS: said when the family started the undo or abandon gesture and then did
    # something else: the game continues
    text: Said = msgspec.field(default_factory=lambda: msg("The game goes on."))


Decision = Wait | Reject | Quiet | Start | Undo | Abandon | GoOn


class TableSetup(Struct):
    """The set-up in progress (game and seats) and the abandon gesture's progress.

    `route` decides and returns a Decision, which the session carries out: the set-up never
    calls back into the session, so the two do not import each other."""

    game: str | None = None
    seats: list[str] = field(default_factory=list)
    abandon_step: int = 0  # 1: a game card was tapped in play; 2: then end-turn was held
    abandon_since: float = 0.0

    def view(self) -> dict[str, Any]:
        return {"game": self.game, "seats": list(self.seats)}

    def started(self) -> None:
        """The game the set-up asked for has started: the set-up is over."""
        self.game, self.seats = None, []

    # -- routing --------------------------------------------------------------------------

    def route(self, table: Table, event: TableInput, now: float) -> Decision | None:
        """What to do with `event` if it belongs to the set-up or the abandon gesture; None
        lets the game have it."""
        if self.abandon_step and now - self.abandon_since > ABANDON_WINDOW:
            self.abandon_step = 0
        card = game_card(event.piece) if isinstance(event, PiecePlaced) else None
        if table.playing:
            return self._in_play(table, event, card, now)
        if card is not None:
            return self.open(card)
        if self.game is None:
            if table.finished:
                return None  # a finished game: the session answers (new game, lifts)
            if isinstance(event, PiecePlaced):
                # TRANSLATORS: refusal when a piece is tapped with no game set up
                return Reject(Rejection("no-game", msg(
                    "No game is under way: tap a game card first.")))
            return Quiet()
        return self._seating(table, event)

    def _in_play(self, table: Table, event: TableInput, card: str | None,
                 now: float) -> Decision | None:
        current = table.game or "?"
        if card is not None and self.abandon_step == 2:
            self.abandon_step = 0
            return Abandon(self.open(card))
        if card is not None:
            self.abandon_step, self.abandon_since = 1, now
            # TRANSLATORS: a game card tapped during a game; game is the game's title. "roll"
            # and "end-turn" are the table's two buttons
            return Wait(msg(
                "A game of %(game)s is under way. To take back the last move, press the roll "
                "button. To abandon the game, hold the end-turn button, then tap a game card "
                "again.", game=title(current)))
        if self.abandon_step == 1 and event == ButtonPressed(UNDO_BUTTON, long=False):
            self.abandon_step = 0
            return Undo()
        if self.abandon_step == 1 and event == ButtonPressed(START_BUTTON, long=True):
            self.abandon_step, self.abandon_since = 2, now
            # TRANSLATORS: the second step of abandoning a game; game is its title
            return Wait(msg("Tap a game card now to abandon this game of %(game)s.",
                            game=title(current)))
        if self.abandon_step and not isinstance(event, PieceLifted):
            self.abandon_step = 0  # anything else: the family changed their mind
            return GoOn()
        return None

    # -- set-up ---------------------------------------------------------------------------

    def open(self, game: str) -> Wait | Reject:
        """A game card was tapped with no game under way: begin (or restart) its set-up."""
        if registry.find(game) is None:
            # TRANSLATORS: refusal of a game card for a game not installed on this table
            return Reject(Rejection("unknown-game", msg(
                "This card is for a game this table does not know yet.")))
        self.game, self.seats, self.abandon_step = game, [], 0  # again: seats anew
        # TRANSLATORS: a game card tapped to set up a game; game is its title, how is the
        # game's own sentence saying how players join ("each player taps one of their kings")
        return Wait(msg("Setting up %(game)s: %(how)s. Then hold the end-turn button to start.",
                        game=title(game), how=how_to_join(game)), lights="idle")

    def _seating(self, table: Table, event: TableInput) -> Decision:
        assert self.game is not None
        if event == ButtonPressed(START_BUTTON, long=True):
            return self._start()
        if event == ButtonPressed(JOIN_BUTTON, long=True):
            return Undo()  # the undo gesture: says there is nothing to take back
        if isinstance(event, ButtonPressed) and not event.long and event.name == JOIN_BUTTON \
                and registry.game(self.game).seating.by_button:
            n = len(self.seats) + 1
            while f"player {n}" in self.seats:
                n += 1
            return self._join(table, f"player {n}")
        if not isinstance(event, PiecePlaced):
            return Quiet()
        rule = seat_rule(self.game)
        player = rule(event.piece) if rule else None
        if player is None:
            # TRANSLATORS: refusal at set-up of a piece that seats nobody; piece is the piece
            # in words, game the game's title, how the game's sentence saying how players join
            return Reject(Rejection("not-a-seat", msg(
                "%(piece)s does not seat anyone in %(game)s: %(how)s.",
                piece=piece_said(event.piece), game=title(self.game),
                how=how_to_join(self.game))))
        return self._join(table, player)

    def _join(self, table: Table, player: str) -> Decision:
        assert self.game is not None
        if player in self.seats:
            # TRANSLATORS: refusal at set-up; player is a name, seat the seat's number
            return Reject(Rejection("already-seated", msg(
                "%(player)s has already joined, in seat %(seat)s.", player=player,
                seat=self.seats.index(player) + 1)))
        most = max_players(self.game, table.options_for(self.game))
        if most is not None and len(self.seats) >= most:
            # TRANSLATORS: refusal at set-up when every seat is taken; game is the game's
            # title, n the most players it seats
            return Reject(Rejection("table-full", msg_n(
                "%(game)s seats at most %(n)s player. Hold the end-turn button to start, or "
                "tap the game card again to seat everyone anew.",
                "%(game)s seats at most %(n)s players. Hold the end-turn button to start, or "
                "tap the game card again to seat everyone anew.", most, game=title(self.game))))
        self.seats.append(player)
        # TRANSLATORS: said at set-up when a player sits; player is a name, seat its number
        return Wait(msg("%(player)s joins, in seat %(seat)s.", player=player,
                        seat=len(self.seats)), lights=None, seats=tuple(self.seats))

    def _start(self) -> Decision:
        assert self.game is not None
        if not self.seats:
            # TRANSLATORS: refusal of the start with no player seated; how is the game's
            # sentence saying how players join
            return Reject(Rejection("no-players", msg(
                "Nobody has joined yet: %(how)s.", how=how_to_join(self.game))))
        return Start(self.game, tuple(self.seats))
