"""Fault 4: one console client must not freeze the table.

Before: the daemon read each client with a one-second timeout and no overall deadline, so a client
sending one byte every half second kept a tap unanswered for 19.5 s, one that connected and sent
nothing delayed taps by 1 to 5 s, and the listen backlog of 4 refused 188 of 200 clients.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

from tabletap.controller.control_socket.server import ControlServer, request


def _server(tmp_path: Path, **kwargs: object) -> ControlServer:
    return ControlServer(tmp_path / "control.sock", lambda req: {"ok": True, "echo": req},
                         **kwargs)  # type: ignore[arg-type]


def _connect(path: Path) -> socket.socket:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(str(path))
    return s


def _serve_in_background(server: ControlServer, stop: threading.Event) -> threading.Thread:
    def loop() -> None:
        while not stop.is_set():
            server.serve_pending()
            time.sleep(0.01)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    return thread


def test_a_silent_client_does_not_hold_the_poll_loop(tmp_path: Path):
    """serve_pending returns at once with a client that sent nothing (the old server waited a
    whole second for it, every poll, holding the readers)."""
    server = _server(tmp_path)
    silent = _connect(server.path)
    trickle = _connect(server.path)
    trickle.send(b"{")
    try:
        started = time.monotonic()
        for _ in range(5):
            server.serve_pending()
        held = time.monotonic() - started
        assert held < 0.5, f"five polls held the loop {held:.2f} s"
        assert len(server.clients) == 2  # both still waited for, not dropped
    finally:
        silent.close()
        trickle.close()
        server.close()


def test_a_trickling_client_is_cut_off_at_its_deadline_and_others_are_answered(tmp_path: Path):
    server = _server(tmp_path, client_seconds=1.0)
    stop = threading.Event()
    thread = _serve_in_background(server, stop)
    trickle = _connect(server.path)
    try:
        # Meanwhile a well-behaved console is answered at once.
        assert request(server.path, {"state": True})["echo"] == {"state": True}
        answer = b""
        for byte in b'{"state": true':
            try:
                trickle.send(bytes([byte]))
            except OSError:
                break
            time.sleep(0.2)
            answer += _drain(trickle)
            if answer.endswith(b"\n"):
                break
        answer += _drain(trickle, wait=2.0)
        reply = json.loads(answer)
        assert reply["ok"] is False and "within 1 s" in reply["error"]
    finally:
        stop.set()
        thread.join()
        trickle.close()
        server.close()


def test_two_hundred_simultaneous_clients_are_all_answered(tmp_path: Path):
    server = _server(tmp_path)
    clients: list[socket.socket] = []
    refused = 0
    try:
        for _ in range(200):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.setblocking(False)
            try:
                s.connect(str(server.path))
            except BlockingIOError:  # the backlog is full: the old server's 4
                refused += 1
                s.close()
                continue
            clients.append(s)
        assert refused == 0
        for i, s in enumerate(clients):
            s.sendall(json.dumps({"state": True, "n": i}).encode() + b"\n")
        answered = set()
        deadline = time.monotonic() + 20
        while len(answered) < len(clients) and time.monotonic() < deadline:
            server.serve_pending()
            for i, s in enumerate(clients):
                if i not in answered and _drain(s).endswith(b"\n"):
                    answered.add(i)
        assert len(answered) == 200
    finally:
        for s in clients:
            s.close()
        server.close()


def test_bad_requests_get_a_sentence(tmp_path: Path):
    server = _server(tmp_path)
    try:
        for raw, words in [(b"[1]", "JSON object"), (b"\xff\xfe", "not UTF-8"),
                           (b"[" * 5000, "nested"), (b'{"n": 1' + b"0" * 5000 + b"}", "digits"),
                           (b'{"id": 5}', "`id` is a string")]:
            reply = server.answer(raw)
            assert reply["ok"] is False and words in reply["error"], (raw[:20], reply)
    finally:
        server.close()


def test_a_repeated_request_id_is_answered_from_memory(tmp_path: Path):
    calls: list[dict] = []

    def handler(req: dict) -> dict:
        calls.append(req)
        return {"ok": True, "accepted": True, "events": [f"call {len(calls)}"]}

    server = ControlServer(tmp_path / "c.sock", handler, recall=lambda rid: None)
    try:
        first = server.answer(b'{"do": {"action": "end-turn"}, "id": "abc"}')
        again = server.answer(b'{"do": {"action": "end-turn"}, "id": "abc"}')
        assert len(calls) == 1 and again["events"] == first["events"] and again["repeated"]
    finally:
        server.close()


def _drain(s: socket.socket, wait: float = 0.0) -> bytes:
    s.settimeout(wait) if wait else s.setblocking(False)
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except (BlockingIOError, TimeoutError, ConnectionResetError):
        pass
    return data
