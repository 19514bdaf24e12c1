"""The daemon loop: poll the readers, track presence, read the buttons, feed the session.

Single-threaded and driven by an injected clock, so the simulator can run it on virtual time and
a test can step it tick by tick. Nothing a family does at the table, nor any reader fault, may end
this loop: a reader that fails is supervised (retried with backoff) while the others go on.
"""

from __future__ import annotations

import contextlib
import logging
import selectors
import time
from collections.abc import Callable
from typing import Any

from msgspec import Struct, field

from tabletap.controller.clock import SystemClock
from tabletap.controller.games.base import ButtonPressed, PieceLifted, PiecePlaced
from tabletap.controller.language.messages import msg
from tabletap.controller.language.said import Said
from tabletap.controller.ports import Buttons, Clock, Poll, ReaderUnavailable, TagReader
from tabletap.controller.rules.base import Rejection
from tabletap.controller.state.lock import StateLock
from tabletap.controller.table.identity import Identifier, IdentityError
from tabletap.controller.table.presence import PresenceTracker
from tabletap.controller.table.protocols import AdminDesk
from tabletap.controller.table.session import TableSession
from tabletap.controller.table.waiter import READER, LoopWaiter

log = logging.getLogger("tabletap.daemon")
# While pausing, the control socket is served this often (seconds): a request waits at most
# this long instead of up to a whole poll period; a pause that ends this much before its slice
# did so because a reader answered.
SERVE_SLICE = 0.04
WOKEN = 0.002
# The longest pause of a quiet table whose inputs wake the loop (Daemon.pause): what is left
# to do then is the watchdog's ping (service.PING_EVERY) and the timers the pause knows.
IDLE_PAUSE = 1.0

BACKOFF_START = 0.5
BACKOFF_MAX = 10.0

def _identity(code: str) -> tuple[str, Said]:
    """The refusal's code and sentence for a tag that names no piece (the detail is logged)."""
    match code:
        case "blank":
            # TRANSLATORS: refusal of a tag with nothing written on it yet
            return "blank-tag", msg("This tag is blank: a grown-up can write it from the phone "
                                    "page.")
        case "foreign":
            # TRANSLATORS: refusal of a tag from something else (a bus card, another toy)
            return "foreign-tag", msg("This tag is not one of the table's pieces.")
        case "unknown":
            # TRANSLATORS: refusal of a tag the table has not learned yet
            return "unknown-tag", msg("The table does not know this tag yet: a grown-up can "
                                      "add it from the phone page.")
    # TRANSLATORS: refusal of a tag that could not be read well
    return "corrupt-tag", msg("This tag could not be read properly; tap it again.")


class SupervisedReader(Struct):
    """One reader, with its presence tracker and its retry schedule when it goes missing."""

    reader: TagReader
    tracker: PresenceTracker
    missing: bool = False
    backoff: float = BACKOFF_START
    retry_at: float = 0.0
    failures: int = 0
    unsure: bool = False  # the last poll was garbled or failed: ask again soon

    def poll(self, now: float) -> list:
        if self.missing and now < self.retry_at:
            return []
        self.unsure = True
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
        self.unsure = poll.garbled
        return self.tracker.update(poll)

    def wants_confirm(self) -> bool:
        """Whether the next poll of this reader should come soon (`poll.confirm_period`): it
        decides a lift, completes a torn read, or retries a garbled or failed poll."""
        return not self.missing and (self.unsure or self.tracker.unsettled())


def pause_after_pass(
    readers: list[SupervisedReader], period: float, resting_period: float | None,
    confirm_period: float | None,
) -> float:
    """The loop's pause after a pass (Daemon.poll_wait, and the bench's and tests' loop)."""
    wait = period
    if resting_period is not None and any(sup.tracker.present() for sup in readers):
        wait = min(wait, resting_period)
    if confirm_period is not None and any(sup.wants_confirm() for sup in readers):
        wait = min(wait, confirm_period)
    return wait


def reader_handles(readers: list[Any]) -> list[Any]:
    """What the waiting readers offer to wait on (`wait_handle()`); a reader not waiting, or
    whose port just died, offers nothing (the next poll finds out)."""
    handles = []
    for reader in readers:
        get = getattr(reader, "wait_handle", None)
        try:
            handle = get() if get is not None else None
        except Exception:  # noqa: BLE001 - a port that just died: the next poll finds out
            log.debug("reader %s: no handle to wait on", getattr(reader, "name", "?"),
                      exc_info=True)
            handle = None
        if handle is not None:
            handles.append(handle)
    return handles


