"""The table session: physical inputs in, rules checked, the chest and lights answer.

Order matters for "a power cut never loses a game": an accepted action is appended to the journal
and fsynced *before* the chest or the lights act on it. A rejection changes nothing but the lights.

The session also runs what a family does without a shell: the set-up by game card, the undo and
abandon gestures (setup.py; `tabletap undo` too), and the voice: every sentence of the
play-by-play is also said (spoken/words.py, spoken/speaker.py). With no game under way, `state` is
None and the table waits for a game card.
"""

from __future__ import annotations

import errno
import logging
import math
from collections.abc import Callable
from dataclasses import is_dataclass, replace
from typing import Any

from msgspec import Struct, field

from tabletap.controller import unguessable
from tabletap.controller.games.base import (
    ButtonPressed,
    GameTable,
    Pending,
    PieceLifted,
    TableInput,
)
from tabletap.controller.games.registry import title_said
from tabletap.controller.language.messages import msg
from tabletap.controller.language.said import Said as Sentence
from tabletap.controller.language.words import Words
from tabletap.controller.patterns import colour_said, player_colour
from tabletap.controller.ports import InputEvent, Outputs
from tabletap.controller.rules.base import Engine, Event, Rejection
from tabletap.controller.settings.config import Config
from tabletap.controller.spoken.speaker import Speaker
from tabletap.controller.spoken.words import refusal, spoken
from tabletap.controller.state.journal import GameHeader, Journal, Played
from tabletap.controller.table.notices import Changed, Lights, Notices, Refused, Said
from tabletap.controller.table.setup import (
    Abandon,
    Decision,
    GoOn,
    Quiet,
    Reject,
    Start,
    Table,
    TableSetup,
    Undo,
    Wait,
)
from tabletap.controller.table.takeback import (
    chance_reason,
    checks_after_last_move,
    checks_sentence,
    put_back,
    sentences,
    undid,
)

log = logging.getLogger("tabletap.session")

Narrator = Callable[[str], None]
RELOCK_RETRY_SECONDS = 1.0


class Result(Struct):
    """What one input did, for the scenario runner's `accepted` / `rejected` expectations."""

    accepted: bool | None  # None: the input meant nothing (a lift, in some games) or is pending
    rejection: Rejection | None = None
    events: tuple[Event, ...] = ()
    pending: str | Sentence | None = None


