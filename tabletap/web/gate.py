"""Who may connect to the page: at most `per_address` connections from one address and
`in_all` together, counted as the listening socket accepts them.

A connection past a cap is closed by `GatedSocket.accept()` there and then, before a byte of it
is read and before the event loop makes a transport of it: a flood from one laptop holds at
most `per_address` descriptors, never the page's last one, and never starves a phone on another
address (issue 22: 240 slow sockets against a limit of 230 stopped the page answering anyone).
An IPv6 /64 counts as one address, since one machine may take any number in its network's.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
import time
from typing import Any

from tabletap.web.limits import Limits

log = logging.getLogger("tabletap.web")

REFUSALS_PER_ACCEPT = 256  # then the event loop gets a turn, however long the flood
REPORT_SECONDS = 60.0  # at most one warning line a minute about refused or expired clients


def address_key(host: str) -> str:
    """Whom a connection counts against: its IPv4 address, or its IPv6 /64 (one machine may
    take any number of addresses in its network's /64)."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


class Gate:
    """The count of open connections, in all and by address, with a warning now and then
    (never one line per refused connection: a flood would fill the journal)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.total = 0
        self.by_address: dict[str, int] = {}
        self.refused = 0
        self.expired = 0
        self._reported = time.monotonic() - REPORT_SECONDS  # the first is said at once
        self._pending: asyncio.TimerHandle | None = None
        self._last = ""

    def admit(self, key: str) -> bool:
        held = self.by_address.get(key, 0)
        if held >= self.limits.per_address or self.total >= self.limits.in_all:
            self.refused += 1
            self._report(key)
            return False
        self.by_address[key] = held + 1
        self.total += 1
        return True

    def leave(self, key: str) -> None:
        held = self.by_address.get(key, 0)
        if held <= 1:
            self.by_address.pop(key, None)
        else:
            self.by_address[key] = held - 1
        self.total = max(0, self.total - 1)

    def lapsed(self, key: str) -> None:
        self.expired += 1
        self._report(key)

    def _report(self, key: str) -> None:
        """Say it now if nothing was said in the last minute, else once the minute is up: one
        line a minute at most, and every refusal and expiry counted in one."""
        self._last = key
        if self._pending is not None:
            return
        wait = self._reported + REPORT_SECONDS - time.monotonic()
        if wait <= 0:
            self._say()
        else:
            self._pending = asyncio.get_running_loop().call_later(wait, self._say)

    def _say(self) -> None:
        self._pending = None
        log.warning("slow or too many clients: %d connections refused (at most %d at once from "
                    "one address, %d in all) and %d closed past their deadline; the last from "
                    "%s", self.refused, self.limits.per_address, self.limits.in_all,
                    self.expired, self._last)
        self.refused = self.expired = 0
        self._reported = time.monotonic()


class GatedSocket(socket.socket):
    """The page's listening socket: `accept()` hands the event loop only the connections the
    gate admits and closes the others there and then."""

    gate: Gate

    def accept(self) -> tuple[socket.socket, Any]:
        for _ in range(REFUSALS_PER_ACCEPT):
            conn, peer = super().accept()  # BlockingIOError when none is waiting
            if self.gate.admit(address_key(peer_host(peer))):
                return conn, peer
            conn.close()
        raise BlockingIOError("refused enough connections for one turn of the loop")


def peer_host(peer: Any) -> str:
    return str(peer[0]) if isinstance(peer, tuple) and peer else "local"


def listen(host: str, port: int, gate: Gate) -> list[GatedSocket]:
    """Bound sockets for `host` and `port`, one per address it names, as asyncio's own
    `create_server(host=...)` makes them (IPv6 sockets IPv6 only), each behind `gate`."""
    found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                               flags=socket.AI_PASSIVE)
    listeners: list[GatedSocket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(found):
            sock = GatedSocket(family, kind, proto)
            sock.gate = gate
            listeners.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
    except OSError:
        for sock in listeners:
            sock.close()
        raise
    return listeners