def wait_for_readers(readers: list[Any], clock: Clock, seconds: float,
                     handles: list[Any] | None = None) -> None:
    """Wait up to `seconds` for an answer from any reader that waits for a tap, all at once
    (each offers `wait_handle()`: a file descriptor waited on with `selectors`, or the
    emulated port on simulated time), or simply sleep when none is waiting. The handles carry
    the waiting (`type(handle).wait_all`), so this module needs no hardware import; readers of
    another kind than the first waiting one are seen at the next pass."""
    if handles is None:
        handles = reader_handles(readers)
    if not handles:
        clock.sleep(seconds)
        return
    kind = type(handles[0])
    started = clock.now()
    try:
        kind.wait_all([h for h in handles if type(h) is kind], seconds)
    except Exception:  # noqa: BLE001 - a descriptor closed under the wait must not end the loop
        log.exception("waiting on the readers failed; sleeping instead")
        clock.sleep(seconds - (clock.now() - started))


def wait_serving(handles: list[Any], requests: Callable[[], list[Any]],
                 serve: Callable[[], object], seconds: float) -> None:
    """The pause when every waiting reader is a file descriptor (a UART, an IRQ line) or none
    waits: one `select` over the readers and the control socket (`requests()`: the listening
    socket and the open consoles), so a request is answered the moment it arrives and the pause
    goes on, and a reader's answer ends the pause, at no cost while nothing happens."""
    end = time.monotonic() + seconds
    reader_fds = {h.fileno() for h in handles}
    while (left := end - time.monotonic()) > 0:
        with selectors.DefaultSelector() as selector:
            for fd in reader_fds:
                selector.register(fd, selectors.EVENT_READ, "reader")
            for sock in requests():
                with contextlib.suppress(KeyError, ValueError, OSError):
                    selector.register(sock, selectors.EVENT_READ, "request")
            ready = {key.data for key, _ in selector.select(left)}
        if "request" in ready:
            serve()
        if "reader" in ready or not ready:
            return


