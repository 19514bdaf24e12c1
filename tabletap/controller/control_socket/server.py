"""The console's way into a running daemon: a Unix socket in the state folder.

Actions the pieces cannot express (a placement with its facing, a hand-entered move) are typed at
the console with `tabletap do ...`. The daemon stays single-threaded, so the server never waits:
every client socket is non-blocking, `serve_pending()` takes whatever bytes have arrived, answers
the requests that are complete and returns. A client that trickles its request or sends nothing
gets a deadline (`CLIENT_SECONDS`) and is then answered with an error and closed; it can delay a
tap by one poll at most, never hold the loop (a stall over 3 s would also trip the Pico's host
timeout).

A request may carry `"id"`: the server remembers the answer to each id, and the journal records
the id with the entry the request made, so a client that lost its answer (the daemon died, or
the answer was slow) can send the same request again and learn what happened instead of acting
twice.

A handler may answer `Later(ready, seconds)`: the request is parked, its connection kept, and
`ready()` asked again at every pass until it gives the answer or `seconds` have gone by (then
`Later.timeout` is sent). The page's feed waits this way for the table to change (a long poll)
instead of asking ten times a second: an idle daemon is not woken for a page, and a change
reaches the page in the same pass that made it. A `Later` with `then` is a stream: once its
answer is written the connection stays open and waits on the next `Later` (`then(answer)`),
not asked before its `hold` has passed, so a watching phone costs the daemon one snapshot a
change (at most one a `hold`) and no new connection, request line or parse each time.

The socket is created 0660, owned by the daemon's user and its primary group: on the box
the page runs as a user of its own (`tabletap-web`) that is in that group and may drive the
daemon only through this socket (issue 22); the state folder around it stays closed (0700 when
the daemon makes it, 0710 under systemd's `StateDirectoryMode=`, so the group can reach the
socket but not list the folder) and every other file in it is owner-only, so the page reads no
journal, seed or pairing.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from msgspec import Struct, field
from msgspec import json as msgspec_json

from tabletap.controller.loading.bounded import LimitError, load_json
from tabletap.controller.state.folder import StateFolder
from tabletap.controller.state.journal import REQUEST_ID

log = logging.getLogger("tabletap.control")

Handler = Callable[[dict[str, Any]], "dict[str, Any] | Later"]
Recall = Callable[[str], int | None]

BACKLOG = 256  # 200 consoles connecting at once must all get in line, not be refused
MAX_CLIENTS = 64  # connections being read at once; the rest wait in the backlog
CLIENT_SECONDS = 2.0  # one client's whole request must arrive within this
MAX_REQUEST = 65536  # bytes in one request line
MAX_ID = 128  # characters in a request id
REMEMBERED = 512  # answers kept by request id
MAX_PARKED = 8  # requests waiting for a change at once; past this a wait is answered at once
MAX_WAIT = 30.0  # seconds one request may wait
SOCKET_MODE = 0o660  # the daemon's user and group (the page's user is in it): nobody else


def socket_path(state_dir: str | Path) -> Path:
    return StateFolder(state_dir).control_socket


class Later(Struct, frozen=True):
    """An answer that is not ready yet: `ready()` gives it (or None: not yet), asked at every
    pass of the loop; after `seconds` the client gets `timeout` instead.

    `then` makes it a stream: given the answer just sent (ready's or the timeout), it returns
    the next `Later` the same connection waits on, or None to close it after this answer.
    `hold`: seconds after parking before `ready()` is first asked (a stream's pace: a burst of
    changes is one answer a `hold`; `ControlServer.due` says when the held ones are due).
    `moved()`, if given, says cheaply whether `ready()` would answer now: a held request
    whose table has not moved is no reason to wake the loop when its hold ends."""

    ready: Callable[[], dict[str, Any] | None]
    seconds: float
    timeout: dict[str, Any]
    then: Callable[[dict[str, Any]], Later | None] | None = None
    hold: float = 0.0
    moved: Callable[[], bool] | None = None


class NoAnswer(ConnectionError):
    """The daemon closed the connection before a whole answer (it stopped or died)."""


class _Client(Struct):
    conn: socket.socket
    deadline: float
    inbox: bytearray = field(default_factory=bytearray)
    outbox: bytes | None = None  # the answer, once there is one
    later: Later | None = None  # a parked request's way to its answer
    not_before: float = 0.0  # a parked request is not asked before this (Later.hold)
    write_by: float = 0.0  # the answer being written must be taken by then

    def close(self) -> None:
        try:
            self.conn.close()
        except OSError:
            pass


class ControlServer:
    def __init__(self, path: Path, handler: Handler, recall: Recall | None = None,
                 client_seconds: float = CLIENT_SECONDS) -> None:
        """`recall(id)` says whether a request id already made a journal entry (after a
        restart, when the remembered answers are gone)."""
        self.path = path
        self.handler = handler
        self.recall = recall
        self.client_seconds = client_seconds
        self.clients: list[_Client] = []
        self.answers: OrderedDict[str, dict[str, Any]] = OrderedDict()
        path.unlink(missing_ok=True)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o777 & ~SOCKET_MODE)  # 0660 from bind() on: never open to others
        try:
            self.sock.bind(str(path))
        finally:
            os.umask(old)
        self.sock.listen(BACKLOG)
        self.sock.setblocking(False)

    def sockets(self) -> list[socket.socket]:
        """What a request arrives on: the listening socket and every console still sending."""
        # a parked client's socket too: it turns readable when the client hangs up
        consoles = [c.conn for c in self.clients if c.outbox is None]
        # at MAX_CLIENTS nothing more is accepted: a readable listener would only spin the wait
        return [self.sock, *consoles] if len(self.clients) < MAX_CLIENTS else consoles

    def serve_pending(self, accept: bool = True) -> None:
        """Take what has arrived, answer what is complete; never waits for a client.

        `accept=False` (the loop's call after each pass) goes on with the consoles already
        taken (a parked request the pass may have answered, an answer still to write) and
        leaves a new connection to the loop's wait, where the listening socket is watched:
        asking the kernel for one at every pass was a refused `accept` a pass, about a
        twentieth of the daemon's CPU for a tap (bench live)."""
        if not accept and not self.clients:
            return
        now = time.monotonic()
        while accept and len(self.clients) < MAX_CLIENTS:
            try:
                conn, _ = self.sock.accept()
            except (BlockingIOError, InterruptedError):
                break
            except OSError as exc:  # out of descriptors, say: try again next poll
                log.warning("control socket: cannot accept a console: %s", exc)
                break
            conn.setblocking(False)
            self.clients.append(_Client(conn, now + self.client_seconds))
        for client in list(self.clients):
            if client.later is not None:
                # After a pass (accept=False) a parked socket is not read: a hang-up or stray
                # bytes make it readable, and the loop's wait, which watches it, serves it then.
                self._parked(client, now, look=accept)
            elif client.outbox is None:
                self._read(client, now)
            if client.outbox is not None:
                self._write(client)

    def due(self) -> float | None:
        """The soonest moment a held request (`Later.hold`) has an answer to give, if one
        does: the loop's wait serves the socket then, so a change made during a stream's hold
        is not left waiting for the next pass of a quiet table, and a hold with nothing new
        wakes nobody."""
        now = time.monotonic()
        held = [c.not_before for c in self.clients
                if c.later is not None and c.outbox is None and c.not_before > now
                and (c.later.moved is None or _moved(c.later.moved))]
        return min(held) if held else None

    def _parked(self, client: _Client, now: float, look: bool = True) -> None:
        """A parked request: gone (the client hung up), answered (ready), or timed out; with
        `look` its socket is read first (a hang-up, or bytes that are not the protocol)."""
        assert client.later is not None
        if look:
            try:
                # b"": it hung up; anything else is not the protocol (one request a
                # connection) and is dropped, or its readable socket would wake every pass
                if client.conn.recv(4096) == b"":
                    self._drop(client)
                    return
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                self._drop(client)
                return
        if client.outbox is not None or now < client.not_before:
            return  # the last answer of a stream is still being written, or it is held
        later = client.later
        try:
            reply = later.ready()
        except Exception as exc:  # noqa: BLE001 - a console must never end the game
            log.exception("control request failed")
            reply = _error(f"the table could not do that: {exc}")
        if reply is None and now < client.deadline:
            return
        reply = later.timeout if reply is None else reply
        client.outbox = _line(reply)
        client.write_by = now + 2 * self.client_seconds  # to read its answer
        nxt = None
        if later.then is not None:
            try:
                nxt = later.then(reply)
            except Exception:  # noqa: BLE001 - the stream ends; the client asks again
                log.exception("control request failed")
        self._park(client, nxt, now)

    def _park(self, client: _Client, later: Later | None, now: float) -> None:
        client.later = later
        if later is not None:
            client.deadline = now + min(later.seconds, MAX_WAIT)
            client.not_before = now + later.hold

    def _read(self, client: _Client, now: float) -> None:
        ended = False
        try:
            while b"\n" not in client.inbox and len(client.inbox) <= MAX_REQUEST:
                chunk = client.conn.recv(4096)
                if not chunk:
                    ended = True
                    break
                client.inbox += chunk
        except (BlockingIOError, InterruptedError):
            pass
        except OSError as exc:
            log.warning("console went away mid-request: %s", exc)
            self._drop(client)
            return
        line, newline, _ = bytes(client.inbox).partition(b"\n")
        if len(line) > MAX_REQUEST:
            reply = _error(f"bad request: longer than {MAX_REQUEST} bytes")
        elif newline or (ended and line):
            reply = self.answer(line)
            if isinstance(reply, Later):
                parked = sum(1 for c in self.clients if c.later is not None)
                if ended or parked >= MAX_PARKED:  # it cannot wait: the answer as it is now
                    reply = reply.ready() or reply.timeout
                else:
                    self._park(client, reply, now)
                    self._parked(client, now, look=False)  # a stream's first answer: at once
                    return
        elif ended:
            self._drop(client)  # connected and left without a word
            return
        elif now >= client.deadline:
            reply = _error(f"bad request: no whole request line within {self.client_seconds:g} s")
        else:
            return  # more may come at the next poll
        client.outbox = _line(reply)
        client.write_by = client.deadline + self.client_seconds

    def _write(self, client: _Client) -> None:
        assert client.outbox is not None
        try:
            sent = client.conn.send(client.outbox)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError as exc:
            log.warning("console went away before its answer: %s", exc)
            self._drop(client)
            return
        client.outbox = client.outbox[sent:]
        if not client.outbox:
            client.outbox = None
            if client.later is None:
                self._drop(client)  # one answer a connection, but for a stream
        elif time.monotonic() >= client.write_by:
            log.warning("console does not read its answer; closing it")
            self._drop(client)

    def _drop(self, client: _Client) -> None:
        client.close()
        if client in self.clients:
            self.clients.remove(client)

    def answer(self, line: bytes) -> dict[str, Any] | Later:
        """The reply to one request line: parsed within limits, a repeated id answered from
        memory (or from the journal after a restart), never an exception."""
        try:
            request = load_json(line or b"{}", MAX_REQUEST)
            if not isinstance(request, dict):
                raise LimitError("a request is a JSON object, like {\"state\": true}")
            request_id = request.get("id")
            if request_id is not None and (not isinstance(request_id, str)
                                           or not 0 < len(request_id) <= MAX_ID):
                raise LimitError(f"`id` is a string of 1 to {MAX_ID} characters")
        except ValueError as exc:
            return _error(f"bad request: {exc}")
        if request_id is not None:
            known = self._recalled(request_id)
            if known is not None:
                return known
        token = REQUEST_ID.set(request_id)
        try:
            reply = self.handler(request)
        except Exception as exc:  # noqa: BLE001 - a console must never end the game
            log.exception("control request failed")
            reply = _error(f"the table could not do that: {exc}")
        finally:
            REQUEST_ID.reset(token)
        if request_id is not None and not isinstance(reply, Later):
            self.answers[request_id] = reply
            while len(self.answers) > REMEMBERED:
                self.answers.popitem(last=False)
        return reply

    def _recalled(self, request_id: str) -> dict[str, Any] | None:
        if request_id in self.answers:
            return {**self.answers[request_id], "repeated": True}
        number = self.recall(request_id) if self.recall is not None else None
        if number is None:
            return None
        return {"ok": True, "accepted": True, "repeated": True, "events": [],
                "message": f"this request was already done: it was saved as action {number} "
                           "before the table's answer was lost"}

    def close(self) -> None:
        for client in list(self.clients):
            self._drop(client)
        self.sock.close()
        self.path.unlink(missing_ok=True)


def _error(sentence: str) -> dict[str, Any]:
    return {"ok": False, "error": sentence}


def _moved(moved: Callable[[], bool]) -> bool:
    try:
        return moved()
    except Exception:  # noqa: BLE001 - a console must never end the game: ask ready() then
        log.exception("control request failed")
        return True


def _line(reply: dict[str, Any]) -> bytes:
    """One answer as a JSON line. msgspec writes it in C, a tenth of `json.dumps`'s time for a
    snapshot (a few KiB at every change a phone watches); what it cannot write (a key of
    another type than str, int or float) goes through `json.dumps`, as before."""
    try:
        return msgspec_json.encode(reply) + b"\n"
    except (TypeError, ValueError):
        return (json.dumps(reply) + "\n").encode()


def request(path: Path, payload: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
    """Send one request to the daemon and wait for its answer.

    OSError when no daemon listens (or it is too slow: socket.timeout); NoAnswer when it closed
    the connection before a whole answer, which leaves open whether it acted."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(str(path))
        raw = b""
        try:
            s.sendall(json.dumps(payload).encode() + b"\n")
            while not raw.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                raw += chunk
        except TimeoutError:
            raise NoAnswer(f"the table at {path} did not answer within {timeout:g} s") from None
        except OSError as exc:
            raise NoAnswer(f"the table at {path} went away before answering ({exc})") from None
    if not raw.endswith(b"\n"):
        raise NoAnswer(f"the table at {path} closed the connection before answering")
    try:
        reply = load_json(raw, 16 * 1024 * 1024)
    except ValueError as exc:
        raise NoAnswer(f"the table at {path} answered with something unreadable ({exc})") \
            from None
    if not isinstance(reply, dict):
        raise NoAnswer(f"the table at {path} answered with something unreadable")
    return reply


def wait_for_server(path: Path, seconds: float, step: float = 0.2) -> bool:
    """Whether a daemon accepts connections at `path` within `seconds` (after a restart)."""
    deadline = time.monotonic() + seconds
    while True:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            try:
                s.connect(str(path))
                return True
            except OSError:
                pass
        if time.monotonic() >= deadline:
            return False
        time.sleep(step)
