"""A serial port opened for one program at a time, for the two links that run all evening.

The reader's UART (hw/pn532/transports.py) and the Pico's port (hw/serial_link/link.py) are
opened with pyserial's `exclusive=True`, an advisory `flock` on the descriptor: a second
program that asks for the same lock (a second table pointed at the same port, picocom, another
tabletap) is refused, instead of interleaving its commands with the daemon's and reading the
daemon's replies. The lock is the kernel's, so it goes with the holder's process, crash
included. pyserial's refusal ("Could not exclusively lock port ...: [Errno 11] Resource
temporarily unavailable") is reworded here into what a maker can act on.
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from typing import Any, TypeVar

Port = TypeVar("Port")

IN_USE = "{port} is in use by another program (another tabletap, a serial terminal): stop it first"


class PortInUse(OSError):
    """Another program holds the port's lock: nothing is wrong with the wiring (the doctor
    leaves out its wiring checklist). pyserial's `SerialException` is an OSError too, so code
    that catches a port failing to open catches this."""


def open_exclusive(opener: Callable[..., Port], port: str, **settings: Any) -> Port:
    """`opener(port, exclusive=True, **settings)` (`serial.Serial`, `serial.serial_for_url`);
    a port another program holds raises `PortInUse` saying so. pyserial is imported here, not
    with the module: a table of simulated readers never needs it."""
    import serial

    try:
        return opener(port, exclusive=True, **settings)
    except serial.SerialException as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            held = PortInUse(IN_USE.format(port=port))
            held.errno = exc.errno
            raise held from None
        raise
