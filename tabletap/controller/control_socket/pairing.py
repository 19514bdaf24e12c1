"""Pairing a phone with the table by physical presence and a code compared by eye.

The page asks (a `pair` request carrying the SHA-256 of the browser's session token, never the
token itself, and the address the request came from). When the window opens the daemon draws a code
of four dice faces, 1 to 6, from the system's random source (`unguessable`); the asking page shows
it, and the table says it ("Its code is four, two, six, one") and shows it on the lights, each
digit as that many lit pixels (or flashes of a single LED) in the digit's own colour. The parent
taps a parent card (`admin/<n>`) only when the phone and the table show the same code, as
Bluetooth's numeric comparison does. So a stranger on the Wi-Fi who asks at the same moment cannot
win the pairing: the table shows one window's code at a time, and the parent's phone shows a code
only while its own window is the one open.

Why dice faces: a ring or strip can show 1 to 6 lit pixels a child counts at a glance (no zero,
which no count of lights can show), a single LED flashes it within three seconds, and the voice
says it as words. 6^4 = 1296 codes: a look-alike needs the parent to compare against a window
that is not theirs, which the page never shows them.

Fairness (docs/WEB.md): one window is open at a time, and it runs its course (a later request
never replaces it: the code must not change while the parent reaches for the card). Requests
from other addresses queue behind it, one place per address, so the real phone waits at most one
window per address ahead of it, never for ever. An address whose window ended with no card pays
a cooldown before its next one, growing with each miss; a pairing forgives it.

What the client says (its label) is kept only as the pairing's name on the list of paired
phones, cleaned and bounded; the table never says it, and the play-by-play (which every
watching phone sees) names neither the label nor the code.

Confirmed pairings live in `pairings.json` in the state folder (0600, replaced atomically), so a
power cut neither loses nor half-writes one, and a stolen SD card holds no usable session token.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tabletap.controller import unguessable
from tabletap.controller.language.messages import msg, msg_p
from tabletap.controller.language.said import Said
from tabletap.controller.language.words import Words
from tabletap.controller.rules.base import Rejection
from tabletap.controller.state.atomic import atomic_write
from tabletap.controller.state.folder import StateFolder

log = logging.getLogger("tabletap.pairing")

WINDOW_SECONDS = 30.0
ADMIN_PIECE = re.compile(r"^admin/[0-9]+$")
TOKEN_HASH = re.compile(r"^[0-9a-f]{64}$")
LABEL_MAX = 40
MAX_PAIRINGS = 32  # a family has a few phones; a flood of pairings is a bug or an attack

CODE_LENGTH = 4
CODE_FACES = 6  # each digit 1..6, a die's faces
DIGIT_WORDS = ("one", "two", "three", "four", "five", "six")
# The colour of each digit's place, on the lights and on the page (app.css .code-0 ... .code-3):
# none of them the red of a refusal or the blue of the pause that starts the code again.
CODE_COLOURS = ("green", "yellow", "purple", "cyan")
DIGIT_SECONDS = 3.5  # one digit on the lights: six flashes of a single LED take three seconds
GAP_SECONDS = 1.5  # the plain blue pulse that marks where the code starts again

QUEUE_MAX = 16  # addresses waiting behind the open window (one place each)
QUEUE_STALE_SECONDS = 15.0  # a queued page that stopped asking for its status has gone
COOLDOWN_MAX = 600.0
FORGIVEN_SECONDS = 3600.0  # an address's misses are forgotten an hour after its last one
FINISHED_KEPT = 32  # finished requests kept so their pages learn how they ended

LOCAL = "local"  # the address of a request that names none (the console, a test)


class PairingError(ValueError):
    """A pairing request the table cannot take; the message is the sentence to show.
    `retry_after` (seconds) when the same address may ask again later: the page answers 429."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def clean_label(label: Any, default: str = "a phone") -> str:
    """The name a page gave its phone, fit for the list of pairings: letters, digits, spaces
    and a little punctuation, no control or formatting characters (which could disguise it),
    at most LABEL_MAX characters. It is never spoken."""
    if not isinstance(label, str):
        return default
    kept = []
    for ch in unicodedata.normalize("NFKC", label):
        kind = unicodedata.category(ch)
        if kind[0] in "LN" or ch in " '-.,()&+_#":
            kept.append(ch)
        elif kind[0] in "ZC":
            kept.append(" ")
    text = " ".join("".join(kept).split())[:LABEL_MAX].strip()
    return text or default


