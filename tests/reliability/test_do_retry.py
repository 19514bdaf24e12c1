"""Fault 5: `tabletap do` says whether a move counted when the daemon dies mid-answer.

Before: `do` printed a JSONDecodeError traceback, although 150 of 693 such moves had been
journaled, and a retry would have applied the move twice (there was no request id).

The daemons here are real `tabletap run --sim` processes. `dying` is the same daemon with one
hook: it SIGKILLs itself right after it handled a `do` request (journal written) and before the
answer leaves, the window the fault lives in.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.reliability.procs import ROOT, TABLETAP, cli, start, wait_ready

DYING = """
import os, signal, sys
from tabletap.controller.control_socket import server as control
from tabletap.controller.cli import main
original = control.ControlServer.answer
def answer(self, line):
    reply = original(self, line)
    if b'"do"' in line:
        os.kill(os.getpid(), signal.SIGKILL)  # after the journal, before the answer
    return reply
control.ControlServer.answer = answer
sys.exit(main(sys.argv[1:]))
"""


def _config(tmp_path: Path) -> Path:
    cfg = tmp_path / "t.yaml"
    cfg.write_text(f"state_dir: {tmp_path / 'state'}\ngame: magic-keys\nplayers: [ana, ben]\n"
                   "seed: 3\n")
    return cfg


def _dying(cfg: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", DYING, "run", "--sim", "--config", str(cfg)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)


def _do(cfg: Path, *words: str, wait: float = 1.0) -> subprocess.Popen[str]:
    return subprocess.Popen([*TABLETAP, "do", "--config", str(cfg), "--retry-wait", str(wait),
                             *words], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT)


def _actions(tmp_path: Path) -> list[dict]:
    lines = (tmp_path / "state" / "journal.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines[1:]]


def test_the_daemon_dies_after_saving_and_do_says_the_move_counted(tmp_path: Path):
    cfg = _config(tmp_path)
    daemon = _dying(cfg)
    wait_ready(daemon)
    do = _do(cfg, "end-turn")
    out, err = do.communicate(timeout=60)
    daemon.wait(timeout=20)  # not communicate(): closing its stdin would stop a sim daemon
    assert daemon.returncode == -signal.SIGKILL
    assert "Traceback" not in err
    assert do.returncode == 0, (out, err)
    assert "the move counted" in out and "action 1" in out
    assert len(_actions(tmp_path)) == 1


def test_a_restarted_daemon_recognises_the_retry_and_does_not_act_twice(tmp_path: Path):
    cfg = _config(tmp_path)
    daemon = _dying(cfg)
    wait_ready(daemon)
    do = _do(cfg, "end-turn", wait=30)
    daemon.wait(timeout=30)  # it died with the move saved, the answer unsent
    assert daemon.returncode == -signal.SIGKILL
    again = start(cfg)  # systemd's restart
    try:
        wait_ready(again)
        out, err = do.communicate(timeout=60)
        assert "Traceback" not in err
        assert do.returncode == 0, (out, err)
        assert "the move counted" in out
        entries = _actions(tmp_path)
        assert len(entries) == 1 and entries[0]["id"]  # once, with its request id
        state = json.loads(cli("state", "--json", "--config", str(cfg)).stdout)
        assert state["current_player"] == "ben"
    finally:
        again.send_signal(signal.SIGTERM)
        again.communicate(timeout=20)


def test_the_daemon_dies_before_reading_and_do_says_the_move_did_not_count(tmp_path: Path):
    cfg = _config(tmp_path)
    daemon = start(cfg)
    wait_ready(daemon)
    os.kill(daemon.pid, signal.SIGSTOP)  # frozen: the request waits, unread
    do = _do(cfg, "end-turn")
    _wait_for_a_queued_connection(tmp_path / "state" / "control.sock")
    os.kill(daemon.pid, signal.SIGKILL)
    daemon.wait(timeout=20)
    out, err = do.communicate(timeout=60)
    assert "Traceback" not in err
    assert do.returncode == 3, (out, err)
    assert "did NOT count" in out
    assert _actions(tmp_path) == []


def _wait_for_a_queued_connection(sock: Path, timeout: float = 30.0) -> None:
    """Until the kernel holds a connection to `sock` besides the listener (/proc/net/unix lists
    a not yet accepted connection under the listener's path)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = Path("/proc/net/unix").read_text().splitlines()
        if sum(row.endswith(" " + str(sock)) for row in rows) >= 2:
            return
        time.sleep(0.05)
    raise AssertionError("`tabletap do` never connected")
