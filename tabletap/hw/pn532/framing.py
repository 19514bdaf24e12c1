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
"""

from __future__ import annotations

from typing import Protocol


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


class FramedSerial:
    def __init__(self, port: SerialLike, timeout: float) -> None:
        self.port = port
        self.port.timeout = timeout
        self.timeout = timeout
        self._stash = bytearray()

    def write(self, data: bytes) -> int | None:
        try:
            return self.port.write(data)
        except OSError as exc:
            raise PortGone(f"serial port failed: {exc}") from exc

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
        first = self.port.read(MIN_FRAME)
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
            waiting = self.port.in_waiting
        except OSError as exc:
            raise PortGone(f"serial port failed: {exc}") from exc
        self._stash += self.port.read(max(need, waiting))

    def read(self, size: int = 1) -> bytes:
        """One whole frame (whatever `size` says); fewer bytes when the frame stops short, which
        the driver then rejects as a garbled reply."""
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
        saved, self.port.timeout = self.port.timeout, quiet
        dropped = 0
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
