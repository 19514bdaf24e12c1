"""A power cut mid-game loses nothing: SIGKILL the daemon, start it again, play on.

This drives the real `tabletap run --sim` process through its console, kills it with SIGKILL
(no clean-up runs), restarts it on the same state folder and finishes the same game.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.core.helpers import FAKES

TABLETAP = [sys.executable, "-m", "tabletap.controller.cli"]


def _start(cfg: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*TABLETAP, "run", "--sim", "--config", str(cfg)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        cwd=Path(__file__).resolve().parents[1],
    )


def _wait_for_actions(journal: Path, n: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if journal.exists() and len(journal.read_text().splitlines()) >= n + 1:
            return
        time.sleep(0.05)
    raise AssertionError(f"the daemon did not journal {n} actions in {timeout} s")


def _send(proc: subprocess.Popen[str], line: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()


def _state(cfg: Path) -> dict:
    out = subprocess.run([*TABLETAP, "state", "--json", "--config", str(cfg)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_sigkill_mid_game_then_resume_the_same_game(tmp_path: Path):
    cfg = tmp_path / "table.yaml"
    cfg.write_text(
        f"state_dir: {tmp_path / 'state'}\ngame: magic-keys\nplayers: [ana, ben, cleo]\n"
        f"seed: 11\nsetup: {{fake_keys: {json.dumps(FAKES)}}}\n"
    )
    journal = tmp_path / "state" / "journal.jsonl"
    first = _start(cfg)
    try:
        _send(first, "tap magic-keys/key/purple/1 chest")  # ana: true, 2 gems
        _wait_for_actions(journal, 1)
        _send(first, "tap magic-keys/key/purple/4 chest")  # ben: fake
        _wait_for_actions(journal, 2)
    finally:
        os.kill(first.pid, signal.SIGKILL)
        first.wait()
    assert first.returncode == -signal.SIGKILL
    mid = _state(cfg)
    assert mid["current_player"] == "cleo" and mid["scores"]["ana"] == 2

    second = _start(cfg)
    try:
        _send(second, "tap magic-keys/key/blue/3 chest")  # cleo: true, 2 gems
        _wait_for_actions(journal, 3)
        _send(second, "tap magic-keys/key/purple/4 chest")  # ana retries ben's fake: refused
        _send(second, "press end-turn")  # ana's turn ends in moons
        _wait_for_actions(journal, 4)
    finally:
        second.send_signal(signal.SIGTERM)
        out, _ = second.communicate(timeout=10)
    assert "Resuming the unfinished magic-keys game of ana, ben, cleo after 2 actions" in out
    assert "fake-key-already-revealed" in out
    end = _state(cfg)
    assert end["scores"] == {"ana": 2, "ben": 0, "cleo": 2}
    assert end["current_player"] == "ben"
    assert end["keys"]["purple/4"] == "held:ben"
    assert len(journal.read_text().splitlines()) == 5  # header + 4 actions, nothing doubled
