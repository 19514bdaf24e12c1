"""The host's end of the Pico link: one background thread that owns the serial port.

It opens the port (finding the Pico if no path is configured), says hello, checks the protocol
version, sends the board its config, then sends commands one at a time, each with its own sequence
number, until acknowledged; a retransmission keeps its number, so the board never runs a command
twice. Board events are acknowledged and de-duplicated the same way. An unplug closes the port and
reopens it after a growing backoff; a board reset (a new boot id) or the board's report that it
sat in its safe state makes the link restore the latch and lights the host wants.
"""

from __future__ import annotations

import logging
import os
import random
import select
import threading
import time
from _thread import LockType
from collections import deque
from collections.abc import Callable
from typing import Any

import serial
from msgspec import Struct, field

from tabletap.firmware import protocol
from tabletap.hw.serial_fd import port_descriptor, write_all
from tabletap.hw.serial_link.discovery import find_port
from tabletap.hw.serial_open import open_exclusive

log = logging.getLogger("tabletap.serial")


STATE_OPS = ("latch", "show")  # commands whose latest body is the state a reset must restore


class LinkError(RuntimeError):
    """The board could not be reached in time."""


class ProtocolMismatch(LinkError):
    """The board runs a firmware whose protocol this host does not speak."""


class ConfigRefused(LinkError):
    """The board refused the host's cfg: it would drive the latch with its default limits."""


class LinkCrashed(LinkError):
    """The link thread stopped on an unexpected error; nothing more reaches the board."""


class Hello(Struct, frozen=True):
    fw: str
    proto: int
    boot: int
    caps: tuple[str, ...]
    buttons: tuple[str, ...]
    safe: bool
    port: str


class Ticket(Struct):
    """One command on its way to the board.

    Its number is given when it first goes in flight, not when it is queued: the board runs only
    numbers above the last one it ran, so a command queued before a resync's own commands must
    still get a higher number than they did.
    """

    body: dict[str, Any]
    seq: int = 0  # 0 until it first becomes the command in flight
    done: threading.Event = field(default_factory=threading.Event)
    # held until it first goes on the wire, when its submitter waits for that (`wire_wait`):
    # a bare lock, released once by the link's thread, costs the two threads less than an Event
    wire: LockType | None = None
    ok: bool | None = None
    err: str | None = None
    sent: int = 0  # how many times it went on the wire
    sent_at: float = 0.0
    acked_at: float = 0.0
    superseded: bool = False  # the board reset before acknowledging it; the resync replaced it

    def wait(self, timeout: float | None = None) -> bool:
        return self.done.wait(timeout)


def mismatch_message(hello: Hello) -> str:
    return (f"the board on {hello.port} runs tabletap firmware {hello.fw} speaking protocol "
            f"{hello.proto}, but this tabletap speaks protocol {protocol.VERSION}. Flash the "
            f"firmware that comes with this tabletap: tabletap firmware flash --port {hello.port}")


