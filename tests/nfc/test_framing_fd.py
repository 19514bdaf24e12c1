"""hw/pn532/framing.py on a real POSIX port (pyserial's `serial.Serial` on a pseudo-terminal):
the frames are moved on pyserial's descriptor, not through its `read` and `write`, and the
framing keeps its promises there: a whole frame however the bytes arrive, a silent line is a
`ReplyTimeout` after the frame timeout, a stale frame is drained, a closed far end is a port gone.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections.abc import Callable, Iterator

import pytest
import serial
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletap.controller.settings.config import ReaderConfig
from tabletap.controller.table.identity import decode_piece
from tabletap.hw.pn532 import build_uart
from tabletap.hw.pn532.framing import FramedSerial, PortGone, ReplyTimeout
from tabletap.sim.ntag import Ntag
from tabletap.sim.pn532.chip import ACK, Pn532Chip, frame
from tabletap.sim.pn532.pty import PtyChip
from tabletap.sim.world import SimTag

REPLY = frame(bytes([0xD5, 0x4B, 0x00]))  # InListPassiveTarget: no target


def _settled(master: int, port: serial.Serial) -> None:
    """Wait until a marker byte written at the master comes through the newly opened port.
    On a loaded machine, bytes written right after the opening were lost, at the start or in
    the middle of a test's frames; most likely the opening's input flushes (tty.setraw's
    TCSAFLUSH, pyserial's reset_input_buffer) took effect late. Measured on 2026-12-06 with a
    plain select and os.read reader (no tabletap code) under three busy loops on a 2-core
    machine: 6 of 500 openings lost bytes without this wait, none of 1,000 with it."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        os.write(master, b"\xaa")
        got = b""
        while select.select([port.fileno()], [], [], 0.05)[0]:
            got += os.read(port.fileno(), 256)
        if got.endswith(b"\xaa"):
            return
    raise AssertionError("the pseudo-terminal passed no byte through in 5 s")


@pytest.fixture
def line() -> Iterator[tuple[int, FramedSerial]]:
    """A pseudo-terminal: the test writes at the master what a chip would send."""
    master, slave = os.openpty()
    tty.setraw(slave)
    port = serial.Serial(os.ttyname(slave), 115200, timeout=0.05)
    _settled(master, port)
    framed = FramedSerial(port, 0.05)
    yield master, framed
    port.close()
    os.close(slave)
    try:
        os.close(master)
    except OSError:
        pass


def test_a_real_port_is_read_on_its_descriptor_not_through_pyserial(monkeypatch):
    field: list[Ntag] = []
    chip = PtyChip(Pn532Chip(field=lambda: field))
    reader = build_uart("chest", ReaderConfig(transport="uart", port=chip.port), {})
    try:
        assert reader.poll().tags == ()  # connected: pyserial opened and configured the port

        def refused(*args: object, **kwargs: object) -> None:
            raise AssertionError("a frame went through pyserial's read or write")

        monkeypatch.setattr(serial.Serial, "read", refused)
        monkeypatch.setattr(serial.Serial, "write", refused)
        field.append(SimTag.for_piece("magic-keys/key/gold").memory)
        (tag,) = reader.poll().tags
        assert decode_piece(tag.ndef) == "magic-keys/key/gold"
    finally:
        reader.close()
        chip.close()


def test_a_frame_arriving_byte_by_byte_is_read_whole(line):
    master, framed = line

    def trickle() -> None:
        for byte in ACK + REPLY + ACK:  # and the start of whatever comes next
            os.write(master, bytes([byte]))
            time.sleep(0.001)

    writer = threading.Thread(target=trickle)
    writer.start()
    assert framed.in_waiting > 0
    assert framed.read(73) == ACK
    assert framed.in_waiting > 0
    assert framed.read(73) == REPLY
    writer.join()
    assert framed.read(6) == ACK  # what came after it was kept for the next frame


def test_a_silent_line_times_out_after_the_frame_timeout(line):
    _, framed = line
    started = time.monotonic()
    with pytest.raises(ReplyTimeout):
        framed.in_waiting  # noqa: B018 - the property blocks for the reply's first byte
    assert time.monotonic() - started >= 0.05


def test_a_frame_cut_short_comes_back_short_for_the_driver_to_reject(line):
    master, framed = line
    os.write(master, REPLY[:-3])
    assert framed.in_waiting > 0
    assert framed.read(73) == REPLY[:-3]


def test_a_stale_reply_is_drained_and_the_next_frame_is_the_answer(line):
    master, framed = line
    os.write(master, REPLY + REPLY)
    assert framed.drain() == 2 * len(REPLY)
    os.write(master, ACK)
    assert framed.in_waiting > 0 and framed.read(6) == ACK


def test_a_frame_is_written_whole(line):
    master, framed = line
    framed.write(REPLY)
    assert os.read(master, 64) == REPLY


def test_a_closed_far_end_is_a_port_gone_not_a_silent_chip(line):
    master, framed = line
    os.close(master)
    with pytest.raises((PortGone, OSError)) as caught:
        framed.in_waiting  # noqa: B018
    assert not isinstance(caught.value, ReplyTimeout)
    with pytest.raises(PortGone):
        framed.write(REPLY)


class _Arriving:
    """A port whose bytes arrive `chunk` at a time (pyserial's `read` with a timeout: what has
    arrived, never more than asked for)."""

    timeout: float | None = 0.05

    def __init__(self, data: bytes, chunk: int) -> None:
        self._data = bytearray(data)
        self._chunk = chunk

    @property
    def in_waiting(self) -> int:
        return min(len(self._data), self._chunk)

    def read(self, size: int = 1) -> bytes:
        got = bytes(self._data[:size])
        del self._data[:size]
        return got

    def reset_input_buffer(self) -> None:
        pass

    def close(self) -> None:
        pass


def _frames(read: Callable[[FramedSerial], bytes], data: bytes, chunk: int) -> list[bytes]:
    framed = FramedSerial(_Arriving(data, chunk), 0.05)  # type: ignore[arg-type]
    out = []
    while framed._stash or framed.port.in_waiting:
        framed.in_waiting  # noqa: B018 - the driver asks first, which fills the stash
        frame_bytes = read(framed)
        assert frame_bytes, "a read with bytes waiting took none of them"
        out.append(frame_bytes)
    return out


_PIECES = st.one_of(
    st.sampled_from([ACK, bytes([0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]), REPLY]),
    st.binary(min_size=0, max_size=40).map(lambda body: frame(bytes([0xD5]) + body)),
    st.binary(min_size=0, max_size=12),  # noise, a cut frame's rest, a lone start code
    st.sampled_from([b"\x00", b"\x00\xff", b"\x00\x00\xff\x03", b"\xff"]),
    st.integers(56, 70).map(lambda n: b"\x01" * n),  # about MAX_GARBAGE bytes of garbage
)


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(_PIECES, max_size=8), chunk=st.integers(1, 80))
def test_a_frame_cut_from_the_stash_is_the_frame_read_byte_by_byte(pieces, chunk):
    """`read` cuts a frame that is already in the stash in one slice (its fast path); on any
    bytes, arriving in any chunks, it must give the frames the byte-by-byte reading gives."""
    data = b"".join(pieces)
    assert _frames(FramedSerial.read, data, chunk) == _frames(
        FramedSerial._read_bytewise, data, chunk)
