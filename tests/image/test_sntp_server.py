"""The boot test's time server (image/sntp_server.py) answers as RFC 4330 section 5 says, in the
ways the box's systemd-timesyncd checks a reply (src/timesync/timesyncd-manager.c): its own
transmit time echoed bit for bit, server mode, a synchronized stratum, times after its epoch.
Runs in `make test`; the box's real client is exercised by `make image-test`."""

from __future__ import annotations

import socket
import struct
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "image"))

import sntp_server  # noqa: E402

# What timesyncd sends: LI 0, VN 4, mode 3, all else zero but a transmit time whose "fraction"
# is nanoseconds (not a binary fraction), so a float round trip would change it.
REQUEST = struct.pack("!B47x", (4 << 3) | 3)[:40] + struct.pack("!II", 0xEA1B2C3D, 999_999_937)


def fields(reply: bytes) -> tuple:
    return sntp_server.PACKET.unpack(reply)


def to_unix(stamp: int) -> float:
    return (stamp >> 32) - sntp_server.NTP_EPOCH + (stamp & 0xFFFFFFFF) / 2**32


def test_the_reply_is_a_synchronized_servers_answer_to_that_request():
    now = time.time()
    reply = sntp_server.answer(REQUEST, now - 0.001, now)
    assert reply is not None and len(reply) == 48
    first, stratum, _, _, delay, dispersion, _, _, origin, received, sent = fields(reply)
    assert first >> 6 != 3, "leap indicator 3 is 'not synchronized', which timesyncd rejects"
    assert (first >> 3) & 7 == 4 and first & 7 == 4  # the client's version, server mode
    assert 1 <= stratum <= 15
    assert origin == (0xEA1B2C3D << 32) | 999_999_937  # bit for bit
    assert abs(to_unix(sent) - now) < 1e-6 and abs(to_unix(received) - (now - 0.001)) < 1e-6
    assert (delay / 2**16) / 2 + dispersion / 2**16 < 5  # timesyncd's RootDistanceMaxSec


def test_anything_but_a_clients_request_gets_no_answer():
    server_mode = bytes([(4 << 3) | 4]) + REQUEST[1:]
    assert sntp_server.answer(server_mode, 0.0, 0.0) is None
    assert sntp_server.answer(REQUEST[:47], 0.0, 0.0) is None  # too short
    assert sntp_server.answer(bytes([(0 << 3) | 3]) + REQUEST[1:], 0.0, 0.0) is None  # VN 0


def test_it_serves_over_udp_and_counts_what_it_answered():
    server = sntp_server.SNTPServer(port=0)
    try:
        port = server.sock.getsockname()[1]
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as client:
            client.settimeout(5)
            client.sendto(b"garbage", ("127.0.0.1", port))
            client.sendto(REQUEST, ("127.0.0.1", port))
            reply, _ = client.recvfrom(512)
        assert fields(reply)[8] == (0xEA1B2C3D << 32) | 999_999_937
        assert abs(to_unix(fields(reply)[10]) - time.time()) < 5
        assert server.answered == 1
    finally:
        server.close()
