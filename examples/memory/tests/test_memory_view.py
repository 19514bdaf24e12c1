"""Memory's page view in a real browser: `tabletap run --sim` and `tabletap web` as a family's
box runs them, the view loaded from this distribution's package (/views/memory.js), and the
pairs and face-down count following the cards tapped at the simulated table.

Needs Playwright and a chromium (Debian's, as tabletap's own page tests use): skipped where
either is missing.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

TABLETAP = [sys.executable, "-m", "tabletap.controller.cli"]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}


def _wait(check: Callable[[], Any], what: str, seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Table:
    """The daemon on the simulator (its console on stdin) and the page beside it."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        self.url = f"http://127.0.0.1:{port}"
        config = folder / "table.yaml"
        config.write_text(yaml.safe_dump({
            "state_dir": "state", "game": "memory", "players": ["ana", "ben"],
            "web": {"enabled": True, "port": port, "bind": "127.0.0.1", "mdns": False,
                    "public": True}}))
        self.log = open(folder / "processes.log", "w")  # noqa: SIM115 - closed in stop()
        common: dict[str, Any] = {"stdout": self.log, "stderr": subprocess.STDOUT, "env": ENV,
                                  "cwd": folder}
        self.daemon = subprocess.Popen([*TABLETAP, "run", "--sim", "--config", str(config)],
                                       stdin=subprocess.PIPE, text=True, **common)
        self.web = subprocess.Popen([*TABLETAP, "web", "--config", str(config)], **common)
        try:
            _wait((folder / "state" / "control.sock").exists, "the daemon's control socket")
            _wait(self._up, "the page")
        except AssertionError:
            self.stop()
            raise

    def _up(self) -> bool:
        try:
            return httpx.get(self.url + "/api/session", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def say(self, line: str) -> None:
        assert self.daemon.stdin is not None
        self.daemon.stdin.write(line + "\n")
        self.daemon.stdin.flush()

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
        self.log.close()


@pytest.fixture()
def page(tmp_path: Path) -> Iterator[tuple[Any, Table]]:
    path = os.environ.get("TABLETAP_CHROMIUM") or shutil.which("chromium") or shutil.which(
        "chromium-browser")
    # `make test` installs chromium and sets TABLETAP_REQUIRE_BROWSER=1: then a missing browser
    # is a failure, never a quiet skip
    required = os.environ.get("TABLETAP_REQUIRE_BROWSER") == "1"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if required:
            pytest.fail("the playwright package is missing")
        pytest.skip("the playwright package is missing")
    if path is None:
        if required:
            pytest.fail("no chromium to drive (apt-get install chromium)")
        pytest.skip("no chromium to drive")
    table = Table(tmp_path)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=path, args=["--no-sandbox"])
            ctx = browser.new_context(viewport={"width": 360, "height": 800})
            tab = ctx.new_page()
            tab.errors = []
            tab.on("pageerror", lambda e: tab.errors.append(str(e)))
            tab.goto(table.url + "/")
            yield tab, table
            browser.close()
    finally:
        table.stop()


def test_the_view_shows_each_player_s_pairs_and_the_cards_face_down(
        page: tuple[Any, Table]) -> None:
    """"A small page view showing each player's pairs and the number of cards left face
    down", served from the game's package."""
    tab, table = page
    assert httpx.get(table.url + "/views/memory.js").status_code == 200
    tab.wait_for_selector("#memory-pairs li[data-player='ana']")
    assert "ana: 0 pairs" in tab.inner_text("#memory-pairs")
    assert tab.inner_text("#memory-face-down") == "24 of 24 cards"
    table.say("tap memory/card/owl/a chest")
    tab.wait_for_selector("#memory-face-up:has-text('the owl')")
    table.say("tap memory/card/owl/b pond")
    tab.wait_for_selector("#memory-pairs:has-text('ana: 1 pair (owl) ← turn')")
    assert tab.inner_text("#memory-face-down") == "22 of 24 cards"
    assert "none" in tab.inner_text("#memory-face-up")
    assert "twelve animals" in tab.inner_text("#memory-table")
    table.say("tap memory/card/fox/a chest")
    table.say("tap memory/card/cat/a chest")  # a miss: ben's turn
    tab.wait_for_selector("#memory-pairs:has-text('ben: 0 pairs ← turn')")
    assert tab.errors == []
