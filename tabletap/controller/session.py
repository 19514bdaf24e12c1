"""The table session: physical inputs in, rules checked, the chest and lights answer.

Order matters for "a power cut never loses a game": an accepted action is appended to the journal
and fsynced *before* the chest or the lights act on it. A rejection changes nothing but the lights.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from tabletap.controller.config import Config
from tabletap.controller.games.base import (
    ButtonPressed,
    GameTable,
    Pending,
    PieceLifted,
    TableInput,
)
from tabletap.controller.journal import GameHeader, Journal
from tabletap.controller.patterns import player_colour
from tabletap.controller.ports import InputEvent, Outputs
from tabletap.controller.rules.base import Engine, Event, Rejection

log = logging.getLogger("tabletap.session")

Narrator = Callable[[str], None]
RELOCK_RETRY_SECONDS = 1.0


@dataclass
class Result:
    """What one input did, for the scenario runner's `accepted` / `rejected` expectations."""

    accepted: bool | None  # None: the input meant nothing (a lift in Magic Keys) or is pending
    rejection: Rejection | None = None
    events: tuple[Event, ...] = ()
    pending: str | None = None


@dataclass
class TableSession:
    engine: Engine[Any, Any]
    table: GameTable
    state: Any
    journal: Journal
    outputs: Outputs
    config: Config
    narrate: Narrator = field(default=lambda text: None)
    actions: int = 0  # accepted actions so far (journal numbering)
    header: GameHeader | None = None  # the game being played, to start the next one like it
    last: Result | None = None
    _relock_at: float | None = None
    _feedback_until: float | None = None
    _reader_missing: set[str] = field(default_factory=set)

    # -- inputs -------------------------------------------------------------------------------

    def handle(self, event: TableInput, now: float) -> Result:
        try:
            if self.engine.is_over(self.state):
                if isinstance(event, PieceLifted):
                    return Result(None)  # lifting the winning key is not a move
                if event == ButtonPressed("end-turn", long=True) and self.header is not None:
                    return self.new_game(now)
                raise Rejection("game-over", "The game is over; hold the end-turn button to "
                                "start a new game.")
            interpreted = self.table.interpret(self.state, event, now)
            if interpreted is None:
                return Result(None)
            if isinstance(interpreted, Pending):
                self.narrate(f"  … {interpreted.message}")
                if interpreted.count is None:
                    self._show("pending", None, now, hold=False)
                else:
                    self.show_turn(interpreted.count)
                    self._feedback_until = None
                self.last = Result(None, pending=interpreted.message)
                return self.last
            # A gesture may stand for several actions (Magic Keys' digital dice: the key tapped
            # at the chest is the move to its space and the try): all of them, or none.
            steps = interpreted if isinstance(interpreted, tuple) else (interpreted,)
            state, resolved, events = self.state, [], []
            for action in steps:
                outcome = self.engine.apply(state, action)
                state = outcome.state
                resolved.append(outcome.action)
                events.extend(outcome.events)
            entries = [self.engine.action_to_json(a) for a in resolved]
        except Rejection as rejection:
            return self.reject(rejection, now)
        except Exception:  # noqa: BLE001 - a bug must cost one move, never the game
            log.exception("internal error while handling %r", event)
            return self.reject(Rejection(
                "internal-error", "Something went wrong inside tabletap, so this move does not "
                "count. Try it again; the log says what happened."), now)
        try:
            self.journal.append(self.actions + 1, *entries)
        except OSError as exc:
            log.error("cannot write the journal %s: %s", self.journal.path, exc)
            return self.reject(Rejection(
                "journal-error", f"tabletap could not save this move ({exc.strerror or exc}), "
                "so it does not count. Check the SD card, then try again."), now)
        self.actions += len(entries)
        self.state = state
        for ev in events:
            self.narrate(f"  {ev.text}")
            log.info("%s: %s", ev.kind, ev.text)
        self._answer(tuple(events), now)
        for action in resolved:
            self.table.accepted(action)
        self.last = Result(True, events=tuple(events))
        return self.last

    def new_game(self, now: float) -> Result:
        """After a win, the same players start again (a long press of end-turn at the table):
        a fresh secret seed, no forced set-up, the finished game archived by the journal."""
        assert self.header is not None
        header = replace(self.header, seed=secrets.randbelow(2**31), setup={})
        state = self.engine.new_game(header.players, header.seed, header.options, header.setup)
        self.journal.start(header)
        self.header, self.state, self.actions = header, state, 0
        self.table = type(self.table)()  # no half-made gesture carries over
        opening = (Event("new-game", f"A new game of {header.game} begins: "
                         f"{', '.join(header.players)}."),
                   *getattr(self.engine, "opening_events", lambda _s: ())(state))
        for ev in opening:
            self.narrate(f"  {ev.text}")
        self._relock_at = None
        self._chest(False)
        self._feedback_until = None
        self.show_turn()
        self.last = Result(True, events=tuple(opening))
        return self.last

    def reject(self, rejection: Rejection, now: float) -> Result:
        """Show a rejection; the game state is untouched by construction."""
        self.narrate(f"  ✗ rejected ({rejection.code}): {rejection.message}")
        log.warning("rejected %s: %s", rejection.code, rejection.message)
        self._show("rejected", None, now, hold=True)
        self.last = Result(False, rejection)
        return self.last

    def input(self, event: InputEvent, now: float) -> None:
        """Inputs the session itself answers (the lid switch), not the game."""
        if event.kind == "lid-closed" and self.outputs.chest.is_open:
            self.narrate("  The lid is closed: the chest locks.")
            self._lock()

    # -- time ---------------------------------------------------------------------------------

    def tick(self, now: float) -> None:
        if self._relock_at is not None and now >= self._relock_at:
            self.narrate("  The chest locks again.")
            self._lock(now)
        expired = self.table.expire(now)
        if expired is not None:
            self.reject(expired, now)
        if self._feedback_until is not None and now >= self._feedback_until:
            self._feedback_until = None
            self._show_resting()

    def reader_status(self, reader: str, missing: bool) -> None:
        if missing:
            self._reader_missing.add(reader)
            self._light("reader-missing")
        else:
            self._reader_missing.discard(reader)
            if self._feedback_until is None:
                self._show_resting()

    # -- answering ----------------------------------------------------------------------------

    def _answer(self, events: tuple[Event, ...], now: float) -> None:
        kinds = {ev.kind for ev in events}
        if "chest-open" in kinds:
            self._chest(True)
            self._relock_at = now + self.config.chest.open_seconds
        if "win" in kinds:
            self._show("win", None, now, hold=False)
        elif "fake" in kinds:
            self._show("fake", None, now, hold=True)
        else:
            self._show("accepted", None, now, hold=True)

    def _chest(self, open_: bool) -> bool:
        """Drive the latch; a failing adapter is logged, never allowed to end the game (the
        move is already in the journal). Returns whether the adapter took the command."""
        try:
            self.outputs.chest.set_open(open_)
        except Exception:  # noqa: BLE001
            log.exception("the chest did not answer (%s)", "open" if open_ else "lock")
            return False
        return True

    def _light(self, pattern: str, colour: str | None = None, count: int | None = None) -> None:
        try:
            if count is None:
                self.outputs.lights.show(pattern, colour)
            else:
                self.outputs.lights.show(pattern, colour, count=count)
        except Exception:  # noqa: BLE001
            log.exception("the lights did not answer (%s)", pattern)

    def _lock(self, now: float | None = None) -> None:
        """Lock the latch; if the adapter fails, try again a second later (never leave a
        chest unlocked because one command was lost)."""
        if self._chest(False) or now is None:
            self._relock_at = None
        else:
            self._relock_at = now + RELOCK_RETRY_SECONDS

    def _show(self, pattern: str, colour: str | None, now: float, hold: bool) -> None:
        self._light(pattern, colour)
        self._feedback_until = now + self.config.lights.feedback_seconds if hold else None

    def _show_resting(self) -> None:
        """What the lights show between answers: a missing reader, the win, or whose turn."""
        if self._reader_missing:
            self._light("reader-missing")
        elif self.engine.is_over(self.state):
            self._light("win")
        else:
            self.show_turn()

    def show_turn(self, count: int | None = None) -> None:
        """Whose turn it is, in their colour, with the table's count (or `count`)."""
        player = self.engine.current_player(self.state)
        if player is None:
            self._light("idle")
            return
        players = self.engine.public_view(self.state).get("players", [])
        seat = players.index(player) if player in players else 0
        if count is None:
            count = self.table.turn_count(self.state)
        self._light("turn", player_colour(player, seat), count)
