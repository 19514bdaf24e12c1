"""A frame-exact, deadline-keeping view of a serial port for `adafruit_pn532.uart.PN532_UART`.

Two latency traps in the unmodified driver over a plain `serial.Serial` (docs/hardware-notes.md):
it asks `read()` for more bytes than the reply holds (73 for a 22-byte reply), so every
successful poll waits out the whole serial timeout; and its ready loop sleeps 10 ms between
`in_waiting` checks, with timeouts of 0.5-1 s it chooses itself.

This wrapper fixes both without touching the driver: `read(n)` returns exactly one PN532 frame
(ACK, NACK or information frame, parsed by its LEN byte) however many bytes were asked for, and
`in_waiting` blocks on the port for the first byte of the reply, so the driver never sleeps, and
raises `ReplyTimeout` when the chip has said nothing for `timeout` seconds, so a silent chip costs
one frame timeout, not the driver's second. The port's own blocking reads keep the time: real
time on a real port, virtual time on the emulated one.

On a POSIX serial port opened by pyserial (a UART, a USB adapter, a pseudo-terminal) the bytes
are moved on pyserial's own descriptor: one `select` and one `os.read` per wake-up, one
`os.write` per frame. pyserial's `read` and `write` cost about as much Python again as the
system calls they make (a timeout object, a select for writing after every write, a loop per
call), on every exchange, a dozen and more a tap; pyserial still opens the port, sets its baud
rate and line, and flushes it (`reset_input_buffer`). Any other port (a pyserial URL handler,
the emulated port, whose reads keep simulated time) is read through its own `read`.
"""

from __future__ import annotations

import os
import select
import time
from typing import Protocol

from tabletap.hw.serial_fd import port_descriptor, write_all


class SerialLike(Protocol):
    timeout: float | None

    def write(self, data: bytes) -> int | None: ...

    def read(self, size: int = 1) -> bytes: ...

    @property
    def in_waiting(self) -> int: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


class ReplyTimeout(OSError):
    """The chip sent nothing within the frame timeout."""


class PortGone(Exception):
    """The serial port itself failed (USB adapter unplugged). Deliberately not an OSError: the
    driver swallows OSError from a write and would report a mere missing reply."""


MIN_FRAME = 6  # an ACK or NACK; an information frame is longer
MAX_GARBAGE = 64  # bytes skipped looking for a start code before giving up on a frame


READ_CHUNK = 256  # bytes asked of the descriptor at once: a reply and more


