"""An emulated PN532 behind a pseudo-terminal, for the `uart` transport's own code path.

The `sim` transport hands the adapter a serial-like object; this puts the same chip at the far
end of a real tty, so `tabletap.hw.pn532.build_uart` opens it with real pyserial
(`port: /dev/pts/N`),
exactly as it opens `/dev/ttyS0` at the table. Replies are written when the chip's timing says
they are due (wall clock). The baud rate of a pty is nominal: with `baud` given, the wire time a
real UART would take (10 bits a byte, 8N1) is added, the command's bytes before the chip acts and
the reply's before it is handed over whole; without it, wire time is not reproduced.

A chip with an armed listing looks at its field every `armed_step` seconds, or at once when
`poke()` says the field changed (the benchmark pokes after every tap and lift, so a tap is seen
the moment it happens and an idle emulator sleeps).
"""

from __future__ import annotations

import os
import select
import threading
import time

from tabletap.sim.pn532.chip import Pn532Chip

ARMED_STEP = 0.005  # how often a chip waiting for a tag looks at its field (seconds)


class PtyChip:
    def __init__(self, chip: Pn532Chip, baud: int | None = None,
                 armed_step: float = ARMED_STEP) -> None:
        self.chip = chip
        self.byte_time = 10.0 / baud if baud else 0.0
        self.armed_step = armed_step
        self._master, slave = os.openpty()
        self.port = os.ttyname(slave)
        self._slave = slave  # kept open so the pty survives between the client's opens
        self._wake_r, self._wake_w = os.pipe()
        self.thread_id: int | None = None  # the serving thread's native id (the bench's CPU)
        import tty

        tty.setraw(slave)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="pn532-pty", daemon=True)
        self._thread.start()

    def poke(self) -> None:
        """The field changed: an armed chip looks at it now rather than at its next step."""
        try:
            os.write(self._wake_w, b"!")
        except OSError:
            pass

    def _due(self, now: float, delay: float, data: bytes, received: int = 0) -> float:
        """When `data` is wholly on the host's side: the command's wire time, the chip's
        own time, then the reply's wire time."""
        return now + received * self.byte_time + delay + len(data) * self.byte_time

    def _serve(self) -> None:
        self.thread_id = threading.get_native_id()
        pending: list[tuple[float, bytes]] = []
        while not self._stop.is_set():
            step = 0.25  # nothing due: only the host or a poke wakes the chip
            if self.chip.armed is not None:  # an armed listing: look for a tag
                reply = self.chip.armed_reply(time.monotonic())
                if reply is not None:
                    pending.append((self._due(time.monotonic(), reply.delay, reply.data),
                                    reply.data))
                    pending.sort(key=lambda p: p[0])
                step = self.armed_step
            wait = step if not pending else max(0.0, min(step, pending[0][0] - time.monotonic()))
            ready, _, _ = select.select([self._master, self._wake_r], [], [], wait)
            now = time.monotonic()
            if self._wake_r in ready:
                os.read(self._wake_r, 4096)
            if self._master in ready:
                try:
                    data = os.read(self._master, 1024)
                except OSError:
                    return
                for reply in self.chip.feed(data, now):
                    pending.append((self._due(now, reply.delay, reply.data, len(data)),
                                    reply.data))
                pending.sort(key=lambda p: p[0])
            while pending and pending[0][0] <= time.monotonic():
                os.write(self._master, pending.pop(0)[1])

    def close(self) -> None:
        self._stop.set()
        self.poke()
        self._thread.join(timeout=1)
        for fd in (self._master, self._slave, self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