class TableSession(Struct):
    engine: Engine[Any, Any] | None  # None, with table and state: no game under way
    table: GameTable | None
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
    speaker: Speaker = field(default_factory=Speaker)
    setup: TableSetup = field(default_factory=TableSetup)
    history: list[Played] = field(default_factory=list)  # live actions, for undo
    now: float = 0.0  # the time of the input being handled
    undos: int = 0  # actions taken back since the last accepted one
    _chance: set[int] = field(default_factory=set)  # actions whose engine drew chance
    # Listeners (the phone page's side) learn what happened here from typed notices.
    notices: Notices = field(default_factory=Notices)
    resting: str | None = None  # a pattern the lights rest on instead of whose turn it is
    words: Words = field(default_factory=Words)  # the table's language (config.language)

    def __post_init__(self) -> None:
        if self.words.language != self.config.language:
            self.words = Words(self.config.language)

    @property
    def playing(self) -> bool:
        """A game is under way (started and not over)."""
        return self.engine is not None and self.state is not None \
            and not self.engine.is_over(self.state)

    # -- inputs -------------------------------------------------------------------------------

    def handle(self, event: TableInput, now: float) -> Result:
        self.now = now
        decision = self.setup.route(self._table_view(), event, now)
        routed = self._carry_out(decision, now) if decision is not None else None
        if routed is not None:
            return routed  # already answered (kept as `last`, published) where it was made
        assert self.engine is not None and self.table is not None
        try:
            if self.engine.is_over(self.state):
                if isinstance(event, PieceLifted):
                    return Result(None)  # lifting the winning key is not a move
                if event == ButtonPressed("end-turn", long=True) and self.header is not None:
                    return self.new_game(now)
                # TRANSLATORS: refusal of a move after the game ended
                raise Rejection("game-over", msg(
                    "The game is over; hold the end-turn button to start a new game."))
            interpreted = self.table.interpret(self.state, event, now)
            if interpreted is None:
                return Result(None)
            if isinstance(interpreted, Pending):
                text = self.words(interpreted.message)
                self.line(f"  … {text}", interpreted.message)
                self.speaker.say(spoken(self.table.said(self.state, text)))
                if interpreted.count is None:
                    self._show("pending", None, now, hold=False)
                else:
                    self.show_turn(interpreted.count)
                    self._feedback_until = None
                return self._answered(Result(None, pending=interpreted.message))
            # A gesture may stand for several actions (with digital dice, the key tapped
            # at the chest is the move to its space and the try): all of them, or none.
            steps = interpreted if isinstance(interpreted, tuple) else (interpreted,)
            state, resolved, events, played = self.state, [], [], []
            for action in steps:
                outcome = self.engine.apply(state, action)
                asked = self.engine.action_to_json(action)
                entry = self.engine.action_to_json(outcome.action)
                said = outcome.events  # built on each read (rules.base.Outcome): read once
                played.append((state, entry, said, asked != entry))
                state = outcome.state
                resolved.append(outcome.action)
                events.extend(said)
            entries = [entry for _, entry, _, _ in played]
        except Rejection as rejection:
            return self.reject(rejection, now)
        except Exception:  # noqa: BLE001 - a bug must cost one move, never the game
            log.exception("internal error while handling %r", event)
            # TRANSLATORS: refusal when the table's program failed on a move (a bug)
            return self.reject(Rejection("internal-error", msg(
                "Something went wrong inside the table, so this move does not count. Try it "
                "again.")), now)
        try:
            self.journal.append(self.actions + 1, *entries)
        except OSError as exc:
            log.error("cannot write the journal %s: %s", self.journal.path, exc)
            if exc.errno == errno.ENOSPC:
                # TRANSLATORS: refusal when the memory card is full
                return self.reject(Rejection("journal-error", msg(
                    "The memory card is full, so the table could not save this move and it "
                    "does not count. Make room on the card, then try again.")), now)
            # TRANSLATORS: refusal when the memory card could not be written
            return self.reject(Rejection("journal-error", msg(
                "The table could not save this move, so it does not count. Check the memory "
                "card, then try again.")), now)
        self.undos = 0
        for i, (before, entry, evs, drew) in enumerate(played, start=self.actions + 1):
            self.history.append(Played(i, entry, before, evs))
            if drew:
                self._chance.add(i)
        self.actions += len(entries)
        self.state = state
        # The move is durable: the chest and the lights answer now, and only then is it
        # narrated, published to the page and said (none of them may delay the latch).
        self._answer(tuple(events), now)
        logged = log.isEnabledFor(logging.INFO)  # not under systemd: service.setup_logging
        for ev in events:
            self.tell(ev.said)
            if logged:  # the English text is rendered for the record alone
                log.info("%s: %s", ev.kind, ev.text)
        for action in resolved:
            self.table.accepted(action)
        return self._answered(Result(True, events=tuple(events)))

    def _table_view(self) -> Table:
        return Table(self.playing, self.header.game if self.header else None,
                     self.state is not None, self.config.options_for)

    def _carry_out(self, decision: Decision, now: float) -> Result | None:
        """Do what the set-up decided (controller.table.setup); None lets the game have the
        input."""
        match decision:
            case Wait(text, lights, seats):
                if seats:
                    self.show_seats(list(seats))
                    self.notices.publish(Changed("setup"))
                    text = sentences(text, self.seat_sentence(list(seats)))
                return self.waiting(text, now, lights=lights)
            case Reject(rejection):
                return self.reject(rejection, now)
            case Quiet():
                return self.quiet()
            case Start(game, players):
                result = self.start(game, list(players), now)
                if result.accepted:
                    self.setup.started()
                return result
            case Undo():
                return self.undo(now)
            case Abandon(then):
                self.abandon(now)
                return self._carry_out(then, now)
            case GoOn(text):
                self.tell(text)
                return None
        raise AssertionError(f"a decision the session does not know: {decision!r}")

    def new_game(self, now: float) -> Result:
        """After a win, the same players start again (a long press of end-turn at the table):
        a fresh secret seed, no forced set-up, the finished game archived by the journal."""
        assert self.header is not None
        header = replace(self.header, seed=unguessable.randbelow(2**31), setup={})
        return self.begin(header, now)

    def start(self, game: str, players: list[str], now: float,
              options: dict[str, Any] | None = None, seed: int | None = None) -> Result:
        """A new game chosen at the table or from a shell, with the config's options for it
        unless `options` are given. Refused, with the engine's reason, if it cannot start."""
        if options is None:
            options = self.config.options_for(game)
        header = GameHeader(game, list(players), unguessable.randbelow(2**31) if seed is None
                            else seed, dict(options), {})
        return self.begin(header, now)

    def begin(self, header: GameHeader, now: float) -> Result:
        """Start the game `header` names; the previous journal is archived first."""
        from tabletap.controller.games.registry import engine_for, table_for

        try:
            engine = engine_for(header.game)
            table = table_for(header.game)
            state = engine.new_game(header.players, header.seed, header.options, header.setup)
        except Rejection as rejection:
            return self.reject(rejection, now)
        try:
            self.journal.start(header)
        except OSError as exc:
            log.error("cannot write the journal %s: %s", self.journal.path, exc)
            if exc.errno == errno.ENOSPC:
                # TRANSLATORS: refusal of a new game when the memory card is full
                return self.reject(Rejection("journal-error", msg(
                    "The memory card is full, so the table could not save the new game. Make "
                    "room on the card, then try again.")), now)
            # TRANSLATORS: refusal when the memory card could not be written
            return self.reject(Rejection("journal-error", msg(
                "The table could not save the new game. Check the memory card, then try "
                "again.")), now)
        self.engine, self.table = engine, table  # no half-made gesture carries over
        self.header, self.state, self.actions = header, state, 0
        self.history, self._chance, self.undos = [], set(), 0
        # TRANSLATORS: said when a game starts; game is its title, players the names in seat
        # order
        begins = msg("A new game of %(game)s begins: %(players)s.",
                     game=title_said(header.game), players=", ".join(header.players))
        opening = (Event("new-game", begins),
                   *getattr(self.engine, "opening_events", lambda _s: ())(state))
        for ev in opening:
            self.tell(ev.said)
        self._relock_at = None
        self._chest(False)
        self._feedback_until = None
        self.show_turn()
        return self._answered(Result(True, events=tuple(opening)))

    def abandon(self, now: float) -> Result:
        """Give up the game under way: journaled, archived, said aloud, never silent."""
        if not self.playing or self.header is None:
            # TRANSLATORS: refusal of the abandon gesture with no game under way
            return self.reject(Rejection("no-game", msg(
                "No game is under way, so there is nothing to abandon.")), now)
        try:
            self.journal.append_abandoned()
            archived = self.journal.archive()
        except OSError as exc:
            log.error("cannot archive the journal %s: %s", self.journal.path, exc)
            # TRANSLATORS: refusal of the abandon when the memory card could not be written
            return self.reject(Rejection("journal-error", msg(
                "The table could not put the game away, so it goes on. Check the memory card, "
                "then try again.")), now)
        game = self.header.game
        log.warning("the %s game of %s was abandoned after %d actions; archived as %s", game,
                    ", ".join(self.header.players), self.actions, archived)
        self.engine = self.table = self.state = self.header = None
        self.actions, self.history, self._chance = 0, [], set()
        self._relock_at = None
        self._chest(False)
        self._feedback_until = None
        # TRANSLATORS: said when a game is abandoned; game is its title
        text = msg("The game of %(game)s is abandoned; it is kept in the archive. Tap a game "
                   "card to set up the next one.", game=title_said(game))
        self.tell(text)
        self._light("idle")
        return self._answered(Result(True, events=(Event("abandoned", text),)))

    def undo(self, now: float) -> Result:
        """Take back the last live action of the current turn, journaled before the table is
        told; a roll (or any chance) and the action that began this turn stay."""
        if not self.playing:
            # TRANSLATORS: refusal of undo after the game ended
            over = msg("Nothing to take back: the game is over.")
            # TRANSLATORS: refusal of undo with no game under way
            none = msg("Nothing to take back: no game is under way.")
            return self.reject(Rejection("nothing-to-undo", over if self.state is not None
                                         else none), now)
        assert self.engine is not None and self.header is not None
        if self._gesture_pending():
            # a half-made play (a projectile waiting for its target) is what the family wants
            # back: cancel it and take back nothing that was accepted
            self.table = type(self.table)()
            # TRANSLATORS: undo while a play was half made (a projectile waiting for its target)
            cancelled = self.waiting(msg("The half-made play is cancelled; nothing else is "
                                         "taken back."), now, lights=None)
            self._show("accepted", None, now, hold=True)  # then back to whose turn it is
            return cancelled
        if not self.history:
            # TRANSLATORS: refusal of undo before the first move
            return self.reject(Rejection("nothing-to-undo", msg("Nothing has been played yet.")),
                               now)
        # Undo goes back over moves: table checks (a new line's domino tapped) after the last
        # move go with it, since nobody calls them a move (controller.table.takeback).
        game = self.header.game
        checks = checks_after_last_move(game, [p.action for p in self.history])
        if checks == len(self.history):
            # TRANSLATORS: refusal of undo when only pieces the box dealt were tapped since
            return self.reject(Rejection("nothing-to-undo", msg(
                "Nothing to take back yet: tapping what the box gave is not a move.")), now)
        undone = self.history[len(self.history) - checks - 1:]
        last = undone[0]
        why = next((chance_reason(p.action, p.number in self._chance) for p in undone
                    if chance_reason(p.action, p.number in self._chance)), None)
        if why is not None:
            return self.reject(Rejection("undo-chance", why), now)
        # The turn being corrected is the one the last action belongs to: the action that
        # handed the turn on (a key tried, say) may be taken back at once, but undo
        # never walks back over a handover into an earlier turn.
        owner = self.engine.current_player(last.before)
        handed_over = owner != self.engine.current_player(self.state)
        if handed_over and self.undos:
            # TRANSLATORS: refusal of a second undo across a turn; owner and player are names
            return self.reject(Rejection("undo-turn", msg(
                "That was in %(owner)s's turn, which is over: undo goes back only to the start "
                "of %(player)s's turn.", owner=owner,
                player=self.engine.current_player(self.state))), now)
        for played in reversed(undone):  # the newest first, one journal entry each
            try:
                self.journal.append_undo(played.number)
            except OSError as exc:
                log.error("cannot write the journal %s: %s", self.journal.path, exc)
                # TRANSLATORS: refusal of undo when the memory card could not be written
                return self.reject(Rejection("journal-error", msg(
                    "The table could not save the undo, so the move is not taken back. Check "
                    "the memory card, then try again.")), now)
            self.history.pop()
            self.undos += 1
            self._chance.discard(played.number)
            self.state, self.actions = played.before, self.actions - 1
        self.table = type(self.table)() if self.table is not None else None
        parts = [undid(game, owner, last.action), put_back(game, last.action, last.before),
                 checks_sentence(game, [p.action for p in undone[1:]])]
        if handed_over:
            # TRANSLATORS: the end of an undo's sentence; player is a name
            parts.append(msg("It is %(player)s's turn again.", player=owner))
        if any(ev.kind == "chest-open" for ev in last.events) and self.outputs.chest.is_open:
            # TRANSLATORS: the end of an undo's sentence, when the chest had opened
            parts.append(msg("The chest locks again."))
            self._lock(now)
        text = sentences(*parts)
        self.tell(text)
        self._show("accepted", None, now, hold=True)
        return self._answered(Result(True, events=(Event("undo", text, {"undid": last.action}),)))

    def _gesture_pending(self) -> bool:
        """Whether the table layer holds a half-made gesture: it differs from a fresh one in
        anything but the scenario's forced chance outcomes."""
        if self.table is None or not is_dataclass(self.table):
            return False
        return replace(self.table, forced={}) != replace(type(self.table)(),
                                                        title=self.table.title)

    def wakes_at(self) -> float | None:
        """When `tick` next has something to do, for the loop's pause (Daemon.pause):
        `math.inf` when nothing until an input comes; the soonest moment when only timers of
        a known time run (the chest's relock, the end of the lights' feedback), so the loop
        sleeps until then rather than ticking every poll period the chest stays open (fifty
        passes for the box's five seconds); None when a timer without one runs (a resting
        pattern, a half-made gesture's time-out): the loop then ticks at its poll pace.

        A game whose table keeps GameTable's `expire` has no time-out to tick for, half-made
        gesture or not (a die named by a button's short press, say), and is not compared with
        a fresh table: that comparison builds two tables, and this is asked at every pass."""
        if self.resting is not None:
            return None
        table = self.table
        if table is not None and type(table).expire is not GameTable.expire \
                and (not is_dataclass(table) or self._gesture_pending()):
            return None
        due = [t for t in (self._relock_at, self._feedback_until) if t is not None]
        return min(due) if due else math.inf

    # -- what the family hears ------------------------------------------------------------------

    def tell(self, sentence: str | Sentence) -> None:
        """A sentence of the play-by-play, in the table's language: printed, and said when the
        voice is on."""
        text = self.words(sentence)
        self.line(f"  {text}", sentence)
        said = self.table.said(self.state, text) if self.table is not None else text
        self.speaker.say(spoken(said))

    def waiting(self, text: str | Sentence, now: float,
                lights: str | None = "pending") -> Result:
        """An answer that is neither accepted nor refused (a set-up step, a gesture's first
        half): said, and shown as `lights`."""
        self.tell(text)
        if lights is not None:
            self._show(lights, None, now, hold=False)
        return self._answered(Result(None, pending=text))

    def line(self, text: str, sentence: str | Sentence | None = None) -> None:
        """A line of the play-by-play: printed (`narrate`) and published to the listeners, with
        the sentence it says (for a page in another language)."""
        self.narrate(text)
        self.notices.publish(Said(text, sentence if isinstance(sentence, Sentence) else None))

    def _answered(self, result: Result) -> Result:
        """Every answer to an input goes through here: kept as `last`, and published."""
        self.last = result
        self.notices.publish(Changed("answer"))
        return result

    def show(self, pattern: str, now: float, hold: bool) -> None:
        """Show `pattern` with the session's own timing: held for the feedback time, or until
        the next answer (the pairing window's pattern, say)."""
        self._show(pattern, None, now, hold)

    def quiet(self) -> Result:
        return self._answered(Result(None))

    def show_seats(self, seats: list[str]) -> None:
        """At set-up the lights count the seats, in the colour of the player who sat last."""
        seat = len(seats) - 1
        self._light("turn", self.seat_colour(seats[seat], seat), len(seats))

    def seat_sentence(self, seats: list[str]) -> Sentence:
        """Which colour the player who sat last has, so each child knows their light."""
        seat = len(seats) - 1
        colour = colour_said(self.seat_colour(seats[seat], seat))
        # TRANSLATORS: said at set-up after a player sits; player is a name, colour the colour
        # of their light (a "light colour" message)
        return msg("%(player)s is %(colour)s.", player=seats[seat], colour=colour)

    def seat_colour(self, player: str, seat: int) -> str:
        colours = self.config.lights.seat_colours
        return player_colour(player, seat) if not colours else colours[seat % len(colours)]

    def reject(self, rejection: Rejection, now: float) -> Result:
        """Show a rejection; the game state is untouched by construction."""
        reason = self.words(rejection.said)
        self.speaker.say(spoken(self.words(refusal(rejection.said))))
        self.line(f"  ✗ rejected ({rejection.code}): {reason}", rejection.said)
        self.notices.publish(Refused(rejection.code, reason, rejection.said))
        log.warning("rejected %s: %s", rejection.code, rejection.message)
        self._show("rejected", None, now, hold=True)
        return self._answered(Result(False, rejection))

    def input(self, event: InputEvent, now: float) -> None:
        """Inputs the session itself answers (the lid switch), not the game."""
        if event.kind == "lid-closed" and self.outputs.chest.is_open:
            # TRANSLATORS: said when the chest's lid is shut while it was open
            self.tell(msg("The lid is closed: the chest locks."))
            self._lock()

    # -- time ---------------------------------------------------------------------------------

    def tick(self, now: float) -> None:
        if self._relock_at is not None and now >= self._relock_at:
            # TRANSLATORS: said when the open chest locks by itself after a while
            self.tell(msg("The chest locks again."))
            self._lock(now)
        expired = self.table.expire(now) if self.table is not None else None
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
            # the celebration, then the lights rest on the winner's colour (_show_resting)
            self._show("win", self._winner_colour(), now, hold=True)
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
        self.notices.publish(Lights(pattern, colour, count))
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
        elif self.engine is not None and self.engine.is_over(self.state):
            self._light("turn", self._winner_colour())
        else:
            self.show_turn()

    def _winner_colour(self) -> str | None:
        assert self.engine is not None and self.header is not None
        winners = self.engine.winners(self.state)
        if len(winners) != 1 or winners[0] not in self.header.players:
            return "gold"  # a shared win (or none): gold for everyone
        return self.seat_colour(winners[0], self.header.players.index(winners[0]))

    def show_turn(self, count: int | None = None) -> None:
        """Whose turn it is, in their colour, with the table's count (or `count`); while a
        listener holds a resting pattern (`resting`: a phone waiting to pair), that instead, so
        an answer to a tap does not put it out."""
        if self.resting is not None:
            self._show(self.resting, None, self.now, hold=False)
            return
        if self.engine is None or self.table is None:
            self._light("idle")
            return
        player = self.engine.current_player(self.state)
        if player is None:
            self._light("idle")
            return
        players = self.engine.public_view(self.state).get("players", [])
        seat = players.index(player) if player in players else 0
        if count is None:
            count = self.table.turn_count(self.state)
        self._light("turn", self.seat_colour(player, seat), count)
