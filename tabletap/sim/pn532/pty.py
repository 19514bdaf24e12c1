"""An emulated PN532 behind a pseudo-terminal, for the `uart` transport's own code path.

The `sim` transport hands the adapter a serial-like object; this puts the same chip at the far
end of a real tty, so `tabletap.hw.pn532.build_uart` opens it with real pyserial
(`port: /dev/pts/N`),
exactly as it opens `/dev/ttyS0` at the table. Replies are written when the chip's timing says
they are due (wall clock); the baud rate of a pty is nominal, so wire time is not reproduced.
"""

from __future__ import annotations

import os
import select
import threading
import time

from tabletap.sim.pn532.chip import Pn532Chip

ARMED_STEP = 0.005  # how often a chip waiting for a tag looks at its field (seconds)


class PtyChip:
    def __init__(self, chip: Pn532Chip) -> None:
        self.chip = chip
        self._master, slave = os.openpty()
        self.port = os.ttyname(slave)
        self._slave = slave  # kept open so the pty survives between the client's opens
        import tty

        tty.setraw(slave)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="pn532-pty", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        pending: list[tuple[float, bytes]] = []
        while not self._stop.is_set():
            wait = 0.05 if not pending else max(0.0, pending[0][0] - time.monotonic())
            if self.chip.armed is not None:  # an armed listing: look for a tag every ARMED_STEP
                reply = self.chip.armed_reply(time.monotonic())
                if reply is not None:
                    pending.append((time.monotonic() + reply.delay, reply.data))
                    pending.sort(key=lambda p: p[0])
                wait = min(wait, ARMED_STEP)
            ready, _, _ = select.select([self._master], [], [], wait)
            now = time.monotonic()
            if ready:
                try:
                    data = os.read(self._master, 1024)
                except OSError:
                    return
                for reply in self.chip.feed(data, now):
                    pending.append((now + reply.delay, reply.data))
                pending.sort(key=lambda p: p[0])
            while pending and pending[0][0] <= time.monotonic():
                os.write(self._master, pending.pop(0)[1])

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=1)
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
