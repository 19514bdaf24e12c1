"""The wire format between the tabletap host and the Pico: one module for both ends.

It runs unchanged under MicroPython (on the board) and CPython (in `hw` and `sim`), so the two
ends can never disagree about framing. Frames are printable ASCII lines, because the Pico's USB
serial is also its REPL: a binary 0x03 would be read as Ctrl-C. See PROTOCOL.md.

    $<kind> <seq> <json-object>*<crc32 as 8 lower-case hex digits>\n
"""

import json

try:
    from binascii import crc32 as _lib_crc32
except ImportError:  # a MicroPython build without binascii.crc32
    _lib_crc32 = None

VERSION = 1  # bump on any change the other end must know about
START = b"$"  # the markers as bytes: `find`, `in` and `+` take them as they are on both ends
SEP = b"*"
END = b"\n"
MAX_PAYLOAD = 480  # longer frames are noise: a cfg command is about 250 bytes

_TABLE = None


def _crc_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table.append(c)
    return table


def crc32_table(data):
    """CRC-32 (IEEE 802.3, as zlib) by table, for boards without binascii.crc32."""
    global _TABLE
    if _TABLE is None:
        _TABLE = _crc_table()
    c = 0xFFFFFFFF
    for b in data:
        c = _TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def crc32(data):
    if _lib_crc32 is not None:
        return _lib_crc32(data) & 0xFFFFFFFF
    return crc32_table(data)


def encode(kind, seq, body=None):
    """One frame as bytes; ValueError if it could not be sent safely."""
    text = "%s %d %s" % (kind, seq, json.dumps({} if body is None else body, separators=(",", ":")))
    payload = text.encode()
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("frame too long")
    # min, max and `in` run in C: under MicroPython an ack is encoded in 11.3 us this way, 13.0
    # with a loop over its bytes (docs/BENCHMARKS.md, "The Pico's own framing")
    if min(payload) < 0x20 or max(payload) > 0x7E or START in payload or SEP in payload:
        raise ValueError("frame payload must be printable ASCII without $ or *")
    return START + payload + SEP + ("%08x" % crc32(payload)).encode() + END


def parse(payload):
    """(kind, seq, body) from the bytes between "$" and "\\n", or None if they are not a frame."""
    star = payload.rfind(SEP)
    if star < 0 or len(payload) - star - 1 != 8:
        return None
    data = payload[:star]
    try:
        if int(payload[star + 1:], 16) != crc32(data):
            return None
        parts = data.decode().split(" ", 2)
        if len(parts) != 3:
            return None
        body = json.loads(parts[2])
        seq = int(parts[1])
    except (ValueError, UnicodeError):
        return None
    if not isinstance(body, dict) or seq < 0 or not parts[0]:
        return None
    return (parts[0], seq, body)


class Decoder:
    """Turns a byte stream into frames, skipping noise; counts what it had to throw away.

    A "$" always starts a new frame, so a lost newline costs one frame, not the stream.

    It takes the bytes between the markers a run at a time (`bytes.find` and a slice, in C), not
    one by one: under MicroPython a loop per byte made a command's decoding six to seven times
    slower (docs/BENCHMARKS.md, "The Pico's own framing"). What it returns and counts is the
    byte-by-byte reading's exactly (tests/firmware/test_protocol.py compares the two).
    """

    def __init__(self):
        self.buf = bytearray()
        self.inside = False
        self.bad = 0  # frames dropped for a bad CRC, length or shape
        self.good = 0

    def feed(self, data):
        if not isinstance(data, bytes):
            data = bytes(data)  # a bytearray: not every MicroPython build gives it `find`
        frames = []
        limit = MAX_PAYLOAD + 9  # the longest line between "$" and "\n" that can be a frame
        n = len(data)
        i = 0
        while i < n:
            start = data.find(START, i)
            if not self.inside:  # noise until the next "$"
                if start < 0:
                    break
                self.buf = bytearray()
                self.inside = True
                i = start + 1
                continue
            end = data.find(END, i)
            stop = n  # the plain bytes run to the first marker, or to the data's end
            if 0 <= start < stop:
                stop = start
            if 0 <= end < stop:
                stop = end
            if stop - i > limit - len(self.buf):
                # longer than any frame: dropped, and what follows skipped until the next "$"
                self.inside = False
                self.buf = bytearray()
                self.bad += 1
                i = stop
                continue
            if stop == n:
                self.buf.extend(data[i:])
                break
            if stop == start:  # a new frame begins: the one inside was cut short
                if self.buf or stop > i:
                    self.bad += 1
                self.buf = bytearray()
                i = stop + 1
                continue
            if self.buf:
                self.buf.extend(data[i:stop])
                payload = bytes(self.buf)
                self.buf = bytearray()
            else:  # the whole line in this data: no copy into the buffer
                payload = data[i:stop]
            self.inside = False
            i = stop + 1
            frame = parse(payload)
            if frame is None:
                self.bad += 1
            else:
                self.good += 1
                frames.append(frame)
        return frames
