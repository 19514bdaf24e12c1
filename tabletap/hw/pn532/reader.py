"""The PN532 tag reader: the `TagReader` and `TagWriter` ports over the unmodified adafruit driver.

One poll is one InListPassiveTarget for up to two targets (sent through the driver's own
`call_function`, because `read_passive_target` asks for one and raises on two), then, for each
tag not seen before, a read of its NDEF message (16-byte NTAG READs from page 3, so the capability
container comes with the first read) and InRelease. A tag resting on the reader costs one short
exchange per poll: its NDEF is cached by UID until it has been absent for a while. When a tag seen
in the last few polls is missing, the poll lists again at once, up to `relists` (2) times (see
`_relist`). A target whose SEL_RES says it is no NFC Forum type 2 tag (a MIFARE Classic, an
ISO-DEP card) is reported by UID alone: its memory is not read.

An empty reader waits for a tap instead of being polled (`arm`, the default): it leaves one
InListPassiveTarget with MaxRetries 0xFF outstanding, the daemon's loop waits on its
`wait_handle()` together with every other waiting reader's, and the poll after the chip answered
picks the answer up. While it waits a poll costs no exchange (docs/nfc.md, "Waiting for a tap").

Failure handling follows the field reports (docs/hardware-notes.md): a garbled reply (bad checksum,
unexpected frame) is `Poll(garbled=True)`, never an empty field; a chip that does not answer is
re-initialised on the next poll (it may have been power-cycled and lost its configuration; a reset
pin, if wired, is pulsed only once it stayed silent `unavailable_after` polls), and only
after `unavailable_after` silent polls in a row (or at once, if it never answered) does `poll` raise
`ReaderUnavailable` so the daemon shows `reader-missing` and backs off. A new reader object never
raises: the first contact happens in the first poll.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from adafruit_pn532.adafruit_pn532 import PN532, BusyError
from msgspec import Struct

from tabletap.controller.clock import SystemClock
from tabletap.controller.ports import (
    Clock,
    Poll,
    ReaderHeld,
    ReaderUnavailable,
    TagRead,
    TagWriteError,
)
from tabletap.hw.pn532.buswait import BusTimeout
from tabletap.hw.pn532.framing import PortGone, ReplyTimeout
from tabletap.hw.pn532.transports import Transport
from tabletap.hw.serial_open import PortInUse

log = logging.getLogger("tabletap.pn532")

IN_LIST_PASSIVE_TARGET = 0x4A
IN_DATA_EXCHANGE = 0x40
IN_RELEASE = 0x52
RF_CONFIGURATION = 0x32
COMM_TIMEOUT = 0x08  # RFConfiguration timeout code: 100 us * 2^(code-1) = 12.8 ms
NTAG_READ = 0x30
NTAG_WRITE = 0xA2
# An armed listing is renewed by a pass up to this long before its `arm` is up: the loop's
# pause ends at the soonest timer, the watchdog's second (Daemon.pause) a few milliseconds
# before the renewal armed in the pass before it, and without the slack each made a pass of
# its own, two a second on an empty table where one does (bench.live.stopwatch --idle).
RENEWAL_SLACK = 0.05

# Capability container size byte -> the page holding the dynamic lock bytes (NTAG213/215/216)
DYNAMIC_LOCK_PAGE = {0x12: 0x28, 0x3E: 0x82, 0x6D: 0xE2}

# SEL_RES (SAK) bits of targets whose memory is not NFC Forum type 2 (NTAG READ would be NAK'd or
# mean something else): MIFARE Classic/Plus (0x08, 0x10), ISO-DEP (0x20), NFC-DEP (0x40). NTAG21x
# and MIFARE Ultralight answer 0x00.
NOT_TYPE2 = 0x78

GARBLED_ERRORS = (RuntimeError, IndexError, TypeError, ValueError, AssertionError)


T = TypeVar("T")


# How long a reader must fail before it counts as missing, besides `unavailable_after` polls: the
# loop retries a failed poll at once (poll.confirm_period), so three failures can be a 0.1 s
# blip; a chip that browns out and restarts (the emulator's `vanish`, 0.3 s) must not become a
# reader-missing episode with its backoff, which made the tail of lifts under faults.
UNAVAILABLE_SECONDS_WAITING = 0.5


def waiting_reader(cfg: Any, context: dict[str, Any]) -> dict[str, Any]:
    """The reader settings that go with `readers.NAME.arm` (none when it is off), and those that
    follow the daemon's `poll.miss_threshold` (`context["miss_threshold"]`, set where the
    readers are built): the re-listings after a miss and the empty listings before a wait."""
    misses = context.get("miss_threshold")
    presence = {} if misses is None else {"recheck_polls": misses, "arm_after": misses}
    if not cfg.arm:
        return presence
    return {"clock": context.get("clock") or SystemClock(),
            "unavailable_seconds": UNAVAILABLE_SECONDS_WAITING, **presence}


class NoAnswer(Exception):
    """The chip said nothing (timeout, empty read, port gone)."""

    def __init__(self, message: str, port_gone: bool = False, held: bool = False) -> None:
        super().__init__(message)
        self.port_gone = port_gone
        self.held = held  # another program holds the port (PortInUse): not the wiring


class Garbled(Exception):
    """The chip answered with something that cannot be trusted."""


class TornRead(Exception):
    """A tag stopped answering part-way through a read or write."""


class _Cached(Struct):
    ndef: bytes | None
    absent: int = 0


class _Wire:
    """Around every exchange with the chip: the driver's failures, sorted into silence
    (NoAnswer, after draining the line), a port that failed (NoAnswer with port_gone) and a
    reply that cannot be trusted (Garbled). A class with `__exit__` rather than a
    generator-based context manager: it is entered a dozen times and more a tap, and the
    generator made and run at each of them was about half of the reader's own Python per
    exchange (35 -> 17-20 µs; docs/BENCHMARKS.md, "One exchange, layer by layer")."""

    __slots__ = ("reader",)

    def __init__(self, reader: Pn532Reader) -> None:
        self.reader = reader

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: object) -> bool:
        if kind is None:
            return False
        reader = self.reader
        if issubclass(kind, (ReplyTimeout, BusTimeout)):  # before OSError: a ReplyTimeout is one
            reader._armed_at = None
            reader._resync()
            raise NoAnswer(str(exc)) from None
        if issubclass(kind, BusyError):
            reader._armed_at = None
            reader._resync()
            raise NoAnswer(f"empty read ({exc})") from None
        if issubclass(kind, (OSError, PortGone)):
            reader._armed_at = None
            raise NoAnswer(f"serial port failed ({exc})", port_gone=True) from None
        if issubclass(kind, GARBLED_ERRORS):
            reader._armed_at = None
            reader._resync()
            assert exc is not None
            raise Garbled(" ".join(str(a) for a in exc.args) or kind.__name__) from None
        return False


class Pn532Reader:
    """One PN532 on one transport. Implements TagReader and TagWriter."""

    def __init__(
        self,
        name: str,
        transport: Transport,
        *,
        max_targets: int = 2,
        passive_retries: int = 1,
        unavailable_after: int = 3,
        forget_after: int = 20,
        call_timeout: float = 1.0,
        recheck: bool = True,
        recheck_polls: int = 2,
        relists: int = 2,
        arm: float = 0.0,
        arm_after: int = 2,
        clock: Clock | None = None,
        unavailable_seconds: float = 0.0,
    ) -> None:
        if max_targets not in (1, 2):
            raise ValueError("a PN532 lists one or two targets at a time")
        self.name = name
        self.transport = transport
        self.max_targets = max_targets
        self.passive_retries = passive_retries
        self.unavailable_after = unavailable_after
        self.forget_after = forget_after
        self.call_timeout = call_timeout
        self.recheck = recheck
        # the daemon's miss_threshold (default 2; `waiting_reader`): every miss that could
        # count towards a removal gets its extra listings, and no later one does. It was 5: a
        # lifted tag then cost two extra listings at every poll of a piece resting after it,
        # for as long as three armed renewals (1.5 s) while the reader waited between.
        self.recheck_polls = recheck_polls
        self.relists = relists  # extra listings, at most, while a recently seen tag is missing
        # Waiting for a tap (0: never; else seconds an armed listing lasts before it is renewed).
        # An empty reader leaves one InListPassiveTarget with MaxRetries 0xFF outstanding: the
        # chip keeps activating and answers a few ms after a tag arrives, while the daemon's
        # loop waits on every armed reader at once (`wait_handle`) instead of polling. Renewing
        # it (an ACK aborts it, a new one is sent and ACK'd) is what shows the chip is still
        # alive. UART, or SPI/I2C with the IRQ line wired (the transport `waits`); docs/nfc.md.
        self.arm = arm
        self._armed_at: float | None = None  # when the outstanding armed listing was sent
        # empty listings in a row before a poll waits: the daemon's miss_threshold (default 2),
        # so a lifted piece is counted at the quick pace before the reader starts waiting
        self.arm_after = arm_after
        self._empty = 0  # listings in a row that found no tag
        self._retries: int | None = None  # the MaxRetries the chip was last given
        self._release_due = False  # an InRelease owed from the last poll (sent at the next)
        self._pn: PN532 | None = None
        self._answered = False
        self._failures = 0
        # With quick polls (poll.resting_period) three failed polls can be a 0.1 s blip: the
        # reader then counts as missing only once it has also failed for this long (clock)
        # (waiting needs a clock: an armed listing is renewed every `arm` seconds)
        self.clock = clock if clock is not None or not arm else SystemClock()
        self.unavailable_seconds = unavailable_seconds
        self._failing_since: float | None = None
        self._cache: dict[bytes, _Cached] = {}
        self._target: dict[bytes, int] = {}  # the tag a TagWriter call is working on
        self._opaque: set[bytes] = set()  # UIDs listed with a SEL_RES that is not type 2
        self.stats = {"polls": 0, "garbled": 0, "no_answer": 0, "reads": 0, "starts": 0}
        self._wire = _Wire(self)  # entered around every exchange

    # --- the wire ------------------------------------------------------------------------------
    def _call(self, command: int, params: bytes | list[int], response_length: int) -> bytes:
        self.disarm()
        pn = self._pn
        if pn is None:
            raise NoAnswer("the reader is not initialised")
        with self._wire:
            resp = pn.call_function(
                command, response_length=response_length, params=params, timeout=self.call_timeout
            )
        if resp is None:
            self._resync()
            raise NoAnswer("no reply within the driver's timeout")
        return bytes(resp)

    def _resync(self) -> None:
        try:
            self.transport.drain()
        except PortGone:
            pass  # the next exchange finds out and reopens the port

    def _start(self) -> None:
        """Wake and configure the chip: the driver's constructor (wake-up, SAMConfiguration,
        firmware check), then RFConfiguration MaxRetries so an empty field answers at once
        instead of the chip's default of retrying for ever."""
        self.stats["starts"] += 1
        try:
            reset = getattr(self.transport, "reset", None)
            if reset is not None and self._failures >= self.unavailable_after:
                # silent for `unavailable_after` polls: maybe hung, not merely a dropped reply
                reset.pulse()
            self._pn = self.transport.connect()
            # MxRtyATR (default), MxRtyPSL (default), MxRtyPassiveActivation
            self._call(RF_CONFIGURATION, [0x05, 0xFF, 0x01, self.passive_retries & 0xFF], 0)
            self._retries = self.passive_retries & 0xFF
            # Timings: RFU, ATR_RES (default 0x0B), and the time the chip waits for a tag in
            # InDataExchange. The default, 0x0A = 51.2 ms, outlasts the adapter's 50 ms frame
            # timeout, so a tag leaving mid-read would look like a silent chip (ReplyTimeout and
            # a drain); 0x08 = 12.8 ms gets the chip's own "tag gone" status (0x01) first.
            self._call(RF_CONFIGURATION, [0x02, 0x00, 0x0B, COMM_TIMEOUT], 0)
            if self._failures:
                # it answered: whatever fails next is a new silence (a dropped reply followed by
                # a brown-out is two short ones, not one long enough to count as missing)
                self._failing_since = None
        except NoAnswer:
            self._pn = None
            raise
        except BusTimeout as exc:
            self._pn = None
            raise NoAnswer(f"{self.transport.description}: {exc}") from None
        except (OSError, PortGone) as exc:  # ReplyTimeout included: handled as port trouble only
            self._pn = None  # when it is not a mere silence
            gone = not isinstance(exc, ReplyTimeout)
            if not gone:
                self._resync()
            raise NoAnswer(f"cannot reach {self.transport.description}: {exc}", gone,
                           isinstance(exc, PortInUse)) from None
        except (BusyError, Garbled, *GARBLED_ERRORS) as exc:
            # "Failed to detect the PN532", a missing ACK, "No I2C device at address", a garbled
            # answer: whatever it was, the chip is not ready to poll
            self._pn = None
            self._resync()
            detail = " ".join(str(a) for a in exc.args) or type(exc).__name__
            raise NoAnswer(f"{self.transport.description}: {detail}") from None

    def _held(self, exc: NoAnswer) -> ReaderHeld:
        """The missing reader whose port another program holds (`NoAnswer.held`)."""
        return ReaderHeld(f"reader {self.name} ({self.transport.description}): {exc}")

    def _failed(self, exc: NoAnswer) -> Poll:
        self._armed_at = None
        self._pn = None  # re-initialise on the next poll: the chip may have lost its settings
        if exc.port_gone:
            self.transport.disconnect()
        self._failures += 1
        self.stats["no_answer"] += 1
        now = self.clock.now() if self.clock is not None else 0.0
        if self._failing_since is None:
            self._failing_since = now
        long_enough = self.clock is None or (
            now - (self._failing_since or now) >= self.unavailable_seconds
        )
        if not self._answered or (self._failures >= self.unavailable_after and long_enough):
            self._forget_misses()
            if exc.held:
                raise self._held(exc)
            raise ReaderUnavailable(
                f"reader {self.name} ({self.transport.description}) does not answer: {exc}"
            )
        return Poll(garbled=True)

    def firmware_version(self) -> tuple[int, ...] | None:
        """GetFirmwareVersion (IC, Ver, Rev, Support), for `tabletap doctor`; None when the chip
        is not reachable now."""
        try:
            if self._pn is None:
                self._start()
            return tuple(self._call(0x02, b"", 4)[:4])
        except (NoAnswer, Garbled):
            return None

    # --- polling -------------------------------------------------------------------------------
    def poll(self) -> Poll:
        self.stats["polls"] += 1
        self._target = {}
        try:
            if self._pn is None:
                self._start()
            if self._armed_at is not None:
                armed_since = self._armed_at
                found = self._armed_result()
                if found is None:  # still waiting, nothing came: the field is still empty
                    # The chip watches the field, not this pass: only a renewal (one every
                    # `arm` seconds) is a listing for the cache's age, so how often the loop
                    # happens to pass (a phone's requests) does not decide when a lifted tag
                    # is forgotten.
                    return self._answered_poll([], listed=self._armed_at != armed_since)
                targets = found
            else:
                if self._release_due:
                    self._release_due = False
                    self._call(IN_RELEASE, [0x00], 1)
                self._set_retries(self.passive_retries)
                targets = self._list_targets()
                for _ in range(self.relists if self.recheck else 0):
                    if not self._missing(targets):
                        break
                    targets = self._relist(targets)
        except NoAnswer as exc:
            return self._failed(exc)
        except Garbled as exc:
            self.stats["garbled"] += 1
            log.debug("reader %s: garbled reply (%s)", self.name, exc)
            return Poll(garbled=True)
        return self._answered_poll(targets)

    def _answered_poll(self, targets: list[tuple[int, bytes]], listed: bool = True) -> Poll:
        self._failures, self._failing_since = 0, None
        self._answered = True
        self._empty = 0 if targets else self._empty + 1
        before = self.stats["reads"]
        reads = tuple(self._tag(tg, uid) for tg, uid in targets)
        if self.stats["reads"] != before:  # tags that were read are let go; resting ones need
            if self.arm:  # nothing, as the next InListPassiveTarget starts afresh anyway
                self._release_due = True  # waiting for a tap: report it first, release later
            else:
                try:
                    self._call(IN_RELEASE, [0x00], 1)
                except (NoAnswer, Garbled):
                    pass
        if listed:
            self._age_cache({uid for _, uid in targets})
        if self._may_arm():
            try:
                self._arm_listing()
            except (NoAnswer, Garbled):
                self._armed_at = None  # the next poll lists as usual and finds out
        return Poll(reads)

    def _forget_misses(self) -> None:
        """The reader counts as missing, and the daemon's tracker forgets its miss counts
        (`PresenceTracker.forget`): so does the reader. Its own counts decide the re-listings
        (`_missing`) and when it starts waiting (`_may_arm`), and both must start again with
        the tracker's. The defect: a piece missed once before an outage was re-listed one poll
        fewer than the tracker counted after it, and the reader armed after the first empty
        listing on its return; the armed poll's empty field was the tracker's second miss, a
        phantom lift and a second placement (`tests/nfc/test_waiting.py`)."""
        self._empty = 0
        for entry in self._cache.values():
            entry.absent = 0

    # --- waiting for a tap ---------------------------------------------------------------------
    def _may_arm(self) -> bool:
        """Leave an armed listing outstanding after this poll: waiting is on, the transport can,
        none is outstanding, and the last `arm_after` listings found the field empty (a resting
        or just-lifted tag gets quick listings, and their re-listings, so a lift is counted at
        the loop's pace before the reader starts waiting)."""
        return (
            self.arm > 0
            and self._armed_at is None
            and self._empty >= self.arm_after
            and self._pn is not None
            and getattr(self.transport, "waits", False)
        )

    def _now(self) -> float:
        return self.clock.now() if self.clock is not None else 0.0

    def _arm_listing(self) -> None:
        """Send one InListPassiveTarget the chip keeps retrying until a tag comes (MaxRetries
        0xFF; PN532 user manual, RFConfiguration item 5) and return once it is ACK'd, without
        waiting for the answer: the driver's `send_command`, the first half of its
        `call_function` (its `listen_for_passive_target` asks for one target only)."""
        try:
            self.transport.wait_handle()  # type: ignore[attr-defined]
        except Exception as exc:  # noqa: BLE001 - e.g. gpiozero cannot watch the IRQ pin
            log.error("reader %s: cannot wait for taps (%s); it is polled instead", self.name, exc)
            self.arm = 0.0
            return
        if self._release_due:
            self._release_due = False
            self._call(IN_RELEASE, [0x00], 1)
        self._set_retries(0xFF)
        self._send(IN_LIST_PASSIVE_TARGET, [self.max_targets, 0x00])
        self._armed_at = self._now()

    def _armed_result(self) -> list[tuple[int, bytes]] | None:
        """The outstanding armed listing's answer if it came (the driver's `process_response`,
        the second half of `call_function`); None while it is still waiting. Every `arm`
        seconds an unanswered one is aborted and sent again: the new ACK shows the chip is
        still there (a chip that lost power and restarted would wait for a wake-up for ever)."""
        with self._wire:  # a port that failed under the wait is NoAnswer(port_gone)
            answered = self.transport.reply_waiting()  # type: ignore[attr-defined]
        if answered:
            self._armed_at = None
            return self._parse_targets(self._response(IN_LIST_PASSIVE_TARGET, 1 + 15 * 2))
        if self._now() - (self._armed_at or 0.0) < self.arm - RENEWAL_SLACK:
            return None
        self.disarm()
        self._arm_listing()
        return None

    def disarm(self) -> None:
        """Abort an outstanding armed listing: an ACK frame from the host aborts the command in
        progress (PN532 user manual 6.2.1.3). Any other exchange must come after it."""
        if self._armed_at is None:
            return
        self._armed_at = None
        try:
            self.transport.abort()  # type: ignore[attr-defined]
        except PortGone:
            pass  # the next exchange finds out and reopens the port

    def _set_retries(self, retries: int) -> None:
        if self._retries != retries:
            self._call(RF_CONFIGURATION, [0x05, 0xFF, 0x01, retries & 0xFF], 0)
            self._retries = retries

    def list_uids(self, retries: int) -> set[bytes] | None:
        """The UIDs one InListPassiveTarget finds with MxRtyPassiveActivation `retries` (0: one
        activation; 5: six), outside any poll (ports.ListsTargets: `tabletap tags misses` counts
        a resting tag's misses at each). None when the reply was lost or garbled: that is
        neither a tag seen nor one missed. A port another program holds raises ReaderHeld: no
        number of listings will reach the chip."""
        try:
            if self._pn is None:
                self._start()
            self._set_retries(retries)
            return {uid for _, uid in self._list_targets()}
        except NoAnswer as exc:
            if exc.held:
                raise self._held(exc) from None
            return None
        except Garbled:
            return None

    def renewal_due(self) -> float | None:
        """When the outstanding armed listing is due for renewal (the chip's liveness check),
        on the reader's clock; None when none is outstanding. Until then a waiting reader
        needs no pass of the loop: its answer wakes the loop. A pass up to RENEWAL_SLACK
        before it renews too (`_armed_result`)."""
        if self._armed_at is None or not self.arm:
            return None
        return self._armed_at + self.arm

    def wait_handle(self) -> Any:
        """What the daemon's loop waits on while this reader waits for a tag (a serial port's
        file descriptor, or the emulated port); None when no armed listing is outstanding."""
        if self._armed_at is None:
            return None
        return self.transport.wait_handle()  # type: ignore[attr-defined]

    def _send(self, command: int, params: bytes | list[int]) -> None:
        pn = self._pn
        if pn is None:
            raise NoAnswer("the reader is not initialised")
        with self._wire:
            if not pn.send_command(command, params=params, timeout=self.call_timeout):
                self._resync()
                raise NoAnswer("no ACK within the driver's timeout")

    def _response(self, command: int, response_length: int) -> bytes:
        pn = self._pn
        if pn is None:
            raise NoAnswer("the reader is not initialised")
        with self._wire:
            resp = pn.process_response(
                command, response_length=response_length, timeout=self.call_timeout
            )
        if resp is None:
            self._resync()
            raise NoAnswer("no reply within the driver's timeout")
        return bytes(resp)

    def _missing(self, targets: list[tuple[int, bytes]]) -> bool:
        """Whether a tag seen in the last `recheck_polls` polls is missing from this listing."""
        listed = {uid for _, uid in targets}
        return any(
            c.absent < self.recheck_polls and uid not in listed for uid, c in self._cache.items()
        )

    def _relist(self, first: list[tuple[int, bytes]]) -> list[tuple[int, bytes]]:
        """List again at once: a resting tag that skipped one activation (the field fades, the
        tag is slow to wake) answers the next, a lifted one does not. With two extra listings a
        phantom miss needs three failed activations in a row, which is what lets the daemon
        count a lift after only two such polls (docs/nfc.md). The later listing names the active
        targets; a tag only the earlier saw is kept if it needs no read."""
        again = self._list_targets()
        listed = {uid for _, uid in again}
        kept = [(0, uid) for _, uid in first if uid not in listed and uid in self._cache]
        return again + kept[: max(0, self.max_targets - len(again))]

    def _list_targets(self) -> list[tuple[int, bytes]]:
        return self._parse_targets(
            self._call(IN_LIST_PASSIVE_TARGET, [self.max_targets, 0x00], 1 + 15 * 2)
        )

    def _parse_targets(self, resp: bytes) -> list[tuple[int, bytes]]:
        if not resp:
            raise Garbled("empty InListPassiveTarget reply")
        count, i, found = resp[0], 1, []
        if count > self.max_targets:
            raise Garbled(f"{count} targets reported, {self.max_targets} asked for")
        for _ in range(count):
            # Tg, SENS_RES (2), SEL_RES, NFCID length, NFCID (ATS follows for ISO14443-4 cards)
            if i + 5 > len(resp):
                raise Garbled("truncated target data")
            tg, sel_res, uid_len = resp[i], resp[i + 3], resp[i + 4]
            uid = resp[i + 5 : i + 5 + uid_len]
            if uid_len not in (4, 7, 10) or len(uid) != uid_len:
                raise Garbled(f"implausible UID length {uid_len}")
            i += 5 + uid_len
            if sel_res & 0x20:  # ISO14443-4 target: skip its ATS
                if i >= len(resp):
                    raise Garbled("truncated ATS")
                i += resp[i]
            if sel_res & NOT_TYPE2:
                self._opaque.add(bytes(uid))
            found.append((tg, bytes(uid)))
        return found

    def _tag(self, tg: int, uid: bytes) -> TagRead:
        cached = self._cache.get(uid)
        if cached is not None:
            cached.absent = 0
            return TagRead(uid, cached.ndef)
        if uid in self._opaque:
            # a MIFARE Classic or an ISO-DEP card: no NTAG memory to read (a READ is NAK'd and
            # would look like a torn read for ever); only the UID registry can name it
            self._cache[uid] = _Cached(None)
            return TagRead(uid, None)
        try:
            ndef = self._read_ndef(tg)
        except TornRead as exc:
            return TagRead(uid, None, error=str(exc))
        self._cache[uid] = _Cached(ndef)
        return TagRead(uid, ndef)

    def _age_cache(self, present: set[bytes]) -> None:
        for uid in list(self._cache):
            if uid in present:
                continue
            entry = self._cache[uid]
            entry.absent += 1
            if entry.absent >= self.forget_after:
                del self._cache[uid]
                self._opaque.discard(uid)

    # --- NTAG memory ---------------------------------------------------------------------------
    def _read16(self, tg: int, page: int) -> bytes:
        self.stats["reads"] += 1
        try:
            resp = self._call(IN_DATA_EXCHANGE, [tg, NTAG_READ, page & 0xFF], 17)
        except (NoAnswer, Garbled) as exc:
            raise TornRead(f"read of page {page} failed: {exc}") from None
        if not resp or resp[0] != 0x00:
            status = resp[0] if resp else -1
            raise TornRead(f"the tag stopped answering (page {page}, status 0x{status:02x})")
        if len(resp) != 17:
            raise TornRead(f"short read of page {page} ({len(resp) - 1} bytes)")
        return resp[1:]

    def _read_ndef(self, tg: int) -> bytes | None:
        """The NDEF message in the tag's TLV area: b"" for an empty (blank) one, None for a tag
        that is not NDEF-formatted at all (only its UID can name it). A TLV whose length runs
        past the tag's capacity is returned clipped, so decoding calls it corrupt."""
        head = self._read16(tg, 3)
        cc, data = head[:4], bytearray(head[4:])
        if cc[0] != 0xE1:
            return None
        capacity = cc[2] * 8

        def need(n: int) -> None:
            while len(data) < min(n, capacity):
                data.extend(self._read16(tg, 4 + len(data) // 4))

        i = 0
        while i < capacity:
            need(i + 4)
            tlv_type = data[i]
            if tlv_type == 0x00:  # NULL TLV
                i += 1
                continue
            if tlv_type == 0xFE:  # terminator before any NDEF TLV
                return b""
            length, header = data[i + 1], 2
            if length == 0xFF:
                length, header = (data[i + 2] << 8) | data[i + 3], 4
            if tlv_type == 0x03:
                need(i + header + length)
                return bytes(data[i + header : min(i + header + length, capacity)])
            i += header + length
        return b""

    # --- TagWriter -----------------------------------------------------------------------------
    def _ready_target(self, uid: bytes) -> int:
        """The logical target number of the tag with `uid`, from a fresh InListPassiveTarget."""
        last: Exception | None = None
        for _ in range(3):
            try:
                if self._pn is None:
                    self._start()
                for tg, found in self._list_targets():
                    if found == uid:
                        return tg
                raise TagWriteError("absent", f"tag {uid.hex(':')} is not on reader {self.name}")
            except NoAnswer as exc:
                self._pn = None
                if exc.port_gone:
                    self.transport.disconnect()
                last = exc
            except Garbled as exc:
                last = exc
        raise TagWriteError("io", f"reader {self.name} does not answer properly: {last}")

    def _retry(self, uid: bytes, action: str, fn: Callable[[int], T]) -> T:
        """Run `fn(tg)` on the tag, listing it afresh only when an attempt was torn."""
        last: Exception | None = None
        tg = self._target.get(uid)
        if tg is None:
            tg = self._ready_target(uid)
            self._target = {uid: tg}
        if uid in self._opaque:
            raise TagWriteError(
                "unformatted",
                "not an NFC Forum type 2 tag (its SEL_RES says MIFARE Classic or ISO-DEP): its "
                "memory cannot be read or written here; enrol it by UID with `tabletap tags "
                "enroll`",
            )
        for _ in range(3):
            if tg is None:
                tg = self._ready_target(uid)
                self._target = {uid: tg}
            try:
                return fn(tg)
            except TornRead as exc:
                last, tg = exc, None
                self._target = {}
        raise TagWriteError("io", f"{action} of tag {uid.hex(':')} failed: {last}")

    def read_ndef(self, uid: bytes) -> bytes | None:
        self._cache.pop(uid, None)
        self._target = {}
        return self._retry(uid, "reading", self._read_ndef)

    def is_locked(self, uid: bytes) -> bool:
        self._target = {}
        return bool(self._retry(uid, "checking the locks", self._locked))

    def _locked(self, tg: int) -> bool:
        head = self._read16(tg, 2)  # pages 2-5: static lock bytes, then the CC
        lock0, lock1, cc = head[2], head[3], head[4:8]
        if cc[0] == 0xE1 and cc[3] & 0x0F:  # CC write access: 0x0 granted, anything else not
            return True
        if lock0 & 0xF0 or lock1:  # L4..L7, L8..L15: user pages 4-15
            return True
        dyn = DYNAMIC_LOCK_PAGE.get(cc[2])
        if dyn is not None:
            dyn_bytes = self._read16(tg, dyn)[:3]
            if any(dyn_bytes):
                return True
        return False

    def write_ndef(self, uid: bytes, message: bytes) -> None:
        self._cache.pop(uid, None)
        if self.is_locked(uid):  # lists the tag; the pages below reuse its target number
            raise TagWriteError("locked", f"tag {uid.hex(':')} is locked (read-only)")
        cc = self._retry(uid, "reading the capability container",
                         lambda tg: self._read16(tg, 3)[:4])
        if cc[0] != 0xE1:
            raise TagWriteError(
                "unformatted",
                "the tag is not NDEF-formatted (no capability container); format it as NDEF "
                "with a phone app first, or enrol it by UID with `tabletap tags enroll`",
            )
        capacity = cc[2] * 8
        if len(message) < 0xFF:
            tlv = bytes([0x03, len(message)]) + message + b"\xfe"
            first_empty = bytes([0x03, 0x00])
        else:
            tlv = bytes([0x03, 0xFF, len(message) >> 8, len(message) & 0xFF]) + message + b"\xfe"
            first_empty = bytes([0x03, 0xFF, 0x00, 0x00])
        if len(tlv) > capacity:
            raise TagWriteError("full", f"{len(tlv)} bytes do not fit the tag's {capacity}")
        tlv += bytes(-len(tlv) % 4)
        pages = [tlv[i : i + 4] for i in range(0, len(tlv), 4)]
        # An interrupted write must leave an empty message, never half of one: the first page
        # goes in with a zero length, the rest follows, and the real length comes last.
        first = first_empty + pages[0][len(first_empty) :]
        self._write_page(uid, 4, first)
        for n, page in enumerate(pages[1:], start=5):
            self._write_page(uid, n, page)
        self._write_page(uid, 4, pages[0])

    def _write_page(self, uid: bytes, page: int, data: bytes) -> None:
        def write(tg: int) -> None:
            try:
                resp = self._call(IN_DATA_EXCHANGE, bytes([tg, NTAG_WRITE, page]) + data, 1)
            except (NoAnswer, Garbled) as exc:
                raise TornRead(f"write of page {page} failed: {exc}") from None
            if not resp or resp[0] == 0x01:
                raise TornRead(f"the tag stopped answering while page {page} was written")
            if resp[0] != 0x00:
                raise TagWriteError(
                    "locked", f"the tag refused page {page} (status 0x{resp[0]:02x})"
                )

        self._retry(uid, f"writing page {page}", write)

    def close(self) -> None:
        self.disarm()
        self._pn = None
        self.transport.disconnect()
