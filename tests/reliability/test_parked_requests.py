"""A request that waits for a change (`Later`, the page's long poll, issue 23).

Before, the page asked the daemon for a snapshot ten times a second while a phone watched: about
a third of the daemon's CPU per tap and most of its idle CPU went to answering "nothing changed".
Now one request is parked at the daemon and answered in the pass that changed the table. It must
never cost the loop a wait, never outlive its client, and never let a local client park the
server full.
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path
from typing import Any

from tabletap.controller.control_socket.server import MAX_PARKED, ControlServer, Later
from tests.core.helpers import magic_keys_table, tap


class _Table:
    """A counter the handler waits on, as the page's side waits on its change counter."""

    def __init__(self) -> None:
        self.counter = 0
        self.asked = 0

    def handler(self, req: dict[str, Any]) -> dict[str, Any] | Later:
        since = req.get("since")

        def ready() -> dict[str, Any] | None:
            self.asked += 1
            return None if self.counter == since else {"ok": True, "counter": self.counter}

        now = ready()
        if now is not None or not req.get("wait"):
            return now or {"ok": True, "counter": since, "changed": False}
        return Later(ready, float(req["wait"]), {"ok": True, "counter": since, "changed": False})


def _ask(path: Path, payload: dict[str, Any]) -> socket.socket:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(str(path))
    s.sendall(json.dumps(payload).encode() + b"\n")
    s.setblocking(False)
    return s


def _answer(s: socket.socket) -> dict[str, Any] | None:
    try:
        raw = s.recv(65536)
    except BlockingIOError:
        return None
    return json.loads(raw) if raw else None


def test_a_parked_request_is_answered_in_the_pass_that_changed_the_table(tmp_path: Path):
    table = _Table()
    server = ControlServer(tmp_path / "c.sock", table.handler)
    try:
        s = _ask(server.path, {"since": 0, "wait": 20})
        for _ in range(3):  # nothing changed: passes answer nothing and never block
            server.serve_pending()
        assert _answer(s) is None
        assert [c.later is not None for c in server.clients] == [True]
        table.counter = 1
        server.serve_pending()
        assert _answer(s) == {"ok": True, "counter": 1}
        assert server.clients == []  # answered and closed
        s.close()
    finally:
        server.close()


def test_a_wait_ends_with_the_timeout_answer(tmp_path: Path):
    table = _Table()
    server = ControlServer(tmp_path / "c.sock", table.handler)
    try:
        s = _ask(server.path, {"since": 0, "wait": 0.05})
        server.serve_pending()
        assert _answer(s) is None
        time.sleep(0.1)
        server.serve_pending()
        assert _answer(s) == {"ok": True, "counter": 0, "changed": False}
        s.close()
    finally:
        server.close()


def test_a_client_that_hangs_up_while_parked_is_forgotten(tmp_path: Path):
    table = _Table()
    server = ControlServer(tmp_path / "c.sock", table.handler)
    try:
        s = _ask(server.path, {"since": 0, "wait": 20})
        server.serve_pending()
        assert len(server.clients) == 1
        # its socket stays in what the loop waits on, so the hang-up wakes the loop
        assert s.fileno() and server.clients[0].conn in server.sockets()
        s.close()
        server.serve_pending()
        assert server.clients == []
    finally:
        server.close()


def test_bytes_after_a_parked_request_are_dropped_not_left_to_wake_every_pass(tmp_path: Path):
    table = _Table()
    server = ControlServer(tmp_path / "c.sock", table.handler)
    try:
        s = _ask(server.path, {"since": 0, "wait": 20})
        server.serve_pending()
        s.sendall(b"more and more\n" * 10)
        server.serve_pending()
        parked = server.clients[0].conn
        parked.setblocking(False)
        try:
            left = parked.recv(1, socket.MSG_PEEK)
        except BlockingIOError:
            left = b""
        assert left == b""  # nothing left to make the socket readable again
        assert server.clients[0].later is not None  # still waiting for its change
        s.close()
    finally:
        server.close()


def test_past_max_parked_a_wait_is_answered_at_once(tmp_path: Path):
    table = _Table()
    server = ControlServer(tmp_path / "c.sock", table.handler)
    clients = []
    try:
        for _ in range(MAX_PARKED + 3):
            clients.append(_ask(server.path, {"since": 0, "wait": 20}))
        server.serve_pending()
        answered = [c for c in clients if _answer(c) is not None]
        assert len(answered) == 3
        assert sum(1 for c in server.clients if c.later is not None) == MAX_PARKED
    finally:
        for c in clients:
            c.close()
        server.close()


