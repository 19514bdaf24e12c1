"""The control-socket request kinds the phone page needs: pair, pairings, revoke, snapshot, and
enrol (a box of tags enrolled from the phone, controller.table.enrolment).

The page runs in its own process (`tabletap web`) and polls `snapshot` with the change counter it
last saw; while nothing changed the answer is a few bytes, so the daemon never does real work for
a browser and never waits on one. Everything here runs on the daemon's thread, between polls.

`attach(daemon)` gives a daemon its pairing desk, its enrolment desk and the play-by-play feed;
`HANDLERS` maps each request kind to `function(daemon, request) -> reply`, for the request
dispatch to register.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from msgspec import json as msgspec_json

from tabletap.controller.control_socket.pairing import (
    ADMIN_PIECE,
    PairingDesk,
    PairingError,
    PairingStore,
)
from tabletap.controller.control_socket.server import Later
from tabletap.controller.control_socket.takes import (
    COUNTER,
    FLAG,
    MAPPING,
    PACE,
    TEXT,
    TRUE,
    TRUE_OR_MAPPING,
    WAIT,
    Takes,
)
from tabletap.controller.games import registry
from tabletap.controller.language.said import Said as Sentence
from tabletap.controller.language.tree import spelled
from tabletap.controller.language.words import Words
from tabletap.controller.rules.base import JSON, Rejection
from tabletap.controller.spoken.words import piece_said
from tabletap.controller.state.damage import HELD_SAID
from tabletap.controller.table.enrolment import EnrolDesk, EnrolmentError
from tabletap.controller.table.notices import Changed, Lights, Notice, Refused, Said
from tabletap.controller.table.protocols import TableDaemon
from tabletap.controller.table.voicedesk import CHANGES, VOICE_PIECE, VoiceDesk

log = logging.getLogger("tabletap.page")

PROTOCOL = 1
FEED_LINES = 60
DOUBLE_PRESS = 0.8  # seconds: end-turn twice within this is "say that again"

Handler = Callable[[TableDaemon, dict[str, Any]], dict[str, Any]]
Extras = Callable[[Any, Any], JSON]


class WebSide:
    """What the daemon keeps for the page: the pairing desk, the last lines of the
    play-by-play, the last refusal, and a counter that moves whenever any of it does.

    It listens to the session's notices (controller.table.notices) and changes nothing of the
    session but its `resting` pattern, which it holds at `pairing` while a phone waits to pair,
    so an answer to a tap in the window does not put the pattern out."""

    def __init__(self, daemon: TableDaemon, context: dict[str, Any] | None = None) -> None:
        self.daemon = daemon
        # The adapters' context (`{"sim": True, "world": ...}` under --sim): the table check
        # presses the simulated buttons through it.
        self.context = context
        self.lines: deque[dict[str, Any]] = deque(maxlen=FEED_LINES)
        self.seq = 0
        self.refusal: dict[str, Any] | None = None
        self._refused_in: Any = None  # the game (its header) the refusal was made in
        self.counter = 0
        self._session: Any = None
        self._desk_version = -1
        self._lit: tuple[str | None, int | None] | None = None  # the code's step on the lights
        self._lighting = False
        config = daemon.session.config
        self.desk = PairingDesk(PairingStore.load(config.state_dir), self._show, self._say,
                                config.web.pairing_seconds, say=self._say_aloud)
        self.enrol = EnrolDesk(daemon.readers, daemon.identifier.registry, self._say)
        self.voice = VoiceDesk(config.state_dir, config.voice,
                               words=Words(config.language))
        self._voice_version = self.voice.version
        self._end_turn_at = float("-inf")  # the last short press of end-turn
        # the last game state's part of a snapshot, with what it was made of (_of_state)
        self._state_part: tuple[Any, Any, str, dict[str, Any]] | None = None
        self._listen()

    # -- the session's notices -------------------------------------------------------------

    def _listen(self) -> None:
        """Subscribe to the daemon's session (again, should the daemon get a new one)."""
        session = self.daemon.session
        if session is self._session:
            return
        if self._session is not None:
            self._session.notices.unsubscribe(self._notice)
        session.notices.subscribe(self._notice)
        self._session = session
        self.voice.apply(session.speaker)  # a new game's session speaks at the chosen level
        self.counter += 1

    def _notice(self, notice: Notice) -> None:
        if isinstance(notice, Said):
            self.seq += 1
            line = {"seq": self.seq, "text": notice.text.strip()}
            if notice.sentence is not None:
                line["text_said"] = notice.sentence.to_json()
            self.lines.append(line)
            self.counter += 1
        elif isinstance(notice, Refused):
            # with the game as it stood, so a page shows it only until the game moves on
            session = self.daemon.session
            self.refusal = {"seq": self.seq, "code": notice.code, "message": notice.message,
                            "actions": session.actions}
            if notice.sentence is not None:
                self.refusal["message_said"] = notice.sentence.to_json()
            self._refused_in = session.header
            self.counter += 1
        elif isinstance(notice, Changed):
            self.counter += 1
        elif isinstance(notice, Lights) and not self._lighting and notice.pattern == "pairing":
            self._lit = None  # the session went back to the plain pulse: show the code again


    def _say(self, text: str | Sentence) -> None:
        """A line of the play-by-play from a desk, in the table's language."""
        session = self.daemon.session
        if isinstance(text, Sentence):
            session.line(f"  {session.words(text)}", text)
        else:
            session.line(text)

    def _say_aloud(self, text: str | Sentence) -> None:
        """The voice only: the desk's sentences that carry the code stay out of the
        play-by-play, which every watching phone sees."""
        session = self.daemon.session
        session.speaker.say(session.words(text))

    def _light_code(self, now: float) -> None:
        """While a window is open, the `pairing` pattern steps through the code
        (PairingDesk.light): each digit as that many pixels or flashes in its colour. Drawn
        here, as the session draws its own (the notice, then the adapter), because the
        session's `show` takes no colour or count."""
        step = self.desk.light(now)
        if step is None or step == self._lit:
            self._lit = step
            return
        self._lit = step
        colour, count = step
        session = self.daemon.session
        self._lighting = True
        try:
            session.notices.publish(Lights("pairing", colour, count))
        finally:
            self._lighting = False
        try:
            if count is None:
                session.outputs.lights.show("pairing", colour)
            else:
                session.outputs.lights.show("pairing", colour, count=count)
        except Exception:  # noqa: BLE001 - the lights never stop the table
            log.exception("the lights did not answer (pairing code)")

    def _show(self, pattern: str, hold: bool) -> None:
        """The desk's lights: its pattern, and while a phone waits, the resting picture too."""
        session = self.daemon.session
        session.resting = "pairing" if self.desk.waiting else None
        session.show(pattern, self.daemon.clock.now(), hold)

    # -- the daemon's hooks ------------------------------------------------------------------

    def tap(self, reader: str, piece: str, now: float) -> None:
        """An `admin/<n>` piece was placed: pairing, never the game; a `voice/...` card: the
        voice's controls (controller.table.voicedesk)."""
        if VOICE_PIECE.match(piece):
            self.voice.card(piece, self.daemon.session.speaker)
            return
        try:
            self.desk.tap(reader, piece, now)
        except Rejection as rejection:
            self.daemon.session.reject(rejection, now)

    def takes_tag(self, kind: str, reader: str, tag: Any) -> bool:
        """While a box is being enrolled, every tag is the next piece, never a move."""
        if self.enrol.job is None:
            return False
        if kind == "placed":
            self.enrol.tag(reader, tag)
        return True

    def takes_press(self, name: str, kind: str, now: float) -> bool:
        """A second short press of end-turn within DOUBLE_PRESS seconds of the first says the
        last sentence again and never reaches the game. The first press does what a press
        does: the table never holds a press back to wait for a second one."""
        if name != "end-turn" or kind != "press":
            return False
        if now - self._end_turn_at <= DOUBLE_PRESS:
            self._end_turn_at = float("-inf")
            self.voice.repeat(self.daemon.session.speaker)
            return True
        self._end_turn_at = now
        return False

    def tick(self, now: float) -> None:
        self.voice.apply(self.daemon.session.speaker)  # bedtime begins by the clock
        self.desk.tick(now)
        self.daemon.session.resting = "pairing" if self.desk.waiting else None
        self._light_code(now)

    # -- snapshots ---------------------------------------------------------------------------

    def current_counter(self) -> int:
        self._listen()
        if self.desk.version != self._desk_version:
            self._desk_version = self.desk.version
            self.counter += 1
        if self.voice.version != self._voice_version:
            self._voice_version = self.voice.version
            self.counter += 1
        return self.counter

    def snapshot(self) -> JSON:
        session = self.daemon.session
        engine, state = session.engine, session.state
        header = session.header
        game = header.game if header is not None else getattr(engine, "name", None)
        last = session.last
        words = session.words
        if self.refusal is not None and session.header is not self._refused_in:
            self.refusal = None  # another game, or none: that refusal is no news any more
        playing = engine is not None and state is not None  # none after abandon, before a card
        spec = registry.find(game or "")
        of_state = self._of_state(engine, state, spec, words) if playing else {
            "turn": None, "over": False, "winners": [], "scores": {}, "view": {}, "extra": {}}
        view = of_state["view"]
        now = self.daemon.clock.now()
        r = self.desk.request
        enrolment = self.enrol.progress()
        held = getattr(getattr(session, "journal", None), "damaged", False) and not playing
        next_piece = piece_said(enrolment["next"]) if enrolment and enrolment.get("next") \
            else None
        return {
            "game": game,
            "title": spec.title if spec is not None else game,
            # the table's language; a page may show another (web/app.py renders the `*_said`)
            "language": words.language,
            "players": list(header.players) if header else list(view.get("players", [])),
            # the game's options, so "play again" starts the same game for the same players
            "options": _plain(header.options) if header else {},
            "turn": of_state["turn"],
            "over": of_state["over"],
            "winners": of_state["winners"],
            "scores": of_state["scores"],
            "actions": session.actions,
            "view": view,
            "extra": of_state["extra"],
            "last": None if last is None else {
                "accepted": last.accepted,
                "code": last.rejection.code if last.rejection else None,
                "message": words(last.rejection.said) if last.rejection else None,
                "message_said": last.rejection.said.to_json() if last.rejection else None,
                "pending": None if last.pending is None else words(last.pending),
                "pending_said": last.pending.to_json()
                if isinstance(last.pending, Sentence) else None,
                "events": [words(ev.said) for ev in last.events],
                "events_said": [ev.said.to_json() for ev in last.events],
            },
            "refusal": self.refusal,
            # a damaged journal the daemon holds (state/damage.py): said at the top of the page
            # until a new game starts, so a parent who opens the page later still learns it
            "held": words(HELD_SAID) if held else None,
            "held_said": HELD_SAID.to_json() if held else None,
            # the voice's level (1 to `most`), mute and bedtime, for the page's buttons
            "voice": self.voice.view(),
            # a game card's set-up under way (`{game, seats}`), for the start screen's line
            "setup": session.setup.view() if not playing else None,
            "log": list(self.lines),
            "enrolment": enrolment,
            # the next piece to enrol in the game's own words (the page knows no game's ids)
            "enrolment_words": words(next_piece) if next_piece else None,
            "enrolment_words_said": next_piece.to_json() if next_piece else None,
            # Never the code: a parent must read it on their own request's card, not here,
            # where a stranger's window would show it to every phone.
            "pairing": {
                "waiting": self.desk.waiting,
                "seconds_left": round(max(0.0, r.expires - now), 1)
                if r is not None and r.expires is not None and self.desk.waiting else 0,
                "queued": len(self.desk.queue),
            },
        }

    def _of_state(self, engine: Any, state: Any, spec: Any, words: Words) -> dict[str, Any]:
        """The snapshot's part that only the game state makes (its view, whose turn, the
        scores, the game's extras in the table's language), made again only for another
        state: the engines never change a state (rules.base: `apply` "never mutates
        `state`"), and the page is sent a snapshot at every change a phone watches, most of
        them not a move (a lift, the relock, the lights). The snapshot is written out at
        once (server._line) and never changed, so the parts may be shared."""
        kept = self._state_part
        if kept is not None and kept[0] is state and kept[1] is engine \
                and kept[2] == words.language:
            return kept[3]
        extras = spec.page.extras if spec is not None else None
        part = {
            "turn": engine.current_player(state),
            "over": engine.is_over(state),
            "winners": list(engine.winners(state)),
            "scores": dict(engine.scores(state)),
            "view": _plain(engine.public_view(state, False)),
            "extra": spelled(extras(engine, state), words) if extras else {},
        }
        self._state_part = (state, engine, words.language, part)
        return part


