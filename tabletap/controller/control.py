"""The console's way into a running daemon: a Unix socket in the state folder.

Actions the pieces cannot express (Kingdomino's placements, a hand-entered move) are typed at the
console with `tabletap do ...`. The daemon stays single-threaded: it accepts and answers these
requests between polls, without blocking, so a slow console never stalls the readers.
The socket is created owner-only (0600): only the daemon's user and root may drive the table.
"""

from __future__ import annotations

import json
import logging
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger("tabletap.control")

Handler = Callable[[dict[str, Any]], dict[str, Any]]


def socket_path(state_dir: str | Path) -> Path:
    return Path(state_dir) / "control.sock"


class ControlServer:
    def __init__(self, path: Path, handler: Handler) -> None:
        self.path = path
        self.handler = handler
        path.unlink(missing_ok=True)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            self.sock.bind(str(path))
        finally:
            os.umask(old)
        self.sock.listen(4)
        self.sock.setblocking(False)

    def serve_pending(self) -> None:
        """Answer every request waiting now; never blocks for long."""
        while True:
            try:
                conn, _ = self.sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            with conn:
                conn.settimeout(1.0)
                try:
                    raw = b""
                    while not raw.endswith(b"\n") and len(raw) < 65536:
                        chunk = conn.recv(4096)
                        if not chunk:
                            break
                        raw += chunk
                    request = json.loads(raw or b"{}")
                    if not isinstance(request, dict):
                        raise ValueError("a request is a JSON object")
                    reply = self.handler(request)
                except (OSError, ValueError, RecursionError) as exc:
                    reply = {"ok": False, "error": f"bad request: {exc}"}
                except Exception as exc:  # noqa: BLE001 - a console must never end the game
                    log.exception("control request failed")
                    reply = {"ok": False, "error": f"the table could not do that: {exc}"}
                try:
                    conn.sendall(json.dumps(reply).encode() + b"\n")
                except OSError as exc:
                    log.warning("console went away before its answer: %s", exc)

    def close(self) -> None:
        self.sock.close()
        self.path.unlink(missing_ok=True)


def request(path: Path, payload: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
    """Send one request to the daemon and wait for its answer."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(str(path))
        s.sendall(json.dumps(payload).encode() + b"\n")
        raw = b""
        while not raw.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            raw += chunk
    return json.loads(raw)
