"""`python bench/live/free_reader.py TABLETAP ARGS...`: `tabletap` whose readers cost nothing.

Run by bench/live/floor.py as the daemon's prefix (rig.py). Every `transport: uart` reader of
the config is replaced by a `FreeReader`: the tags on it come as lines on a FIFO
($FREE_READER_FIFO), written by the bench as it places and lifts them, so a poll makes no
exchange with any chip and reads only what changed. The daemon is otherwise the real one: its
loop, its passes and pauses (a resting tag still costs a pass every resting period, a miss a
confirming pass), the rules, the journal with its fsyncs, the Pico link. What is left per tap is
the floor under any reader, for instance a PN532 that the Pico polled and that sent only
placements and lifts. It is a measurement, not a reader: nothing in tabletap uses it.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from tabletap.controller.ports import Poll, TagRead


class _Handle:
    """What the loop's selector waits on: the FIFO's descriptor."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def fileno(self) -> int:
        return self.fd


class FreeReader:
    """Tags as lines on a FIFO: `+UIDHEX NDEFHEX` placed, `-UIDHEX` lifted. Always waiting (its
    descriptor wakes the loop at a placement or a lift), never due for a renewal."""

    def __init__(self, name: str, path: str) -> None:
        self.name = name
        # read and write: a FIFO with a writer open never reads as ended between the bench's lines
        self._fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
        self._handle = _Handle(self._fd)
        self._buffer = b""
        self._present: dict[bytes, bytes] = {}
        self._tags: tuple[TagRead, ...] = ()

    def poll(self) -> Poll:
        try:
            chunk = os.read(self._fd, 65536)
        except BlockingIOError:
            return Poll(self._tags)
        *lines, self._buffer = (self._buffer + chunk).split(b"\n")
        for line in lines:
            if line.startswith(b"+"):
                uid, ndef = line[1:].split(b" ")
                self._present[bytes.fromhex(uid.decode())] = bytes.fromhex(ndef.decode())
            elif line.startswith(b"-"):
                self._present.pop(bytes.fromhex(line[1:].decode()), None)
        self._tags = tuple(TagRead(uid, ndef) for uid, ndef in self._present.items())
        return Poll(self._tags)

    def wait_handle(self) -> Any:
        return self._handle

    def renewal_due(self) -> float:
        return time.monotonic() + 3600.0

    def close(self) -> None:
        os.close(self._fd)


def main() -> int:
    from tabletap.controller.table import adapters

    load = adapters._load  # noqa: SLF001 - the one seam that picks a reader's transport
    fifo = os.environ["FREE_READER_FIFO"]

    def patched(group: str, name: str) -> Any:
        if group == adapters.TRANSPORTS and name == "uart":
            return lambda reader, cfg, context: FreeReader(reader, fifo)
        return load(group, name)

    adapters._load = patched  # noqa: SLF001
    sys.argv = sys.argv[1:]  # as if `tabletap ...` had been run
    from tabletap.controller.cli import main as tabletap

    return tabletap()


if __name__ == "__main__":
    raise SystemExit(main())