def _plain(value: Any) -> Any:
    """`value` as JSON would give it back (tuples as lists, keys as strings), so a snapshot
    holds nothing of the engine's own; msgspec's C round trip, a fifth of `json`'s."""
    try:
        return msgspec_json.decode(msgspec_json.encode(value))
    except (TypeError, ValueError):
        return json.loads(json.dumps(value))


def attach(daemon: TableDaemon, context: dict[str, Any] | None = None) -> WebSide:
    """Give `daemon` its pairing desk and feed (`tabletap run` does this at start, with the
    context its adapters were built with)."""
    side = WebSide(daemon, context)
    daemon.admin = side
    return side


def is_admin_piece(piece: str) -> bool:
    return bool(ADMIN_PIECE.match(piece))


class _Extras(Mapping[str, Extras]):
    """Each installed game's page extras (its spec's `page.extras`), by game name: what a
    page needs beyond the engine's public view, worked out here where the rules are."""

    def _all(self) -> dict[str, Extras]:
        return {spec.name: spec.page.extras for spec in registry.games()
                if spec.page.extras is not None}

    def __getitem__(self, game: str) -> Extras:
        return self._all()[game]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


EXTRAS: Mapping[str, Extras] = _Extras()


# -- the request kinds ------------------------------------------------------------------------


