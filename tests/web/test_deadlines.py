"""The page's connection bounds (tabletap/web/gate.py and deadlines.py) on a real uvicorn,
in-process, with deadlines short enough to watch: each kind of slow client is closed when its
deadline passes, a second address is admitted while the first is over its cap, and a long
answer being read (the event stream) is never cut."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from tabletap.web import gate as gate_module
from tabletap.web.deadlines import protocol_for
from tabletap.web.gate import Gate, address_key, listen
from tabletap.web.limits import Limits

FAST = Limits(head_seconds=0.6, body_seconds=0.6, send_seconds=0.6, idle_seconds=1,
              per_address=4, in_all=6)


async def _app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    if scope["method"] == "POST":
        while (await receive()).get("more_body"):
            pass
    size = 8 * 1024 * 1024 if scope["path"] == "/big" else 2
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", str(size).encode())]
                if scope["path"] != "/stream" else []})
    if scope["path"] == "/stream":  # a slow, endless answer that its client reads
        for _ in range(30):
            await send({"type": "http.response.body", "body": b"tick\n", "more_body": True})
            await asyncio.sleep(0.1)
        await send({"type": "http.response.body", "body": b""})
        return
    await send({"type": "http.response.body", "body": b"x" * size})


class Running:
    def __init__(self, limits: Limits) -> None:
        self.gate = Gate(limits)
        config = uvicorn.Config(_app, host="127.0.0.1", port=0, http=protocol_for(self.gate),
                                ws="none", lifespan="off", log_level="warning",
                                timeout_keep_alive=limits.idle_seconds)
        [self.listener] = listen("127.0.0.1", 0, self.gate)
        self.port = self.listener.getsockname()[1]
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=lambda: asyncio.run(self.server.serve(sockets=[self.listener])), daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline
            time.sleep(0.02)

    def connect(self, source: str = "127.0.0.1") -> socket.socket:
        s = socket.socket()
        s.bind((source, 0))
        s.settimeout(5)
        s.connect(("127.0.0.1", self.port))
        return s

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture()
def server() -> Iterator[Running]:
    r = Running(FAST)
    yield r
    r.stop()


def _closed_within(s: socket.socket, seconds: float) -> float:
    """Seconds until the server closes `s` (reading and dropping what it sends), or fail."""
    start = time.monotonic()
    s.settimeout(0.05)
    while time.monotonic() - start < seconds:
        try:
            if not s.recv(1 << 20):
                return time.monotonic() - start
        except TimeoutError:
            continue
        except ConnectionResetError:
            return time.monotonic() - start
    raise AssertionError(f"still open after {seconds} s")


def _trickling(s: socket.socket, seconds: float) -> float:
    """Send a byte every 0.1 s until the server closes the connection."""
    start = time.monotonic()
    s.settimeout(0.1)
    while time.monotonic() - start < seconds:
        try:
            s.send(b"x")
            if not s.recv(1 << 20):
                return time.monotonic() - start
        except TimeoutError:
            continue
        except (BrokenPipeError, ConnectionResetError):
            return time.monotonic() - start
    raise AssertionError(f"still open after {seconds} s")


def _get(s: socket.socket, path: str = "/") -> bytes:
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
    return s.recv(4096)


def test_a_silent_connection_is_closed_at_the_head_deadline(server: Running):
    assert 0.4 < _closed_within(server.connect(), 3) < 1.5


def test_a_trickled_head_is_closed_at_its_deadline_however_often_it_sends(server: Running):
    s = server.connect()
    s.sendall(b"GET / HTTP/1.1\r\nX-Slow: ")
    assert _trickling(s, 3) < 1.5


def test_a_trickled_body_is_closed_at_the_body_deadline(server: Running):
    s = server.connect()
    s.sendall(b"POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n")
    assert _trickling(s, 3) < 1.5


def test_a_kept_alive_connection_owes_its_next_head_on_time(server: Running):
    s = server.connect()
    assert _get(s).startswith(b"HTTP/1.1 200")
    s.sendall(b"GET / HTTP/1.1\r\n")  # the next request begins, then trickles
    assert _trickling(s, 3) < 1.5
    idle = server.connect()
    assert _get(idle).startswith(b"HTTP/1.1 200")
    assert _closed_within(idle, 3) < 1.5  # said nothing more: keep-alive's idle end


def test_an_answer_left_unread_is_closed(server: Running):
    s = server.connect()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.sendall(b"GET /big HTTP/1.1\r\nHost: t\r\n\r\n")
    time.sleep(1.5)  # reads nothing meanwhile
    assert server.gate.total == 0
    s.close()


def test_an_answer_being_read_has_no_deadline(server: Running):
    s = server.connect()
    s.sendall(b"GET /stream HTTP/1.1\r\nHost: t\r\n\r\n")
    got = b""
    s.settimeout(5)
    while b"0\r\n\r\n" not in got:  # the chunked stream's end, after 3 s of ticks
        chunk = s.recv(4096)
        assert chunk, "closed while its answer was being read"
        got += chunk
    assert got.count(b"tick") == 30


def test_one_address_over_its_cap_is_refused_and_another_still_admitted(server: Running):
    held = [server.connect() for _ in range(FAST.per_address)]
    time.sleep(0.1)
    over = server.connect()
    assert _closed_within(over, 0.5) < 0.5  # closed unread, at once
    other = server.connect("127.0.0.2")
    assert _get(other).startswith(b"HTTP/1.1 200")
    assert server.gate.by_address == {"127.0.0.1": FAST.per_address, "127.0.0.2": 1}
    for s in held:
        s.close()
    other.close()


def test_all_connections_together_are_capped(server: Running):
    held = [server.connect(f"127.0.0.{n}") for n in range(2, 2 + FAST.in_all)]
    time.sleep(0.1)
    assert server.gate.total == FAST.in_all
    assert _closed_within(server.connect("127.0.1.1"), 0.5) < 0.5
    for s in held:
        s.close()


def test_an_ipv6_network_counts_as_one_address_and_the_limit_fits_the_descriptors():
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:2") == "2001:db8::/64"
    assert address_key("::ffff:192.168.1.9") == "192.168.1.9"
    assert Limits().fitted(230).in_all == 230 - 64
    assert Limits().fitted(4096) == Limits()


def test_refusals_are_said_at_most_once_a_minute_and_none_is_lost(monkeypatch, caplog):
    monkeypatch.setattr(gate_module, "REPORT_SECONDS", 0.3)
    gate = Gate(Limits(per_address=1))

    async def flood() -> None:
        assert gate.admit("10.0.0.1")
        for _ in range(500):
            assert not gate.admit("10.0.0.1")
        gate.lapsed("10.0.0.1")
        await asyncio.sleep(0.5)

    with caplog.at_level("WARNING", logger="tabletap.web"):
        # a thread of its own: the browser tests' Playwright may hold this thread's loop
        worker = threading.Thread(target=lambda: asyncio.run(flood()))
        worker.start()
        worker.join(timeout=10)
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 2, said
    assert said[0].startswith("slow or too many clients: 1 connections refused")
    assert "499 connections refused" in said[1] and "1 closed past their deadline" in said[1]
