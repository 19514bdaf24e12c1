"""Waiting on every armed reader at once.

A reader waiting for a tap (Pn532Reader.arm) has an InListPassiveTarget outstanding that the chip
answers only when a tag arrives. The daemon's loop, between two passes, waits on all of them
together with the rest of the pass as timeout, so a tap on any reader wakes it within
milliseconds and an empty table costs no listing at all. A handle says how to wait on its kind:
`FdWait` is a serial port's file descriptor (pyserial's `fileno()`), waited on with `selectors`;
the emulated port offers its own (tabletap/sim/pn532/port.py), which keeps simulated time. The
daemon knows only the protocol: `handle.wait_all(handles_of_that_kind, timeout)`.
"""

from __future__ import annotations

import selectors

from msgspec import Struct


class FdWait(Struct, frozen=True):
    """A file descriptor that becomes readable when the chip's answer starts to arrive."""

    fd: int

    def fileno(self) -> int:
        return self.fd

    @staticmethod
    def wait_all(handles: list[FdWait], timeout: float) -> None:
        """Return when any handle is readable, or after `timeout` seconds."""
        if timeout <= 0:
            return
        with selectors.DefaultSelector() as selector:
            for handle in {h.fd: h for h in handles}.values():
                selector.register(handle.fd, selectors.EVENT_READ)
            selector.select(timeout)