class FramedSerial:
    def __init__(self, port: SerialLike, timeout: float) -> None:
        self.port = port
        self.port.timeout = timeout
        self.timeout = timeout
        self._stash = bytearray()
        self._fd = port_descriptor(port)

    def write(self, data: bytes) -> int | None:
        try:
            if self._fd is None:
                return self.port.write(data)
            return write_all(self._fd, data)
        except OSError as exc:
            raise PortGone(f"serial port failed: {exc}") from exc

    def _read_fd(self, size: int, timeout: float) -> bytes:
        """At least `size` bytes (fewer when `timeout` runs out first), and whatever else has
        already arrived, which the stash keeps for the next frame: pyserial's `read(size)` on
        the same descriptor, in fewer calls. A descriptor that says it is readable and gives
        nothing is a port gone (a USB adapter unplugged, the far end of a pseudo-terminal
        closed), as pyserial says too."""
        assert self._fd is not None
        out = bytearray()
        deadline = time.monotonic() + timeout
        while len(out) < size:
            # select first: pyserial sets the line's VMIN and VTIME to 0, so a read of an empty
            # line returns nothing at once, and nothing after a select is the port gone
            left = max(0.0, deadline - time.monotonic())
            if not select.select([self._fd], [], [], left)[0]:
                break
            try:
                chunk = os.read(self._fd, READ_CHUNK)
            except BlockingIOError:
                continue
            if not chunk:
                raise OSError("the port reports readiness to read but returned no data")
            out += chunk
        return bytes(out)

    def _read(self, size: int) -> bytes:
        if self._fd is None:
            return self.port.read(size)
        return self._read_fd(size, self.timeout)

    def _waiting(self) -> int:
        if self._fd is None:
            return self.port.in_waiting
        return 0  # _read_fd takes whatever has arrived in its first call

    def reset_input_buffer(self) -> None:
        self._stash.clear()
        try:
            self.port.reset_input_buffer()
        except OSError as exc:
            raise PortGone(f"serial port failed: {exc}") from exc

    @property
    def in_waiting(self) -> int:
        if self._stash:
            return len(self._stash)
        # Blocks up to the frame timeout. Every frame the chip sends is at least an ACK's six
        # bytes, so asking for six takes a whole ACK (or a reply's head) in one wake-up.
        first = self._read(MIN_FRAME)
        if not first:
            raise ReplyTimeout(f"the PN532 sent nothing for {self.timeout:.3f} s")
        self._stash += first
        return len(first)

    def _take(self, n: int) -> bytes:
        if len(self._stash) < n:
            self._fill(n - len(self._stash))
        got = bytes(self._stash[:n])
        del self._stash[:n]
        return got

    def _fill(self, need: int) -> None:
        """Add at least `need` bytes to the stash (fewer on a timeout): whatever has already
        arrived in one read, not byte by byte. Each pyserial read is a select and a read and
        some Python; a reply read a byte at a time cost the daemon most of its CPU per tap.
        Bytes beyond this frame stay stashed for the driver's next read (reset_input_buffer,
        which the driver calls before each command, drops them with the port's own)."""
        try:
            waiting = self._waiting()
            self._stash += self._read(max(need, waiting))
        except OSError as exc:
            raise PortGone(f"serial port failed: {exc}") from exc

    def read(self, size: int = 1) -> bytes:
        """One whole frame (whatever `size` says); fewer bytes when the frame stops short, which
        the driver then rejects as a garbled reply.

        A frame usually lies whole in the stash already (the driver's `in_waiting` took what
        had arrived): its start code is found and its length read there, and it is cut off in
        one slice, the rest of the body read at once if it is still on the way. Found so, it is
        the frame `_read_bytewise` finds: the same bytes before the start code, the same
        limit on them, the same length rules (tests/nfc/test_framing_fd.py compares the two on
        any bytes). A byte at a time cost about 5 µs more of an exchange's 90 through the
        framing, measured between the waits (docs/BENCHMARKS.md, "One exchange, layer by layer")."""
        stash = self._stash
        start = stash.find(b"\x00\xff", 0, MAX_GARBAGE + 1)
        if start < 0 or len(stash) < start + 4:
            return self._read_bytewise()
        length, lcs = stash[start + 2], stash[start + 3]
        if (length, lcs) in ((0x00, 0xFF), (0xFF, 0x00)):  # ACK or NACK: postamble only
            end = start + 5
        elif (length + lcs) & 0xFF:
            end = start + 4  # the length is not to be trusted; let the driver reject it
        else:
            end = start + 6 + length  # data, DCS, postamble
        if len(stash) < end:
            self._fill(end - len(stash))
            stash = self._stash
        got = bytes(stash[:end])
        del stash[:end]
        return got

    def _read_bytewise(self) -> bytes:
        """`read` for a frame whose start code or length is not in the stash yet: byte by byte,
        reading the port as it goes."""
        out = bytearray()
        # preamble and start code: zeros, then 0xFF
        while True:
            b = self._take(1)
            if not b:
                return bytes(out)
            out += b
            if len(out) >= 2 and out[-2] == 0x00 and out[-1] == 0xFF:
                break
            if len(out) > MAX_GARBAGE:
                return bytes(out)
        head = self._take(2)
        out += head
        if len(head) < 2:
            return bytes(out)
        length, lcs = head
        if (length, lcs) in ((0x00, 0xFF), (0xFF, 0x00)):  # ACK or NACK: postamble only
            return bytes(out + self._take(1))
        if (length + lcs) & 0xFF:
            return bytes(out)  # the length is not to be trusted; let the driver reject it
        return bytes(out + self._take(length + 2))  # data, DCS, postamble

    def reply_waiting(self) -> bool:
        """Whether a reply has begun to arrive, without blocking (an armed listing's answer)."""
        if self._stash:
            return True
        try:
            return self.port.in_waiting > 0
        except OSError as exc:
            raise PortGone(f"serial port failed: {exc}") from exc

    def drain(self, quiet: float = 0.01) -> int:
        """Discard whatever is still coming (the rest of a reply the driver gave up on) until the
        line has been quiet for `quiet` seconds: otherwise that stale frame would be taken for
        the answer to the next command, and every exchange after it would be off by one."""
        self._stash.clear()
        dropped = 0
        if self._fd is not None:
            try:
                while chunk := self._read_fd(1, quiet):
                    dropped += len(chunk)
                return dropped
            except OSError as exc:
                raise PortGone(f"serial port failed: {exc}") from exc
        saved, self.port.timeout = self.port.timeout, quiet
        try:
            while True:
                chunk = self.port.read(64)
                if not chunk:
                    return dropped
                dropped += len(chunk)
        except OSError as exc:
            raise PortGone(f"serial port failed: {exc}") from exc
        finally:
            self.port.timeout = saved

    def close(self) -> None:
        self.port.close()