def _side(daemon: TableDaemon) -> WebSide:
    side: Any = getattr(daemon, "admin", None)
    if not isinstance(side, WebSide):
        side = attach(daemon)
    return side


def _error(text: str) -> dict[str, Any]:
    return {"ok": False, "error": text}


def pair(daemon: TableDaemon, request: dict[str, Any]) -> dict[str, Any]:
    """`{"pair": {"token_sha256": H, "label": L, "address": A}}` opens a window (or queues
    behind the open one); `{"pair": {"status": ID, "token_sha256": H}}` tells how it stands,
    with the code only for the browser whose hash it is (controller.control_socket.pairing)."""
    body = request["pair"]
    if not isinstance(body, dict):
        return _error("bad request: `pair` takes {\"token_sha256\": ..., \"label\": ..., "
                      "\"address\": ...} or {\"status\": ID, \"token_sha256\": ...}")
    side, now = _side(daemon), daemon.clock.now()
    if "status" in body:
        return {"ok": True, **side.desk.status(body["status"], now, body.get("token_sha256"))}
    try:
        r = side.desk.start(body.get("token_sha256"), body.get("label"), now,
                            body.get("address"))
    except PairingError as exc:
        reply = _error(str(exc))
        if exc.retry_after is not None:
            reply["retry_after"] = round(exc.retry_after, 1)
        return reply
    side.tick(now)  # the lights start on the code at once
    return {"ok": True, **side.desk.answer(r, now)}


