"""A serial port's bytes moved on pyserial's own descriptor, for the two links that run all evening.

pyserial opens the port, sets its baud rate and line, and flushes it; its `read` and `write` then
cost as much Python again as the system calls they make: a timeout object and a loop per call, a
`select` before every read even with nothing to wait for, and one for writing after every write.
The PN532's framing (hw/pn532/framing.py) and the Pico link (hw/serial_link/link.py) already wait
on the descriptor themselves, so on a plain POSIX `serial.Serial` they read and write it directly:
one `os.read` per wake-up, one `os.write` per frame. Any other port (a pyserial URL handler, the
emulated port with its simulated time) keeps its own `read` and `write`.
"""

from __future__ import annotations

import os
import select
import time

WRITE_LIMIT = 1.0  # seconds a frame may wait for room in the port's output buffer


def port_descriptor(port: object) -> int | None:
    """The descriptor of a port that is a plain POSIX `serial.Serial` (pyserial's own class, no
    subclass or URL handler, whose reads may mean something else), open; None otherwise."""
    try:
        from serial.serialposix import Serial as PosixSerial
    except ImportError:  # not on POSIX
        return None
    if type(port) is not PosixSerial or not port.is_open:
        return None
    return port.fileno()


def write_all(fd: int, data: bytes, limit: float = WRITE_LIMIT) -> int:
    """The whole of `data` onto the descriptor (pyserial opens it non-blocking): a write the
    output buffer takes at once, which a frame of a few dozen bytes always is on a port that
    works; one stuck for `limit` seconds is a failed port (OSError)."""
    view = memoryview(data)
    deadline = time.monotonic() + limit
    while view:
        try:
            view = view[os.write(fd, view):]
            continue
        except BlockingIOError:
            pass
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([], [fd], [], left)[1]:
            raise OSError(f"could not write to the port for {limit:g} s")
    return len(data)