def clean_address(address: Any) -> str:
    """The client address the page saw, as a key for queueing and cooldowns."""
    if isinstance(address, str) and 0 < len(address) <= 64 and re.fullmatch(r"[0-9A-Za-z.:%_-]+",
                                                                             address):
        return address
    return LOCAL


def draw_code() -> str:
    """Four digits 1..6 from the system's random source (`unguessable`, never `random`)."""
    return "".join(str(1 + unguessable.randbelow(CODE_FACES)) for _ in range(CODE_LENGTH))


def _digit(d: int) -> Said:
    """One digit of a code as a word of the family's language."""
    return (
        # TRANSLATORS: the digits of a pairing code, said one by one as words
        msg_p("code digit", "one"),
        # TRANSLATORS: the digits of a pairing code, said one by one as words
        msg_p("code digit", "two"),
        # TRANSLATORS: the digits of a pairing code, said one by one as words
        msg_p("code digit", "three"),
        # TRANSLATORS: the digits of a pairing code, said one by one as words
        msg_p("code digit", "four"),
        # TRANSLATORS: the digits of a pairing code, said one by one as words
        msg_p("code digit", "five"),
        # TRANSLATORS: the digits of a pairing code, said one by one as words
        msg_p("code digit", "six"),
    )[d - 1]


def code_said(code: str) -> Said:
    """'4261' as the voice says it: 'four, two, six, one' (espeak-ng reads words, not a number
    of four thousand)."""
    out = _digit(int(code[-1]))
    for d in reversed(code[:-1]):
        # TRANSLATORS: between two digits of a pairing code said aloud (a short pause)
        out = msg_p("code digits", "%(digit)s, %(rest)s", digit=_digit(int(d)), rest=out)
    return out


def code_words(code: str) -> str:
    return Words()(code_said(code))


def asking_sentence(code: str) -> Said:
    """What the table says when a window opens: the code and nothing a client wrote."""
    # TRANSLATORS: said aloud when a phone asks to pair; code is four digits said as words.
    # The parent card is the card that lets a grown-up pair a phone
    return msg("A phone asks to pair. Its code is %(code)s. Again: %(code)s. Tap the parent "
               "card only if the phone shows the same code.", code=code_said(code))


def cooldown(misses: int, window: float) -> float:
    """How long an address waits after its `misses`-th window in a row ended with no card: the
    first retry is free (a parent who was too slow), then one window, two, four... at most
    COOLDOWN_MAX."""
    if misses <= 1:
        return 0.0
    return min(window * 2 ** (misses - 2), COOLDOWN_MAX)


@dataclass
class Pairing:
    id: str
    label: str
    token_sha256: str
    created: float  # Unix time
    card: str  # the parent card that confirmed it

    def public(self) -> dict[str, Any]:
        """What may leave the daemon: everything but the token's hash."""
        return {"id": self.id, "label": self.label, "created": self.created, "card": self.card}


@dataclass
class Request:
    """A pairing asked for: queued behind the open window, then waiting for the parent card."""

    id: str
    label: str
    token_sha256: str
    address: str = LOCAL
    seen: float = 0.0  # when its page last asked (a queued page that left is skipped)
    code: str | None = None  # drawn when its window opens
    expires: float | None = None  # on the daemon's clock, once open
    opened: float | None = None
    outcome: str = "queued"  # queued, waiting, paired, expired, gone
    pairing_id: str | None = None


