"""The shared frame format (firmware/PROTOCOL.md): CRC-checked ASCII lines, numbered."""

from __future__ import annotations

import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletap.firmware import protocol

names = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E,
                                       blacklist_characters='$*"\\'), max_size=20)
bodies = st.dictionaries(names, st.one_of(st.booleans(), st.integers(-2**29, 2**29), names,
                                          st.none()), max_size=5)
frames = st.tuples(st.sampled_from(["hello", "cmd", "ack", "evt", "ping", "pong"]),
                   st.integers(0, 2**30), bodies)


@given(st.binary(max_size=200))
@settings(max_examples=200)
def test_table_crc_matches_zlib(data: bytes) -> None:
    assert protocol.crc32_table(data) == zlib.crc32(data) == protocol.crc32(data)


@given(st.lists(frames, max_size=6), st.binary(max_size=30))
@settings(max_examples=150)
def test_frames_survive_a_round_trip_between_noise(items: list, noise: bytes) -> None:
    noise = noise.replace(b"$", b"")  # a "$" in noise starts a broken frame: tested below
    stream = noise + b"".join(protocol.encode(*f) + noise for f in items)
    assert protocol.Decoder().feed(stream) == items


@given(frames, st.data())
@settings(max_examples=300)
def test_a_damaged_frame_is_never_taken_for_another(frame: tuple, data: st.DataObject) -> None:
    """One dropped or changed byte loses the frame; it never decodes as something else."""
    raw = bytearray(protocol.encode(*frame))
    i = data.draw(st.integers(0, len(raw) - 1))
    if data.draw(st.booleans()):
        del raw[i]
    else:
        raw[i] ^= data.draw(st.integers(1, 255))
    got = protocol.Decoder().feed(bytes(raw) + protocol.encode("ping", 1, {}))
    assert got[-1] == ("ping", 1, {})  # the next frame always gets through
    assert all(g == frame for g in got[:-1])  # a lost byte may only be the newline's neighbour


def test_a_lost_newline_costs_one_frame() -> None:
    a = protocol.encode("cmd", 1, {"op": "latch", "open": True})
    b = protocol.encode("cmd", 2, {"op": "latch", "open": False})
    dec = protocol.Decoder()
    assert dec.feed(a[:-1] + b) == [("cmd", 2, {"op": "latch", "open": False})]
    assert dec.bad == 1


@pytest.mark.parametrize("body", [{"x": "a$b"}, {"x": "a*b"}, {"x": "y" * 600}])
def test_unsafe_payloads_are_refused_by_the_encoder(body: dict) -> None:
    with pytest.raises(ValueError):
        protocol.encode("cmd", 1, body)


@pytest.mark.parametrize("body", [{"x": "line\nbreak"}, {"x": "é"}])
def test_json_escapes_keep_the_line_printable(body: dict) -> None:
    frame = protocol.encode("cmd", 1, body)
    assert frame.count(b"\n") == 1 and max(frame) < 0x7F
    assert protocol.Decoder().feed(frame) == [("cmd", 1, body)]


@pytest.mark.parametrize("payload", [b"cmd 1 {}*zzzzzzzz", b"cmd x {}*00000000",
                                     b"cmd 1 [1]", b"cmd -1 {}", b"cmd1{}"])
def test_malformed_payloads_are_not_frames(payload: bytes) -> None:
    star = payload.find(b"*")
    if star < 0:
        payload = payload + b"*%08x" % protocol.crc32(payload)
    elif payload.endswith(b"00000000"):
        payload = payload[:star] + b"*%08x" % protocol.crc32(payload[:star])
    assert protocol.parse(payload) is None


def test_an_overlong_line_is_dropped_and_the_stream_recovers() -> None:
    dec = protocol.Decoder()
    assert dec.feed(b"$" + b"a" * 2000 + b"\n" + protocol.encode("ping", 3, {})) == [
        ("ping", 3, {})]
    assert dec.bad == 1


class _ByteByByte:
    """The decoder as it was until 2026-12-07, a byte at a time: the reference the run-at-a-time
    decoder must agree with, frame for frame and count for count."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.inside = False
        self.bad = 0
        self.good = 0

    def feed(self, data: bytes) -> list:
        frames = []
        for b in data:
            if b == protocol.START[0]:
                if self.inside and self.buf:
                    self.bad += 1
                self.buf = bytearray()
                self.inside = True
            elif not self.inside:
                continue
            elif b == protocol.END[0]:
                self.inside = False
                frame = protocol.parse(bytes(self.buf))
                self.buf = bytearray()
                if frame is None:
                    self.bad += 1
                else:
                    self.good += 1
                    frames.append(frame)
            elif len(self.buf) >= protocol.MAX_PAYLOAD + 9:
                self.inside = False
                self.buf = bytearray()
                self.bad += 1
            else:
                self.buf.append(b)
        return frames


LIMIT = protocol.MAX_PAYLOAD + 9  # the longest line that can still be a frame
pieces = st.one_of(
    frames.map(lambda f: protocol.encode(*f)),
    frames.map(lambda f: protocol.encode(*f)[:-1]),  # its newline lost
    st.sampled_from([b"$", b"\n", b"$\n", b"\n$", b"*"]),
    st.binary(max_size=12),
    st.integers(LIMIT - 3, LIMIT + 3).map(lambda n: b"$" + b"a" * n),  # at the length's edge
    st.integers(LIMIT - 12, LIMIT + 3).map(lambda n: b"x" * n),
)


@given(st.lists(pieces, max_size=12), st.lists(st.integers(1, 700), max_size=12),
       st.sampled_from([bytes, bytearray]))
@settings(max_examples=400)
def test_the_decoder_agrees_with_a_byte_at_a_time_reading(parts: list, cuts: list,
                                                          kind: type) -> None:
    """Any stream, cut into any chunks: the same frames, the same counts and the same state at
    the end as the byte-by-byte decoder (the run-at-a-time one only reads faster)."""
    stream = b"".join(parts)
    fast, slow = protocol.Decoder(), _ByteByByte()
    got: list = []
    want: list = []
    at = 0
    for size in [*cuts, len(stream)]:
        chunk = stream[at:at + size]
        at += size
        got += fast.feed(kind(chunk))
        want += slow.feed(chunk)
    assert got == want
    assert (fast.bad, fast.good, fast.inside, bytes(fast.buf)) == (
        slow.bad, slow.good, slow.inside, bytes(slow.buf))


@pytest.mark.parametrize("length", [LIMIT - 1, LIMIT, LIMIT + 1])
def test_a_line_at_the_length_limit_is_counted_once(length: int) -> None:
    """A line of exactly the longest length is parsed (and refused as a frame: it is noise);
    one byte longer is dropped as it grows; either way one bad frame, and the next one comes."""
    dec = protocol.Decoder()
    line = b"$" + b"a" * length + b"\n"
    assert dec.feed(line[:100]) == []
    assert dec.feed(line[100:] + protocol.encode("ping", 4, {})) == [("ping", 4, {})]
    assert (dec.bad, dec.good) == (1, 1)
