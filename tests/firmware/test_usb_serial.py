"""The firmware's USB serial reader (firmware/main.py `UsbSerial`), on a pipe standing in for
the Pico's stdin: CPython's select.poll and an unbuffered read(1) behave as MicroPython's do
there (a byte at a time, poll saying whether another is waiting)."""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Iterator

import pytest

from tabletap.firmware import protocol
from tabletap.firmware.main import UsbSerial


class _Stdin:
    """What UsbSerial uses of sys.stdin: its fileno (for poll) and its binary `buffer`."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = open(fd, "rb", buffering=0, closefd=False)  # noqa: SIM115

    def fileno(self) -> int:
        return self.fd


@pytest.fixture
def line(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[UsbSerial, int]]:
    r, w = os.pipe()
    stdin = _Stdin(r)
    monkeypatch.setattr(sys, "stdin", stdin)
    interrupts: list[int] = []
    monkeypatch.setitem(sys.modules, "micropython",
                        types.SimpleNamespace(kbd_intr=interrupts.append))
    try:
        usb = UsbSerial()
        assert interrupts == [-1]  # a corrupted byte must not become Ctrl-C
        yield usb, w
    finally:
        stdin.buffer.close()
        os.close(r)
        os.close(w)


def test_a_command_that_arrived_is_read_whole(line: tuple[UsbSerial, int]) -> None:
    usb, w = line
    frame = protocol.encode("cmd", 3, {"op": "latch", "open": True, "h": 5, "b": 7})
    os.write(w, frame)
    data = usb.read(100)
    assert bytes(data) == frame
    assert protocol.Decoder().feed(data) == [("cmd", 3, {"op": "latch", "open": True, "h": 5,
                                                          "b": 7})]


def test_at_most_256_bytes_a_read_and_nothing_lost(line: tuple[UsbSerial, int]) -> None:
    usb, w = line
    os.write(w, bytes(range(256)) + b"tail")
    assert bytes(usb.read(100)) == bytes(range(256))
    assert bytes(usb.read(100)) == b"tail"


def test_nothing_waiting_is_an_empty_read_after_the_timeout(line: tuple[UsbSerial, int]) -> None:
    usb, _ = line
    assert not usb.read(20)
