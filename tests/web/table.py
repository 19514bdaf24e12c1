"""A real simulated table and a real `tabletap web` beside it, each its own process, as a family's
box runs them: the daemon on the simulator (`tabletap run --sim`, its console on stdin) and the
page talking to it over the control socket."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import yaml

from tabletap.controller.control_socket.server import request
from tabletap.sim.context import TAP_SECONDS

TABLETAP = [sys.executable, "-m", "tabletap.controller.cli"]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}

# The two-player game of scenarios/kingdomino/two-players.yaml: a known box order and king draw.
KINGDOMINO = {
    "game": "kingdomino", "players": ["ana", "ben"], "seed": 11,
    "setup": {"draw": [5, 13, 29, 31, 23, 41, 18, 47, 28, 24, 11, 43, 4, 22, 19, 46, 37, 34, 1,
                       39, 45, 26, 36, 40],
              "king_order": ["ana", "ana", "ben", "ben"]},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(check: Any, what: str, seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Table:
    """`tabletap run --sim` and `tabletap web` on one config, in a folder of their own."""

    def __init__(self, folder: Path, game: dict[str, Any] | None = None,
                 pairing_seconds: float = 30, public: bool = True,
                 pairing_attempts: int = 5) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # The processes run in `folder`, the state folder given relative to it, as a maker's
        # config might (and no machine path shows in the screenshots).
        config = {"state_dir": "state", **(game or KINGDOMINO),
                  "web": {"enabled": True, "port": self.port, "bind": "127.0.0.1",
                          "mdns": False, "public": public, "pairing_seconds": pairing_seconds,
                          "pairing_attempts": pairing_attempts}}
        self.config = folder / "table.yaml"
        self.config.write_text(yaml.safe_dump(config))
        self.sock = folder / "state" / "control.sock"
        self.daemon_log = open(folder / "daemon.log", "w")  # noqa: SIM115 - closed in stop()
        self.web_log = open(folder / "web.log", "w")  # noqa: SIM115
        self.daemon = self.start_daemon()
        self.web = subprocess.Popen([*TABLETAP, "web", "--config", str(self.config)],
                                    stdout=self.web_log, stderr=subprocess.STDOUT, env=ENV,
                                    cwd=folder)
        try:
            _wait(self.sock.exists, "the daemon's control socket")
            _wait(self._web_up, "the page")
        except AssertionError:
            self.stop()
            raise

    def start_daemon(self) -> subprocess.Popen[str]:
        """`tabletap run --sim` on this table's config (it resumes the game in the journal)."""
        return subprocess.Popen([*TABLETAP, "run", "--sim", "--config", str(self.config)],
                                stdin=subprocess.PIPE, stdout=self.daemon_log,
                                stderr=subprocess.STDOUT, text=True, env=ENV, cwd=self.folder)

    def _web_up(self) -> bool:
        try:
            return httpx.get(self.url + "/api/session", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def say(self, line: str) -> None:
        """A line at the simulator's console: `tap admin/1 chest`, `tap kingdomino/domino/5`.

        The simulator's tap leaves the piece on the reader TAP_SECONDS; a second tap of it
        sooner would put it down where it still lies, which is no new tap, at a real table as
        here. So a tap of the same piece on the same reader waits until the last one has been
        lifted and its misses counted (a generous second more): two pairings in a row, say,
        are two taps of the parent card however fast the page between them is."""
        verb, *rest = line.split()
        if verb == "tap" and rest:
            # (piece, reader) -> when; kept here, as a subclass (launch.BoxTable) has its own
            # __init__
            tapped: dict[tuple[str, str], float] = self.__dict__.setdefault("_tapped", {})
            key = (rest[0], rest[1] if len(rest) > 1 else "")
            last = tapped.get(key)
            if last is not None:
                time.sleep(max(0.0, last + TAP_SECONDS + 1.0 - time.monotonic()))
            tapped[key] = time.monotonic()
        assert self.daemon.stdin is not None
        self.daemon.stdin.write(line + "\n")
        self.daemon.stdin.flush()

    def ask(self, payload: dict[str, Any]) -> dict[str, Any]:
        return request(self.sock, payload)

    def state(self) -> dict[str, Any]:
        return self.ask({"state": True})["state"]

    def log(self) -> str:
        self.daemon_log.flush()
        return (self.folder / "daemon.log").read_text()

    def wait_log(self, text: str, seconds: float = 10.0) -> None:
        _wait(lambda: text in self.log(), repr(text), seconds)

    def stop(self) -> None:
        for proc in (self.web, self.daemon):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in (self.web, self.daemon):
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.daemon_log.close()
        self.web_log.close()


def dump(reply: Any) -> str:
    return json.dumps(reply, indent=1)[:2000]