def pairings(daemon: TableDaemon, request: dict[str, Any]) -> dict[str, Any]:
    """`{"pairings": true}` lists them; `{"pairings": {"check": H}}` says whether the session
    token with that hash is paired."""
    side, body = _side(daemon), request["pairings"]
    if isinstance(body, dict) and "check" in body:
        found = side.desk.check(body["check"])
        return {"ok": True, "paired": found is not None,
                "pairing": found.public() if found else None}
    return {"ok": True, "pairings": side.desk.listing()}


def revoke(daemon: TableDaemon, request: dict[str, Any]) -> dict[str, Any]:
    """`{"revoke": ID}`."""
    try:
        gone = _side(daemon).desk.revoke(request["revoke"])
    except PairingError as exc:
        return _error(str(exc))
    except OSError as exc:
        return _error(f"the pairing could not be revoked ({exc.strerror or exc})")
    return {"ok": True, "revoked": gone.public()}


def enrol(daemon: TableDaemon, request: dict[str, Any]) -> dict[str, Any]:
    """`{"enrol": {"game": G, "decks": [...]}}` puts the daemon in enrolment mode;
    `{"enrol": {"stop": true}}` ends it."""
    body, desk = request["enrol"], _side(daemon).enrol
    if not isinstance(body, dict):
        return _error("bad request: `enrol` takes {\"game\": G} or {\"stop\": true}")
    if body.get("stop"):
        desk.stop()
        return {"ok": True, "enrolment": desk.progress()}
    try:
        desk.start(body)
    except EnrolmentError as exc:
        return _error(str(exc))
    return {"ok": True, "enrolment": desk.progress()}