class Daemon(Struct):
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
    # tick(now), the phone page's desk (controller.control_socket.page.attach).
    admin: AdminDesk | None = None
    # the defaults of poll.resting_period and poll.confirm_period (docs/nfc.md, "Waiting for a tap")
    resting_period: float | None = 0.06
    confirm_period: float | None = 0.02
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
            elif self.admin is not None and self.admin.takes_press(inp.name, inp.kind, now):
                continue  # end-turn twice quickly: the table says its last sentence again
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
                code, sentence = _identity(exc.code)
                log.warning("reader %s: %s", reader, exc)
                self.session.reject(Rejection(code, sentence), now)
            return
        except Exception:  # noqa: BLE001 - no tag, however garbled, may end the game
            log.exception("reader %s: a tag could not be identified", reader)
            if kind == "placed":
                code, sentence = _identity("corrupt")
                self.session.reject(Rejection(code, sentence), now)
            return
        if self.admin is not None and piece.startswith(("admin/", "voice/")):  # the table's
            if kind == "placed":
                self.admin.tap(reader, piece, now)
            return
        event = PiecePlaced(reader, piece) if kind == "placed" else PieceLifted(reader, piece)
        log.info("reader %s: %s %s", reader, piece, "placed" if kind == "placed" else "lifted")
        self.session.handle(event, now)

    def poll_wait(self, period: float, resting_period: float | None,
                  confirm_period: float | None = None) -> float:
        """How long one pass of the loop lasts: `confirm_period` when the next poll decides
        something (a piece missed once, a garbled or failed poll), `resting_period` while a
        piece rests on any reader (a lift is then seen sooner), else `period`. Readers waiting
        for a tap wake the loop at once whatever this says (`idle`)."""
        return pause_after_pass(
            list(self._supervised.values()), period, resting_period, confirm_period
        )

    def pause(self, period: float, resting_period: float | None,
              confirm_period: float | None = None, idle_limit: float | None = None,
              started: float | None = None) -> float:
        """`poll_wait`, stretched while the table is quiet: every reader waits for a tap (or is
        missing, retried at its time), no piece rests, the session has no timer running but
        those of a known time (TableSession.wakes_at: the chest's relock, the lights'
        feedback) and `idle_limit` is given (the loop is woken by the buttons, so only timers
        are left). The pass then comes at the soonest timer: the session's, an armed listing's
        renewal, a missing reader's retry, or `idle_limit` (the watchdog's ping, the Pico
        link's sign of life).

        Like `poll_wait`, the wait is counted from the pass's start, `started` (now if not
        given), since the loop takes the pass's own time off it: a timer's wait counted from
        now ended the pause that much early, the renewal was not yet due, and the loop slept a
        whole poll period more, two wake-ups per renewal where one does."""
        wait = self.poll_wait(period, resting_period, confirm_period)
        if idle_limit is None or idle_limit <= wait:
            return wait
        timer = self.session.wakes_at()
        if timer is None:
            return wait
        now = self.clock.now() if started is None else started
        due = min(now + idle_limit, timer)
        for sup in self._supervised.values():
            if sup.missing:
                due = min(due, sup.retry_at)
                continue
            renewal = getattr(sup.reader, "renewal_due", None)
            at = renewal() if renewal is not None else None
            if at is None or sup.unsure or sup.tracker.present() or sup.tracker.unsettled():
                return wait
            due = min(due, at)
        return max(wait, due - now)

    def idle(self, seconds: float, serve: Callable[[], object] | None = None,
             requests: Callable[[], list[Any]] | None = None,
             waiter: LoopWaiter | None = None,
             serve_due: Callable[[], float | None] | None = None) -> str | None:
        """The loop's pause between passes: up to `seconds`, cut short by a tap on any reader
        that waits for one. With `serve` (the control socket's `serve_pending`) and `requests`
        (its sockets), a console or the phone page is answered during the pause rather than at
        the next pass (a touch on the page makes three round trips): in the same `select` as
        the readers where they are file descriptors, else every SERVE_SLICE (the simulator's
        emulated ports, which keep their own time). `serve_due` (the control socket's held answers)
        is served at its moment within the one selector's wait."""
        readers = [sup.reader for sup in self._supervised.values() if not sup.missing]
        handles = reader_handles(readers)
        if waiter is not None and isinstance(self.clock, SystemClock):
            return self._wait_in(waiter, seconds, handles, serve, requests, serve_due)
        if serve is None or requests is None:
            wait_for_readers(readers, self.clock, seconds, handles)
            return None
        if all(hasattr(h, "fileno") for h in handles) and isinstance(self.clock, SystemClock):
            try:
                wait_serving(handles, requests, serve, seconds)
                return None
            except (OSError, ValueError):  # a descriptor closed under the wait
                log.debug("waiting on the readers and requests failed", exc_info=True)
        end = self.clock.now() + seconds
        while (left := end - self.clock.now()) > 0:
            step = min(left, SERVE_SLICE)
            started = self.clock.now()
            wait_for_readers(readers, self.clock, step)
            serve()
            if self.clock.now() - started < step - WOKEN:
                return None  # a reader answered (or the simulated table changed): next pass
        return None

    def _wait_in(self, waiter: LoopWaiter, seconds: float, handles: list[Any],
                 serve: Callable[[], object] | None,
                 requests: Callable[[], list[Any]] | None,
                 serve_due: Callable[[], float | None] | None = None) -> str | None:
        """The pause in the loop's one selector (table/waiter.py): descriptors are waited on
        there; a handle that is none (the simulator's emulated port) is a timer at the moment
        its answer is on the host's side."""
        fds = [h for h in handles if hasattr(h, "fileno")]
        timers = []
        for handle in handles:
            if hasattr(handle, "fileno"):
                continue
            due = handle.port.ready_at() if hasattr(handle, "port") else \
                time.monotonic() + SERVE_SLICE
            if due is not None:
                timers.append(due)
        if timers and min(timers) <= time.monotonic():
            return READER
        try:
            return waiter.wait(seconds, fds, requests, serve, timers, self.poll_period,
                               serve_due)
        except (OSError, ValueError):  # a descriptor closed under the wait: the next pass
            log.debug("waiting on the readers and requests failed", exc_info=True)
            return None

    def run_for(self, seconds: float) -> None:
        """Tick for `seconds` of the daemon's clock (virtual in the simulator), pausing as
        `tabletap run` does."""
        end = self.clock.now() + seconds
        while self.clock.now() < end - 1e-9:
            started = self.clock.now()
            self.tick()
            wait = self.poll_wait(self.poll_period, self.resting_period, self.confirm_period)
            self.idle(min(wait - (self.clock.now() - started), end - self.clock.now()))

    def close(self) -> None:
        self.session.speaker.close()
        for reader in self.readers.values():
            try:
                reader.close()
            except Exception:  # noqa: BLE001 - closing must never mask the real error
                log.exception("closing reader %s", reader.name)
        if self.state_lock is not None:
            self.state_lock.release()