@dataclass
class PairingStore:
    path: Path
    pairings: list[Pairing] = field(default_factory=list)

    @classmethod
    def load(cls, state_dir: str | Path) -> PairingStore:
        """The stored pairings; a damaged file is logged and read as none (every phone pairs
        again) rather than stopping the table."""
        path = StateFolder(state_dir).pairings
        store = cls(path)
        if not path.exists():
            return store
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            store.pairings = [Pairing(**p) for p in data["pairings"]]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.error("%s is damaged (%s): every phone must pair again", path, exc)
            store.pairings = []
        return store

    def save(self) -> None:
        text = json.dumps({"pairings": [asdict(p) for p in self.pairings]}, indent=1)
        old = os.umask(0o177)  # the temp file is created 0600 before the rename
        try:
            atomic_write(self.path, text + "\n")
        finally:
            os.umask(old)
        os.chmod(self.path, 0o600)

    def find(self, token_sha256: str) -> Pairing | None:
        return next((p for p in self.pairings if p.token_sha256 == token_sha256), None)


class PairingDesk:
    """The daemon's side of pairing: one open window at a time, a queue behind it, confirmed by
    a parent card when the codes match.

    `show(pattern, hold)` and `narrate(text)` (the play-by-play) come from the session, `say`
    (the voice) too, so a desk needs no hardware of its own; `light(now)` tells the session's
    listener what the lights show at each moment of the open window.
    """

    def __init__(self, store: PairingStore, show: Callable[[str, bool], None],
                 narrate: Callable[[str | Said], None], window: float = WINDOW_SECONDS,
                 say: Callable[[str | Said], None] | None = None) -> None:
        self.store = store
        self.show = show
        self.narrate = narrate
        self.say = say or (lambda text: None)
        self.window = window
        self.request: Request | None = None  # the open window, or the last one to close
        self.queue: list[Request] = []
        self.finished: dict[str, Request] = {}
        self.misses: dict[str, tuple[int, float]] = {}  # address -> (misses in a row, when)
        self.version = 0  # bumped on every change a page should see

    # -- requests from the page -----------------------------------------------------------

    def start(self, token_sha256: Any, label: Any, now: float,
              address: Any = LOCAL) -> Request:
        """Open a window for this browser, or queue it behind the open one; the same browser
        asking again gets its own request back."""
        if not isinstance(token_sha256, str) or not TOKEN_HASH.match(token_sha256):
            raise PairingError("bad request: `token_sha256` is the hex SHA-256 of the session "
                               "token")
        label, address = clean_label(label), clean_address(address)
        if self.store.find(token_sha256):
            raise PairingError("This browser is already paired.")
        self.tick(now)
        for r in self._asking():
            if r.token_sha256 == token_sha256:
                r.seen = now
                return r
        mine = next((r for r in self._asking() if r.address == address), None)
        if mine is not None:
            ahead = self.queue.index(mine) if mine in self.queue else -1
            wait = self._wait_estimate(ahead + 1, now)
            raise PairingError("Another browser at this address is already asking to pair; "
                               f"finish that one, or wait {int(wait) + 1} seconds.",
                               retry_after=wait)
        wait = self._cooldown_left(address, now)
        if wait > 0:
            raise PairingError(f"This phone asked to pair several times with no parent card; "
                               f"wait {int(wait) + 1} seconds, then press Pair again.",
                               retry_after=wait)
        if len(self.store.pairings) >= MAX_PAIRINGS:
            raise PairingError(f"The table already has {MAX_PAIRINGS} pairings; revoke one "
                               "first.")
        if len(self.queue) >= QUEUE_MAX:
            raise PairingError("Too many devices are asking to pair; try again in "
                               f"{int(self._wait_estimate(len(self.queue), now)) + 1} seconds.")
        r = Request(unguessable.token_hex(8), label, token_sha256, address, seen=now)
        if self.waiting:
            self.queue.append(r)
            self.version += 1
        else:
            self._open(r, now)
        return r

    def status(self, request_id: Any, now: float, token_sha256: Any = None) -> dict[str, Any]:
        """How a request stands. The code is only told to the browser that asked (the page
        passes its token's hash): no other phone should show the table's code."""
        self.tick(now)
        r = self._find(request_id)
        if r is None or (token_sha256 is not None and token_sha256 != r.token_sha256):
            return {"status": "unknown"}
        r.seen = now
        out: dict[str, Any] = {"status": r.outcome}
        if r.outcome == "queued":
            ahead = self.queue.index(r)
            out["ahead"] = ahead + 1  # the open window counts
            out["seconds_until"] = round(self._wait_estimate(ahead, now), 1)
        elif r.outcome == "waiting" and r.expires is not None:
            out["seconds_left"] = round(max(0.0, r.expires - now), 1)
            if token_sha256 is not None:
                out["code"] = r.code
        if r.pairing_id:
            out["pairing"] = r.pairing_id
        return out

    def answer(self, r: Request, now: float) -> dict[str, Any]:
        """The reply to the browser that just asked: its request, and its code if open."""
        return {"request": r.id, **self.status(r.id, now, r.token_sha256)}

    def check(self, token_sha256: Any) -> Pairing | None:
        if not isinstance(token_sha256, str):
            return None
        return self.store.find(token_sha256)

    def revoke(self, pairing_id: Any) -> Pairing:
        found = next((p for p in self.store.pairings if p.id == pairing_id), None)
        if found is None:
            raise PairingError(f"No pairing {pairing_id!r}; `tabletap web pairings` lists them.")
        self.store.pairings = [p for p in self.store.pairings if p is not found]
        self.store.save()
        self.version += 1
        # TRANSLATORS: the play-by-play when a grown-up removed a paired phone
        self.narrate(msg("A phone's pairing is revoked."))
        return found

    def listing(self) -> list[dict[str, Any]]:
        return [p.public() for p in self.store.pairings]

    # -- the table ------------------------------------------------------------------------

    def tap(self, reader: str, piece: str, now: float) -> None:
        """A parent card at a reader: confirms the open window, or is refused."""
        self.tick(now)
        r = self.request
        if r is None or r.outcome != "waiting":
            # TRANSLATORS: refusal of the parent card when no phone asked to pair
            raise Rejection("no-pairing", msg(
                "No phone is waiting to pair: ask on the page first, then tap the parent card "
                "when the codes match."))
        pairing = Pairing(unguessable.token_hex(6), r.label, r.token_sha256, time.time(), piece)
        self.store.pairings.append(pairing)
        try:
            self.store.save()
        except OSError as exc:
            self.store.pairings.pop()
            log.error("the pairing could not be saved: %s", exc.strerror or exc)
            # TRANSLATORS: refusal of the parent card when the memory card could not be written
            raise Rejection("pairing-not-saved", msg(
                "The table could not save the pairing; check the memory card, then try "
                "again.")) from None
        r.outcome, r.pairing_id = "paired", pairing.id
        self.misses.pop(r.address, None)
        self.version += 1
        log.info("paired %s (%s, from %s) with %s at %s", pairing.id, pairing.label, r.address,
                 piece, reader)
        # TRANSLATORS: the play-by-play and the voice when a phone has been paired
        self.narrate(msg("The phone is paired."))
        self.say(msg("The phone is paired."))
        self.show("accepted", True)
        self._next(now)

    def tick(self, now: float) -> None:
        """Close a window whose time is up (a miss for its address), and open the next. A
        queued page that stopped asking has gone: its place (and its address's) is freed."""
        for gone in [q for q in self.queue if now - q.seen > QUEUE_STALE_SECONDS]:
            self.queue.remove(gone)
            gone.outcome = "gone"
            self._finish(gone)
            self.version += 1
        r = self.request
        if r is not None and r.outcome == "waiting" and r.expires is not None \
                and now >= r.expires:
            r.outcome = "expired"
            count, _ = self.misses.get(r.address, (0, now))
            self.misses[r.address] = (count + 1, now)
            self.version += 1
            # TRANSLATORS: the play-by-play when the pairing time ran out
            self.narrate(msg("Nobody tapped the parent card: the phone is not paired."))
            self.show("rejected", True)
            self._next(now)
        elif not self.waiting and self.queue:
            self._next(now)

    def light(self, now: float) -> tuple[str | None, int | None] | None:
        """What the lights show now while a window is open, as (colour, count) of the
        `pairing` pattern: first the plain blue pulse (colour and count None) for GAP_SECONDS,
        then each digit for DIGIT_SECONDS as that many pixels or flashes in its place's colour,
        round again until the window closes. None while no window is open."""
        r = self.request
        if r is None or r.outcome != "waiting" or r.code is None or r.opened is None:
            return None
        t = (now - r.opened) % (GAP_SECONDS + DIGIT_SECONDS * len(r.code))
        if t < GAP_SECONDS:
            return (None, None)
        place = min(int((t - GAP_SECONDS) // DIGIT_SECONDS), len(r.code) - 1)
        return (CODE_COLOURS[place], int(r.code[place]))

    @property
    def waiting(self) -> bool:
        return self.request is not None and self.request.outcome == "waiting"

    # -- inside -----------------------------------------------------------------------------

    def _asking(self) -> list[Request]:
        """The open window's request and the queued ones."""
        return ([self.request] if self.waiting and self.request else []) + self.queue

    def _find(self, request_id: Any) -> Request | None:
        if not isinstance(request_id, str):
            return None
        for r in [*self._asking(), *self.finished.values()]:
            if r.id == request_id:
                return r
        return None

    def _wait_estimate(self, ahead: int, now: float) -> float:
        """Seconds until the request with `ahead` queued requests before it gets its window:
        what the open one has left, and at most a whole window for each before it."""
        r = self.request
        left = max(0.0, r.expires - now) if self.waiting and r and r.expires else 0.0
        return left + ahead * self.window

    def _cooldown_left(self, address: str, now: float) -> float:
        count, when = self.misses.get(address, (0, now))
        if now - when > FORGIVEN_SECONDS:
            self.misses.pop(address, None)
            return 0.0
        return max(0.0, when + cooldown(count, self.window) - now)

    def _finish(self, r: Request) -> None:
        self.finished[r.id] = r
        while len(self.finished) > FINISHED_KEPT:
            self.finished.pop(next(iter(self.finished)))

    def _next(self, now: float) -> None:
        """The window has closed: open the first queued request whose page is still there."""
        if self.request is not None:
            self._finish(self.request)
        while self.queue:
            r = self.queue.pop(0)
            if now - r.seen > QUEUE_STALE_SECONDS:
                r.outcome = "gone"
                self._finish(r)
                continue
            self._open(r, now)
            return
        self.version += 1

    def _open(self, r: Request, now: float) -> None:
        r.code, r.opened, r.expires, r.outcome = draw_code(), now, now + self.window, "waiting"
        self.request = r
        self.version += 1
        sentence = asking_sentence(r.code)
        # the journal keeps what was said (in English: the log is read by whoever mends the box)
        log.info("pairing window %s open for %s: the table says %r", r.id, r.address,
                 Words()(sentence))
        # The play-by-play reaches every watching phone: it names no code, or a parent might
        # read a stranger's code there instead of on the pairing card of their own page.
        seconds = f"{self.window:g}"
        # TRANSLATORS: the play-by-play (every phone sees it) when a phone asks to pair;
        # seconds is how long the parent has
        self.narrate(msg("A phone asks to pair: the table says its code and shows it on the "
                         "lights; tap the parent card within %(seconds)s seconds only if the "
                         "phone shows the same code.", seconds=seconds))
        self.say(sentence)
        self.show("pairing", False)
