"""`tabletap do` reaches a running daemon through its control socket, like a scenario's `do:`."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from tabletap.controller.commands.do import parse_fields

TABLETAP = [sys.executable, "-m", "tabletap.controller.cli"]


def test_fields_are_read_as_yaml():
    assert parse_fields("place", ["domino=12", "at=[2, 3]", "facing=east"]) == {
        "action": "place", "domino": 12, "at": [2, 3], "facing": "east"}


def _do(cfg: Path, *words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TABLETAP, "do", "--config", str(cfg), *words],
                          capture_output=True, text=True, timeout=20)


def test_actions_entered_at_the_console_are_checked_by_the_rules(tmp_path: Path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(f"state_dir: {tmp_path / 'state'}\ngame: magic-keys\nplayers: [ana, ben]\n")
    assert _do(cfg, "end-turn").returncode == 2  # nothing running yet: a clear error
    daemon = subprocess.Popen([*TABLETAP, "run", "--sim", "--config", str(cfg)],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        sock = tmp_path / "state" / "control.sock"
        deadline = time.monotonic() + 20
        while not sock.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        ended = _do(cfg, "end-turn")
        assert ended.returncode == 0 and "It is ben's turn" in ended.stdout
        refused = _do(cfg, "roll")
        assert refused.returncode == 1 and "rejected (physical-dice)" in refused.stdout
        malformed = _do(cfg, "fly", "to=moon")
        assert malformed.returncode == 1 and "bad-action" in malformed.stdout
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=10)
    assert not (tmp_path / "state" / "control.sock").exists()  # removed on a clean stop