def doctor(daemon: TableDaemon, request: dict[str, Any]) -> dict[str, Any]:
    """`{"doctor": true}`: the running table's devices, as controller.health.table checks them:
    every check `tabletap doctor` makes while no game is under way; mid-game only those that
    move nothing, and `skipped` says why in a sentence."""
    from tabletap.controller.health.checks import summary
    from tabletap.controller.health.plain import plain, plain_said
    from tabletap.controller.health.table import MID_GAME_SAID, table_findings

    moving = not daemon.session.playing
    findings = table_findings(daemon, _side(daemon).context, moving)
    skipped = None if moving else daemon.session.words(MID_GAME_SAID)
    return {"ok": True, "full": moving, "skipped": skipped,
            # `tabletap doctor`'s last line, in the table's language
            "summary": daemon.session.words(summary(findings)),
            "summary_said": summary(findings).to_json(),
            # `said`: the line in a parent's words; device and detail for the maker
            "findings": [{"status": f.status, "device": f.device, "detail": f.detail,
                          "said": plain(f, daemon.session.words),
                          "said_said": plain_said(f).to_json()} for f in findings]}


def voice(daemon: TableDaemon, request: dict[str, Any]) -> dict[str, Any]:
    """`{"voice": "louder"}` (quieter, mute, unmute, repeat): the voice's controls, as the
    voice cards work them; `said` is what the table answered or said again."""
    side = _side(daemon)
    said = side.voice.change(request["voice"], daemon.session.speaker)
    side.current_counter()
    return {"ok": True, "voice": side.voice.view(), "said": said}


def snapshot(daemon: TableDaemon, request: dict[str, Any]) -> dict[str, Any] | Later:
    """`{"snapshot": true, "since": N}`: just the counter while it is still N, else the whole
    snapshot with the new counter. With `"wait": S` the answer waits up to S seconds for the
    counter to move. With `"stream": P` too (the page's feed) the connection stays open and
    gets an answer at each change, at most one every P seconds, and the quiet answer after S
    seconds without one: one parked request for as long as the page runs, where a new
    connection, request and parse a change cost the daemon three times the snapshot itself.
    With `"bare": true` the answers hold the counter but no snapshot: the stream of a page no
    browser watches (web/feed.py), which only needs to know the daemon is there."""
    side = _side(daemon)
    since = request.get("since")
    wait = request.get("wait")
    pace = request.get("stream")
    bare = request.get("bare", False)  # the counter alone: a page no browser watches

    def since_then(seen: int | None) -> Callable[[], dict[str, Any] | None]:
        def changed() -> dict[str, Any] | None:
            side.desk.tick(daemon.clock.now())
            counter = side.current_counter()
            if seen == counter:
                return None
            reply = {"ok": True, "protocol": PROTOCOL, "counter": counter, "changed": True}
            if not bare:
                reply["snapshot"] = side.snapshot()
            return reply
        return changed

    def quiet(seen: int | None) -> dict[str, Any]:
        return {"ok": True, "protocol": PROTOCOL, "counter": seen, "changed": False}

    if pace is not None:
        if not wait:
            return _error("bad request: `stream` needs `wait`, the seconds after which a "
                          "quiet table is said to be quiet (20, say)")

        def stream(seen: int | None, hold: float) -> Later:
            return Later(since_then(seen), float(wait), quiet(seen), hold=hold,
                         then=lambda sent: stream(sent.get("counter", seen), float(pace)),
                         moved=lambda: side.current_counter() != seen)

        return stream(since, 0.0)
    reply = since_then(since)()
    if reply is not None:
        return reply
    return quiet(since) if not wait else Later(since_then(since), float(wait), quiet(since))


HANDLERS: dict[str, Handler] = {
    "pair": pair,
    "pairings": pairings,
    "revoke": revoke,
    "snapshot": snapshot,
    "enrol": enrol,
    "doctor": doctor,
    "voice": voice,
}
# The exact value each kind takes (control_socket.takes): the dispatch refuses any other.
TAKES: dict[str, Takes] = {
    "pair": MAPPING,
    "pairings": TRUE_OR_MAPPING,
    "revoke": TEXT,
    "snapshot": TRUE.with_qualifiers(since=COUNTER, wait=WAIT, stream=PACE, bare=FLAG),
    "enrol": MAPPING,
    "doctor": TRUE,
    "voice": Takes(f"one of {', '.join(repr(c) for c in CHANGES)}", lambda v: v in CHANGES),
}


def handle(daemon: TableDaemon, request: dict[str, Any]) -> dict[str, Any] | None:
    """The reply for a request of one of these kinds, or None for any other kind (the hook the
    request dispatch calls before its own kinds)."""
    for kind, handler in HANDLERS.items():
        if kind in request:
            return handler(daemon, request)
    return None