def test_the_page_snapshot_waits_for_a_tap(tmp_path: Path):
    """The daemon's real `snapshot` kind: with `wait` it parks, and the tap's pass answers."""
    from tabletap.controller.control_socket import page as web_requests

    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon)
    first = web_requests.handle(daemon, {"snapshot": True, "since": None, "wait": 5})
    assert isinstance(first, dict) and first["changed"]  # a first snapshot is never parked
    later = web_requests.handle(daemon, {"snapshot": True, "since": first["counter"], "wait": 5})
    assert isinstance(later, Later)
    assert later.ready() is None
    tap(daemon, ctx, "magic-keys/key/blue/3")
    moved = later.ready()
    assert moved is not None and moved["changed"] and moved["counter"] > first["counter"]
    assert later.timeout["changed"] is False


class _Stream(_Table):
    """The same counter, asked as a stream: each answer parks the connection again."""

    def __init__(self, hold: float = 0.0) -> None:
        super().__init__()
        self.hold = hold

    def handler(self, req: dict[str, Any]) -> dict[str, Any] | Later:
        def later(seen: int, hold: float) -> Later:
            def ready() -> dict[str, Any] | None:
                self.asked += 1
                return None if self.counter == seen else {"ok": True, "counter": self.counter}
            return Later(ready, 20.0, {"ok": True, "counter": seen, "changed": False},
                         then=lambda sent: later(sent["counter"], self.hold), hold=hold,
                         moved=lambda: self.counter != seen)
        return later(req["since"], 0.0)


def _lines(s: socket.socket) -> list[dict[str, Any]]:
    try:
        raw = s.recv(65536)
    except BlockingIOError:
        return []
    return [json.loads(line) for line in raw.splitlines()]


def test_a_stream_answers_each_change_on_one_connection(tmp_path: Path):
    table = _Stream()
    server = ControlServer(tmp_path / "c.sock", table.handler)
    try:
        s = _ask(server.path, {"since": 0})
        server.serve_pending()
        for counter in (1, 2, 3):
            table.counter = counter
            server.serve_pending(accept=False)  # the pass that moved it
            assert _lines(s) == [{"ok": True, "counter": counter}]
        assert len(server.clients) == 1 and server.clients[0].later is not None
        s.close()
        server.serve_pending()  # the loop's wait, woken by the hang-up
        assert server.clients == []
    finally:
        server.close()


def test_a_held_stream_sends_the_newest_when_its_hold_is_up_and_wakes_nobody_for_nothing(
        tmp_path: Path):
    table = _Stream(hold=0.2)
    server = ControlServer(tmp_path / "c.sock", table.handler)
    try:
        s = _ask(server.path, {"since": 0})
        server.serve_pending()
        table.counter = 1
        server.serve_pending(accept=False)
        assert _lines(s) == [{"ok": True, "counter": 1}]
        assert server.due() is None  # held, but nothing new: no reason to wake the loop
        table.counter, asked = 2, table.asked
        due = server.due()
        assert due is not None and due > time.monotonic()
        table.counter = 3  # a burst within the hold
        server.serve_pending(accept=False)
        assert _lines(s) == [] and table.asked == asked  # not even asked while held
        time.sleep(max(0.0, due - time.monotonic()))
        server.serve_pending()
        assert _lines(s) == [{"ok": True, "counter": 3}]  # the newest, once
        s.close()
    finally:
        server.close()


def test_the_page_snapshot_stream_needs_a_wait_and_answers_at_once(tmp_path: Path):
    from tabletap.controller.control_socket import page as web_requests

    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon)
    refused = web_requests.handle(daemon, {"snapshot": True, "since": None, "stream": 0.1})
    assert isinstance(refused, dict) and not refused["ok"] and "`wait`" in refused["error"]
    first = web_requests.handle(daemon, {"snapshot": True, "since": None, "wait": 5,
                                         "stream": 0.1})
    assert isinstance(first, Later) and first.hold == 0
    answer = first.ready()
    assert answer is not None and answer["changed"]
    assert first.then is not None
    nxt = first.then(answer)
    assert nxt is not None and nxt.hold == 0.1 and nxt.ready() is None
    assert nxt.moved is not None and not nxt.moved()
    tap(daemon, ctx, "magic-keys/key/blue/3")
    assert nxt.moved()
    moved = nxt.ready()
    assert moved is not None and moved["counter"] > answer["counter"]
