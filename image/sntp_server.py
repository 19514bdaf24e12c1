"""A time server for the boot test: answers SNTP requests with this machine's clock.

The box's clock is set by systemd-timesyncd, an SNTP client (RFC 4330), once the network is up.
The boot test gives the box qemu's user network, in which the host is 10.0.2.2, and this server
on the host's port 123: the box's real timesyncd then steps its clock from whatever it started
at (a Pi has no battery-backed clock) to the host's time, as a home router's pool server would.

No package the build machine has serves SNTP (ntplib and the standard library are clients), and
a full NTP daemon (chrony, ntpsec) would replace the host's own time service when installed; the
server's half of SNTP is one 48-byte answer per request (RFC 4330 section 5), written here. It
claims stratum 2 and no error: the test checks the box follows the host, not how well.
"""

from __future__ import annotations

import socket
import struct
import threading
import time

NTP_EPOCH = 2_208_988_800  # seconds from 1900-01-01 (NTP's era 0) to 1970-01-01
PACKET = struct.Struct("!BBbbII4sQQQQ")  # RFC 4330 section 4, without the optional fields
SERVER_MODE, CLIENT_MODE = 4, 3


def ntp_time(seconds: float) -> int:
    """A Unix time as NTP's 64-bit timestamp: seconds since 1900 and a 32-bit fraction."""
    whole = int(seconds)
    return ((whole + NTP_EPOCH) << 32) | int((seconds - whole) * 2**32)


def answer(request: bytes, received: float, now: float) -> bytes | None:
    """The reply to one request, or None for anything that is not an SNTP client's request."""
    if len(request) < PACKET.size:
        return None
    first, _, poll, _, _, _, _, _, _, _, transmit = PACKET.unpack_from(request)
    version, mode = (first >> 3) & 7, first & 7
    if mode != CLIENT_MODE or not 1 <= version <= 4:
        return None
    return PACKET.pack(
        (0 << 6) | (version << 3) | SERVER_MODE,  # no leap second warning, the client's version
        2,  # stratum: a secondary server, as a pool's
        poll,
        -20,  # precision, about a microsecond
        0,  # root delay
        1 << 10,  # root dispersion: 1/64 s, in 16.16 fixed point
        b"HOST",
        ntp_time(now),  # reference: the server's clock is "set" now
        # The originate field is the request's transmit field bit for bit (RFC 4330 section 5):
        # timesyncd compares it exactly, and puts nanoseconds where NTP has a binary fraction.
        transmit,
        ntp_time(received),
        ntp_time(now),
    )


class SNTPServer:
    """Serves SNTP on a UDP port from a thread until closed; counts the answers it sent."""

    def __init__(self, host: str = "127.0.0.1", port: int = 123) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            self.sock.bind((host, port))
        except PermissionError as exc:
            self.sock.close()
            raise PermissionError(
                f"the boot test's time server needs UDP port {port} (the box's timesyncd asks "
                "port 123): run it as root or give python CAP_NET_BIND_SERVICE") from exc
        self.sock.settimeout(0.5)
        self.answered = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="sntp", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                request, peer = self.sock.recvfrom(512)
            except TimeoutError:
                continue
            except OSError:
                return
            received = time.time()
            reply = answer(request, received, time.time())
            if reply is not None:
                self.answered += 1  # before the reply: a client that has it may read the count
                self.sock.sendto(reply, peer)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()
