"""The USB serial line of the simulated board: a pseudo-terminal, with faults on demand.

The host opens the stable path (a symlink, like /dev/serial/by-id) with real pyserial. Unplugging
closes the pty, so the host's pyserial sees the same errors as a pulled cable; plugging in makes a
new pty behind the same path. Bytes crossing the line can be dropped or have a bit flipped.
"""

from __future__ import annotations

import os
import random
import select
import threading
import time
import tty
from dataclasses import dataclass
from pathlib import Path


@dataclass
class LineStats:
    to_board: int = 0
    to_host: int = 0
    dropped: int = 0
    flipped: int = 0
    lost_unplugged: int = 0  # bytes the board wrote while nothing was connected


class PtyLine:
    """The board's `io`: read(timeout_ms) and write(data), as the firmware's UsbSerial has."""

    def __init__(self, path: str | Path, seed: int = 0, corrupt: float = 0.0) -> None:
        self.path = Path(path)
        self.corrupt = corrupt  # fraction of bytes damaged, half dropped and half bit-flipped
        self._rng_in = random.Random(seed * 2 + 1)
        self._rng_out = random.Random(seed * 2 + 2)
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self.stats = LineStats()

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def plug(self) -> None:
        with self._lock:
            if self._master is not None:
                return
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no line editing: a USB CDC port is a plain byte pipe
            os.set_blocking(master, False)
            tmp = self.path.with_name(self.path.name + ".new")
            tmp.unlink(missing_ok=True)
            os.symlink(os.ttyname(slave), tmp)
            os.replace(tmp, self.path)
            self._master, self._slave = master, slave

    def unplug(self) -> None:
        with self._lock:
            if self._master is None:
                return
            self.path.unlink(missing_ok=True)
            os.close(self._master)
            if self._slave is not None:
                os.close(self._slave)
            self._master = self._slave = None

    def _mangle(self, data: bytes, rng: random.Random) -> bytes:
        if self.corrupt <= 0:
            return data
        out = bytearray()
        for b in data:
            r = rng.random()
            if r < self.corrupt / 2:
                self.stats.dropped += 1
            elif r < self.corrupt:
                out.append(b ^ (1 << rng.randrange(8)))
                self.stats.flipped += 1
            else:
                out.append(b)
        return bytes(out)

    def read(self, timeout_ms: int) -> bytes:
        with self._lock:
            master = self._master
            if master is not None:
                ready, _, _ = select.select([master], [], [], timeout_ms / 1000)
                if not ready:
                    return b""
                try:
                    data = os.read(master, 1024)
                except (BlockingIOError, OSError):
                    return b""
                self.stats.to_board += len(data)
                return self._mangle(data, self._rng_in)
        time.sleep(timeout_ms / 1000)
        return b""

    def write(self, data: bytes) -> None:
        with self._lock:
            if self._master is None:
                self.stats.lost_unplugged += len(data)
                return
            data = self._mangle(data, self._rng_out)
            self.stats.to_host += len(data)
            view = memoryview(data)
            while view:
                try:
                    n = os.write(self._master, view)
                except (BlockingIOError, OSError):
                    self.stats.lost_unplugged += len(view)  # nobody is reading: USB drops it
                    return
                view = view[n:]
