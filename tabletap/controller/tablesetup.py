"""Choosing a game at the table: game cards, seats, and the gestures that undo or abandon.

A family has no screen and no shell, only the game cards (`tabletap:game/<game>` tags), the
pieces and two buttons. So the table itself runs the set-up:

- Tapping a game card when no game is under way opens a set-up for that game.
- Players join by tapping a piece that is theirs; the game's seat rule (its spec's
  `seating.seat_of`, controller.gamespec) says whose it is. Seats follow the join order, and the
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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tabletap.controller import registry
from tabletap.controller.games.base import ButtonPressed, PieceLifted, PiecePlaced, TableInput
from tabletap.controller.rules.base import Rejection
from tabletap.controller.speech import game_name, piece_words

if TYPE_CHECKING:
    from tabletap.controller.session import Result, TableSession

GAME_CARD = re.compile(r"^game/([a-z0-9]+(?:-[a-z0-9]+)*)$")
ABANDON_WINDOW = 10.0  # seconds between the steps of the abandon and undo gestures
# After a game card is tapped in play, a short press of `roll` takes back the last action. The
# buttons alone are all spoken for (games hold `roll` to move by a die, or `end-turn` to
# discard), and a game card first is a step no child makes by accident.
UNDO_BUTTON = "roll"
START_BUTTON = "end-turn"  # held: start the game
JOIN_BUTTON = "roll"  # pressed: seat the next player, in games without personal pieces

SeatRule = Callable[[str], str | None]
HOW_TO_JOIN_DEFAULT = "each player taps one of their pieces"


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


def how_to_join(game: str) -> str:
    spec = registry.find(game)
    return spec.seating.how if spec is not None else HOW_TO_JOIN_DEFAULT


@dataclass
class TableSetup:
    """The set-up in progress (game and seats) and the abandon gesture's progress."""

    game: str | None = None
    seats: list[str] = field(default_factory=list)
    abandon_step: int = 0  # 1: a game card was tapped in play; 2: then end-turn was held
    abandon_since: float = 0.0

    def view(self) -> dict[str, Any]:
        return {"game": self.game, "seats": list(self.seats)}

    # -- routing --------------------------------------------------------------------------

    def route(self, session: TableSession, event: TableInput, now: float) -> Result | None:
        """Answer `event` if it belongs to the set-up or the abandon gesture; None lets the
        game have it."""
        if self.abandon_step and now - self.abandon_since > ABANDON_WINDOW:
            self.abandon_step = 0
        card = game_card(event.piece) if isinstance(event, PiecePlaced) else None
        if session.playing:
            return self._in_play(session, event, card, now)
        if card is not None:
            return self.open(session, card)
        if self.game is None:
            if session.state is not None:
                return None  # a finished game: the session answers (new game, lifts)
            if isinstance(event, PiecePlaced):
                return session.reject(Rejection(
                    "no-game", "No game is under way: tap a game card first."), now)
            return session.quiet()
        return self._seating(session, event, now)

    def _in_play(self, session: TableSession, event: TableInput, card: str | None,
                 now: float) -> Result | None:
        current = session.header.game if session.header else "?"
        if card is not None and self.abandon_step == 2:
            self.abandon_step = 0
            session.abandon(now)
            return self.open(session, card)
        if card is not None:
            self.abandon_step, self.abandon_since = 1, now
            return session.waiting(
                f"A game of {game_name(current)} is under way. To take back the last move, "
                "press the roll button. To abandon the game, hold the end-turn button, then tap "
                "a game card again.", now)
        if self.abandon_step == 1 and event == ButtonPressed(UNDO_BUTTON, long=False):
            self.abandon_step = 0
            return session.undo(now)
        if self.abandon_step == 1 and event == ButtonPressed(START_BUTTON, long=True):
            self.abandon_step, self.abandon_since = 2, now
            return session.waiting(
                f"Tap a game card now to abandon this game of {game_name(current)}.", now)
        if self.abandon_step and not isinstance(event, PieceLifted):
            self.abandon_step = 0  # anything else: the family changed their mind
            session.tell("The game goes on.")
        return None

    # -- set-up ---------------------------------------------------------------------------

    def open(self, session: TableSession, game: str) -> Result:
        """A game card was tapped with no game under way: begin (or restart) its set-up."""
        try:
            seat_rule(game)
        except Rejection:
            return session.reject(Rejection(
                "unknown-game", f"This card names {game}, a game tabletap does not know."),
                session.now)
        self.game, self.seats, self.abandon_step = game, [], 0  # again: seats anew
        how = how_to_join(game)
        return session.waiting(
            f"Setting up {game_name(game)}: {how}. Then hold the end-turn button to start.",
            session.now, lights="idle")

    def _seating(self, session: TableSession, event: TableInput, now: float) -> Result:
        assert self.game is not None
        if event == ButtonPressed(START_BUTTON, long=True):
            return self._start(session, now)
        if event == ButtonPressed(JOIN_BUTTON, long=True):
            return session.undo(now)  # the undo gesture: says there is nothing to take back
        if isinstance(event, ButtonPressed) and not event.long and event.name == JOIN_BUTTON \
                and registry.game(self.game).seating.by_button:
            n = len(self.seats) + 1
            while f"player {n}" in self.seats:
                n += 1
            return self._join(session, f"player {n}", now)
        if not isinstance(event, PiecePlaced):
            return session.quiet()
        rule = seat_rule(self.game)
        player = rule(event.piece) if rule else None
        if player is None:
            how = how_to_join(self.game)
            return session.reject(Rejection(
                "not-a-seat", f"{piece_words(event.piece)} does not seat anyone in "
                f"{game_name(self.game)}: {how}."), now)
        return self._join(session, player, now)

    def _join(self, session: TableSession, player: str, now: float) -> Result:
        assert self.game is not None
        if player in self.seats:
            return session.reject(Rejection(
                "already-seated", f"{player} has already joined, in seat "
                f"{self.seats.index(player) + 1}."), now)
        most = max_players(self.game, session.config.options_for(self.game))
        if most is not None and len(self.seats) >= most:
            return session.reject(Rejection(
                "table-full", f"{game_name(self.game)} seats at most {most} players. Hold the "
                "end-turn button to start, or tap the game card again to seat everyone anew."),
                now)
        self.seats.append(player)
        session.show_seats(self.seats)
        return session.waiting(f"{player} joins, in seat {len(self.seats)}.", now, lights=None)

    def _start(self, session: TableSession, now: float) -> Result:
        assert self.game is not None
        if not self.seats:
            how = how_to_join(self.game)
            return session.reject(Rejection("no-players", f"Nobody has joined yet: {how}."), now)
        game, seats = self.game, list(self.seats)
        result = session.start(game, seats, now)
        if result.accepted:
            self.game, self.seats = None, []
        return result
