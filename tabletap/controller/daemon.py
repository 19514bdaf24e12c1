"""The daemon loop: poll the readers, track presence, read the buttons, feed the session.

Single-threaded and driven by an injected clock, so the simulator can run it on virtual time and
a test can step it tick by tick. Nothing a family does at the table, nor any reader fault, may end
this loop: a reader that fails is supervised (retried with backoff) while the others go on.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from tabletap.controller.games.base import ButtonPressed, PieceLifted, PiecePlaced
from tabletap.controller.identity import Identifier, IdentityError
from tabletap.controller.ports import Buttons, Clock, Poll, ReaderUnavailable, TagReader
from tabletap.controller.presence import PresenceTracker
from tabletap.controller.rules.base import Rejection
from tabletap.controller.session import TableSession
from tabletap.controller.statelock import StateLock

log = logging.getLogger("tabletap.daemon")

BACKOFF_START = 0.5
BACKOFF_MAX = 10.0

IDENTITY_CODES = {
    "blank": ("blank-tag", "This tag is blank: program it with `tabletap tags write`."),
    "foreign": ("foreign-tag", "This tag does not belong to tabletap."),
    "corrupt": ("corrupt-tag", "This tag could not be read properly; tap it again."),
    "unknown": ("unknown-tag", "tabletap does not know this tag; enrol it first."),
}


@dataclass
class SupervisedReader:
    """One reader, with its presence tracker and its retry schedule when it goes missing."""

    reader: TagReader
    tracker: PresenceTracker
    missing: bool = False
    backoff: float = BACKOFF_START
    retry_at: float = 0.0
    failures: int = 0

    def poll(self, now: float) -> list:
        if self.missing and now < self.retry_at:
            return []
        try:
            poll = self.reader.poll()
        except ReaderUnavailable as exc:
            self.failures += 1
            if not self.missing:
                log.error("reader %s is missing (%s); retrying with backoff", self.reader.name, exc)
            self.missing = True
            self.retry_at = now + self.backoff
            self.backoff = min(self.backoff * 2, BACKOFF_MAX)
            return self.tracker.forget()
        except Exception:  # noqa: BLE001 - a driver bug must not end the game
            log.exception("reader %s: unexpected error, treated as a garbled reply",
                          self.reader.name)
            return self.tracker.update(Poll(garbled=True))
        if self.missing:
            log.warning("reader %s is back after %d failed attempts", self.reader.name,
                        self.failures)
        self.missing, self.backoff, self.failures = False, BACKOFF_START, 0
        return self.tracker.update(poll)


@dataclass
class Daemon:
    session: TableSession
    readers: dict[str, TagReader]
    buttons: Buttons
    clock: Clock
    identifier: Identifier
    poll_period: float = 0.1
    miss_threshold: int = 2
    state_lock: StateLock | None = None  # held while the daemon plays this state folder
    # Parent cards (`admin/<n>`) go here, never to the game, and every tag while a box is being
    # enrolled: an object with tap(reader, piece, now), takes_tag(kind, reader, tag) and
    # tick(now), the phone page's desk (controller.web_requests.attach).
    admin: Any = None
    _supervised: dict[str, SupervisedReader] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, reader in self.readers.items():
            self._supervised[name] = SupervisedReader(
                reader, PresenceTracker(name, self.miss_threshold)
            )

    def tick(self) -> None:
        """One pass: every reader once, the buttons, the timers."""
        now = self.clock.now()
        for name, sup in self._supervised.items():
            was_missing = sup.missing
            events = sup.poll(now)
            if sup.missing != was_missing:
                self.session.reader_status(name, sup.missing)
            for ev in events:
                self._presence(ev.kind, name, ev.tag, now)
        try:
            inputs = self.buttons.events()
        except Exception:  # noqa: BLE001 - a failing button board must not end the game
            log.exception("the buttons did not answer")
            inputs = []
        for inp in inputs:
            if inp.kind in ("lid-open", "lid-closed"):
                self.session.input(inp, now)
            else:
                self.session.handle(ButtonPressed(inp.name, inp.kind == "hold"), now)
        if self.admin is not None:
            self.admin.tick(self.clock.now())
        self.session.tick(self.clock.now())

    def _presence(self, kind: str, reader: str, tag: object, now: float) -> None:
        if self.admin is not None and self.admin.takes_tag(kind, reader, tag):
            return  # a box of tags is being enrolled from the phone
        try:
            piece = self.identifier.identify(tag)  # type: ignore[arg-type]
        except IdentityError as exc:
            if kind == "placed":
                code, sentence = IDENTITY_CODES[exc.code]
                log.warning("reader %s: %s", reader, exc)
                self.session.reject(Rejection(code, f"{sentence} ({exc})"), now)
            return
        except Exception as exc:  # noqa: BLE001 - no tag, however garbled, may end the game
            log.exception("reader %s: a tag could not be identified", reader)
            if kind == "placed":
                code, sentence = IDENTITY_CODES["corrupt"]
                self.session.reject(Rejection(code, f"{sentence} ({exc})"), now)
            return
        if self.admin is not None and piece.startswith("admin/"):
            if kind == "placed":
                self.admin.tap(reader, piece, now)
            return
        event = PiecePlaced(reader, piece) if kind == "placed" else PieceLifted(reader, piece)
        if kind == "placed":
            log.info("reader %s: %s placed", reader, piece)
        self.session.handle(event, now)

    def poll_wait(self, period: float, resting_period: float | None) -> float:
        """How long one pass of the loop lasts: `resting_period` while a piece rests on any
        reader (a lift is then seen sooner), else `period`."""
        if resting_period is not None and any(
            sup.tracker.present() for sup in self._supervised.values()
        ):
            return min(period, resting_period)
        return period

    def run_for(self, seconds: float) -> None:
        """Tick for `seconds` of the daemon's clock (virtual in the simulator)."""
        end = self.clock.now() + seconds
        while self.clock.now() < end - 1e-9:
            self.tick()
            self.clock.sleep(min(self.poll_period, end - self.clock.now()))

    def close(self) -> None:
        self.session.speaker.close()
        for reader in self.readers.values():
            try:
                reader.close()
            except Exception:  # noqa: BLE001 - closing must never mask the real error
                log.exception("closing reader %s", reader.name)
        if self.state_lock is not None:
            self.state_lock.release()
