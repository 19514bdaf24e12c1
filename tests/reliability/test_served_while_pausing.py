"""A console or the phone page is answered during the loop's pause, not at the next pass.

Before: the control socket was read once per pass, so every request waited for the rest of the
pause (up to a poll period); a touch on the page, three round trips, took about 0.4 s. Now the
pause selects on the readers and the control socket together (daemon.wait_serving): a request is
answered the moment it arrives and the pause goes on; a reader's answer still ends it.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from types import SimpleNamespace

from tabletap.controller.control_socket.server import ControlServer, request
from tabletap.controller.table.daemon import wait_serving


class _Pipe:
    """A reader's wait handle as the hardware offers it: a readable descriptor."""

    def __init__(self) -> None:
        self.r, self.w = os.pipe()

    def fileno(self) -> int:
        return self.r

    def close(self) -> None:
        os.close(self.r)
        os.close(self.w)


def test_a_request_is_answered_during_the_pause_which_a_reader_then_ends(tmp_path: Path):
    server = ControlServer(tmp_path / "control.sock", lambda req: {"ok": True, "echo": req})
    reader = _Pipe()
    returned = threading.Event()
    seen: dict[str, object] = {}

    def console() -> None:
        # Nothing but the pause serves this server: without serving during it, this request
        # would time out (the pause is far longer than the request's timeout).
        seen["answer"] = request(server.path, {"state": True}, timeout=5.0)
        seen["during_pause"] = not returned.is_set()
        os.write(reader.w, b"\x01")  # then a tag arrives: the pause must end

    thread = threading.Thread(target=console)
    thread.start()
    try:
        wait_serving([reader], server.sockets, server.serve_pending, 60.0)
        returned.set()
        thread.join(10)
        assert seen["answer"] == {"ok": True, "echo": {"state": True}}
        assert seen["during_pause"] is True
    finally:
        reader.close()
        server.close()


def test_with_nothing_to_do_the_pause_lasts_its_time_and_serves_nothing(tmp_path: Path):
    server = ControlServer(tmp_path / "control.sock", lambda req: {"ok": True})
    served: list[int] = []
    try:
        wait_serving([], server.sockets, lambda: served.append(1), 0.05)
        assert served == []
    finally:
        server.close()


def test_a_full_house_of_consoles_does_not_spin_the_pause(tmp_path: Path):
    """At MAX_CLIENTS the listening socket leaves the wait: a connection waiting in the backlog
    would otherwise keep it readable and the pause would turn into a busy loop."""
    from tabletap.controller.control_socket import server as control

    server = ControlServer(tmp_path / "control.sock", lambda req: {"ok": True})
    try:
        answering = SimpleNamespace(outbox=b"{}\n")  # a console being answered, not read
        server.clients = [answering] * control.MAX_CLIENTS  # type: ignore[list-item]
        assert server.sock not in server.sockets()
    finally:
        server.clients = []
        server.close()