class BoardLink:
    def __init__(self, port: str | None = None, *, baud: int = 115200,
                 board_config: dict[str, Any] | None = None, host_timeout: float = 3.0,
                 retry: float = 0.1, backoff: tuple[float, float] = (0.05, 2.0),
                 find: Callable[[str | None], str] = find_port) -> None:
        self.configured_port = port
        self.baud = baud
        self.board_config = dict(board_config or {})
        self.retry = retry
        self.host_timeout = host_timeout
        self.ping_every = host_timeout / 6  # several chances before the board gives up on us
        self.backoff = backoff
        self.find = find
        self.host_id = random.SystemRandom().getrandbits(24)
        self.hello: Hello | None = None
        self.fatal: LinkError | None = None
        self.config_error: str | None = None  # why the board refused our cfg, if it did
        self.desired: dict[str, dict[str, Any]] = {}  # op -> last body, for a resync
        self.stats = {"sent": 0, "resent": 0, "acks": 0, "events": 0, "connects": 0,
                      "resyncs": 0, "bad_frames": 0}
        self._ser: serial.Serial | None = None
        self._fd: int | None = None  # the port's descriptor, when it is a plain POSIX one
        self._decoder = protocol.Decoder()
        self._ready = False  # hello exchanged with the running boot
        self._port_path = port or ""
        self._last_error = ""  # why the port last failed to open, for the timeout message
        self._last_hello_tx = 0.0
        self._last_tx = 0.0
        self._last_rx = 0.0
        self._seq = 0
        self._queue: deque[Ticket] = deque()
        self._inflight: Ticket | None = None
        self._events: deque[tuple[str, str]] = deque()
        # called (from the link's thread) when a board event is queued: the daemon's loop,
        # asleep until its next timer, wakes to hand it over
        self.on_event: Callable[[], None] | None = None
        self._polled: float | None = None  # when the daemon last asked for events
        self._event_last = 0
        self._lock = threading.Lock()
        self._hello_event = threading.Event()
        self._idle = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        self._thread = threading.Thread(target=self._loop, daemon=True, name="tabletap-serial")

    # -- the daemon's side -----------------------------------------------------------------
    def start(self) -> BoardLink:
        self._thread.start()
        return self

    def wait_hello(self, timeout: float) -> Hello:
        """The board's hello; ProtocolMismatch if it speaks another protocol."""
        self._hello_event.wait(timeout)
        if self.fatal is not None:
            raise self.fatal
        if self.hello is None:
            where = self.configured_port or "the Pico"
            why = f" ({self._last_error})" if self._last_error else ""
            raise LinkError(f"no answer from {where} within {timeout:g} s{why}")
        return self.hello

    def submit(self, body: dict[str, Any], wire_wait: float = 0.0) -> Ticket:
        """Queue a command. The latest latch and show are kept for a resync.

        Returns at once, or with `wire_wait` once the link's thread has put the command on the
        wire (at most that many seconds; a link with no board is not waited for). The caller's
        thread holds Python's lock until it blocks: the latch queued at a tap went on the wire
        only after the loop had also queued the lights and narrated the move, 0.3-0.4 ms later
        (`bench.live.timeline`), where issue 23 has the chest act the moment the move is durable
        and the narration after it. Waiting hands the thread the lock at once."""
        if self.fatal is not None:
            raise self.fatal
        with self._lock:
            ticket = Ticket(dict(body))
            if wire_wait > 0 and self._ready:
                ticket.wire = threading.Lock()
                ticket.wire.acquire()
            self._queue.append(ticket)
            if body["op"] in STATE_OPS:
                self.desired[body["op"]] = dict(body)
        self._wake()
        if ticket.wire is not None:
            ticket.wire.acquire(timeout=wire_wait)
        return ticket

    def wait_idle(self, timeout: float) -> bool:
        """True once every queued command has been acknowledged."""
        with self._idle:
            idle = self._idle.wait_for(lambda: self.fatal is not None
                                       or (not self._queue and self._inflight is None), timeout)
        if self.fatal is not None:
            raise self.fatal
        return idle

    def events(self) -> list[tuple[str, str]]:
        """Board events not yet handed over. Calling it also shows the daemon is alive: once it
        has called, the link pings the board only while the calls keep coming (see _service)."""
        if self.fatal is not None:
            raise self.fatal
        self._polled = time.monotonic()
        out = []
        while self._events:
            out.append(self._events.popleft())
        return out

    @property
    def connected(self) -> bool:
        return self._ready

    def close(self) -> None:
        self._stop.set()
        self._wake()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        self._close_port()
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except (BlockingIOError, OSError):
            pass

    # -- the link thread -------------------------------------------------------------------
    def _loop(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            if self._ser is None:
                if not self._open():
                    self._stop.wait(delay)
                    delay = min(delay * 2, self.backoff[1])
                    continue
            try:
                self._service()
                if self._ready:
                    delay = self.backoff[0]  # only a board that answered resets the backoff
            except (serial.SerialException, OSError) as e:
                log.warning("serial link lost (%s); reconnecting", e)
                self._close_port()
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
            except Exception as e:  # noqa: BLE001 - a bug must reach the daemon, not vanish
                log.exception("the serial link stopped")
                self._crash(LinkCrashed(f"the serial link to the board stopped: {e!r}"))
            if self.fatal is not None:
                self._close_port()
                return

    def _crash(self, error: LinkError) -> None:
        """Record a fatal error and fail every waiting command, so nobody waits forever."""
        self.fatal = error
        with self._lock:
            tickets = ([self._inflight] if self._inflight else []) + list(self._queue)
            self._inflight = None
            self._queue.clear()
            self._idle.notify_all()
        for ticket in tickets:
            ticket.ok = False
            ticket.err = str(error)
            ticket.done.set()
            if ticket.wire is not None and ticket.sent == 0:
                ticket.wire.release()  # it never will be on the wire: its submitter goes on
        self._hello_event.set()

    def _open(self) -> bool:
        try:
            path = self.find(self.configured_port)
            # pyserial raises DTR on open, which the Pico's USB CDC needs before it sends.
            # Exclusive: a second tabletap (say `doctor` beside the daemon) must not say hello
            # in the middle of a session and make the board forget which commands it ran.
            self._ser = open_exclusive(serial.Serial, path, baudrate=self.baud, timeout=0,
                                       write_timeout=1)
        except (serial.SerialException, OSError) as e:
            log.debug("cannot open the board's port yet: %s", e)
            self._last_error = str(e)
            return False
        self._port_path = path
        # bytes on the descriptor itself where pyserial allows (hw/serial_fd.py): pyserial's
        # read selects again and its write selects after writing, a command and its ack
        self._fd = port_descriptor(self._ser)
        self._decoder = protocol.Decoder()
        self._ready = False
        self._last_hello_tx = 0.0
        self._last_rx = time.monotonic()
        self.stats["connects"] += 1
        return True

    def _close_port(self) -> None:
        ser, self._ser, self._fd = self._ser, None, None
        self._ready = False
        if ser is not None:
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass

    def _send(self, kind: str, seq: int, body: dict[str, Any]) -> None:
        assert self._ser is not None
        frame = protocol.encode(kind, seq, body)
        if self._fd is not None:
            write_all(self._fd, frame)
        else:
            self._ser.write(frame)
        self._last_tx = time.monotonic()

    def _service(self) -> None:
        """One turn: send what is due, then wait for the board or the daemon, then read."""
        now = time.monotonic()
        timeout = self.retry
        if not self._ready:
            if now - self._last_hello_tx >= self.retry:
                self._send("hello", 0, {"host": self.host_id, "proto": protocol.VERSION})
                self._last_hello_tx = now
        else:
            with self._lock:
                if self._inflight is None and self._queue:
                    self._inflight = self._queue.popleft()
                    if self._inflight.seq == 0:
                        self._seq += 1
                        self._inflight.seq = self._seq
                ticket = self._inflight
            if ticket is not None and (ticket.sent == 0 or now - ticket.sent_at >= self.retry):
                self._send("cmd", ticket.seq, ticket.body | {"h": self.host_id,
                                                             "b": self.hello.boot})
                self.stats["resent" if ticket.sent else "sent"] += 1
                ticket.sent += 1
                ticket.sent_at = now
                if ticket.wire is not None and ticket.sent == 1:
                    ticket.wire.release()
            if now - self._last_tx >= self.ping_every and self._daemon_alive(now):
                self._send("ping", 0, {})
            if ticket is None:  # nothing to resend: sleep until the next ping (submit wakes us)
                timeout = max(self.retry, self._last_tx + self.ping_every - now)
            timeout = min(timeout, self.ping_every)
            if now - self._last_rx > 2 * self.host_timeout:
                log.warning("the board has said nothing for %.1f s; saying hello again",
                            now - self._last_rx)
                self._ready = False
        fd = self._fd if self._fd is not None else self._ser.fileno()
        readable, _, _ = select.select([fd, self._wake_r], [], [], timeout)
        if self._wake_r in readable:
            os.read(self._wake_r, 512)
        if fd in readable:
            if self._fd is not None:
                try:
                    data = os.read(fd, 4096)
                except BlockingIOError:  # taken by another reader of the port meanwhile
                    return
            else:
                data = self._ser.read(self._ser.in_waiting or 1)
            if not data:
                raise serial.SerialException("the port reported data but gave none (unplugged)")
            bad = self._decoder.bad
            frames = self._decoder.feed(data)
            self.stats["bad_frames"] += self._decoder.bad - bad
            for kind, seq, body in frames:
                self._last_rx = time.monotonic()
                self._handle(kind, seq, body)

    def _daemon_alive(self, now: float) -> bool:
        """False once a daemon that polls events() has stopped polling for host_timeout / 2:
        it hung, so the board should stop hearing from us and go to its safe state."""
        polled = self._polled
        return polled is None or now - polled <= self.host_timeout / 2

    def _handle(self, kind: str, seq: int, body: dict[str, Any]) -> None:
        if kind == "hello":
            self._on_hello(body)
        elif kind == "ack" and self._ready:
            self._on_ack(seq, body)
        elif kind == "evt":
            self._on_event(seq, body)

    def _on_hello(self, body: dict[str, Any]) -> None:
        try:
            hello = Hello(str(body["fw"]), int(body["proto"]), int(body["boot"]),
                          tuple(body.get("caps", ())), tuple(body.get("buttons", ())),
                          bool(body.get("safe")), self._port_path)
        except (KeyError, TypeError, ValueError):
            log.warning("ignoring a malformed hello: %r", body)
            return
        if hello.proto != protocol.VERSION:
            self.fatal = ProtocolMismatch(mismatch_message(hello))
            log.error("%s", self.fatal)
            self.hello = hello
            self._hello_event.set()
            return
        if body.get("host") != self.host_id:
            # The board's power-up hello, or an answer to another session: ask for ours.
            if self.hello is None or hello.boot != self.hello.boot:
                self._ready = False
                self._last_hello_tx = 0.0
            return
        first = self.hello is None
        rebooted = not first and hello.boot != self.hello.boot
        self.hello = hello
        if first or rebooted:
            self._event_last = 0
            config = [{"op": "cfg"} | self.board_config] if self.board_config else []
            if first:
                self._resync(config, drop_inflight=False)
            else:
                log.warning("the board reset; sending its config, latch and lights again")
                self._resync(config + self._desired_bodies(), drop_inflight=True)
        self._ready = True
        self._hello_event.set()

    def _desired_bodies(self) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(b) for b in self.desired.values()]

    def _resync(self, bodies: list[dict[str, Any]], drop_inflight: bool) -> None:
        """Put `bodies` at the head of the queue, as new commands (numbered when sent).

        After a reset the board has forgotten which commands it ran, so the one in flight is
        never sent again (it may have run before the reset); the state it was part of is restored
        by `bodies` instead. Commands not yet sent are still sent, once.
        """
        with self._lock:
            dropped = self._inflight if drop_inflight else None
            if drop_inflight:
                self._inflight = None
            fresh = [Ticket(body) for body in bodies]
            if self._inflight is not None:  # keep it first: it may already have run
                fresh.insert(0, self._inflight)
                self._inflight = None
            self._queue.extendleft(reversed(fresh))
            self.stats["resyncs"] += 1
        if dropped is not None:
            dropped.superseded = True
            dropped.done.set()

    def _on_ack(self, seq: int, body: dict[str, Any]) -> None:
        with self._lock:
            ticket = self._inflight
            if ticket is None or ticket.seq != seq:
                return
            if body.get("err") == "session":
                self._ready = False  # the board has lost us: hello again, then retry
                self._last_hello_tx = 0.0
                return
            self._inflight = None
            ticket.ok = bool(body.get("ok"))
            ticket.err = body.get("err")
            ticket.acked_at = time.monotonic()
            self.stats["acks"] += 1
            self._idle.notify_all()
        if not ticket.ok:
            log.error("the board refused %s: %s", ticket.body, ticket.err)
        ticket.done.set()
        if not ticket.ok and ticket.body.get("op") == "cfg":
            # The board now runs on its defaults (servo limits, pins) that are not the maker's:
            # stop, rather than drive the latch with them. The board then locks (safe state).
            self.config_error = str(ticket.err)
            self._crash(ConfigRefused(
                f"the board on {self._port_path} refused its config ({ticket.err}), so it would "
                "drive the chest with its default limits; it may run an older tabletap firmware: "
                f"tabletap firmware flash --port {self._port_path}"))

    def _on_event(self, seq: int, body: dict[str, Any]) -> None:
        if not self._ready or self.hello is None or body.get("b") != self.hello.boot:
            if self.hello is not None and body.get("b") != self.hello.boot:
                self._ready = False  # an event from a boot we have not met: the board reset
            return
        if seq > self._event_last:  # else our ack was lost and the board sent it again
            self._event_last = seq
            name, kind = str(body.get("name")), str(body.get("kind"))
            self.stats["events"] += 1
            if name == "safe":
                log.warning("the board had gone to its safe state (latch locked) while the host "
                            "was silent; restoring latch and lights")
                self._resync(self._desired_bodies(), drop_inflight=False)
            else:
                self._events.append((name, kind))
                if self.on_event is not None:
                    self.on_event()
        self._send("ack", seq, {})  # after queueing: once acked, the board forgets it


def probe(port: str | None = None, timeout: float = 3.0) -> Hello:
    """Connect, read the board's hello and disconnect: for `tabletap doctor`.

    Raises ProtocolMismatch (its message says how to flash the right firmware), BoardNotFound
    when no port is configured and no Pico is plugged in, or LinkError when nothing answers.
    """
    if port is None:
        port = find_port(None)
    link = BoardLink(port).start()
    try:
        return link.wait_hello(timeout)
    finally:
        link.close()
