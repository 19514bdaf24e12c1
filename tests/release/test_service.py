"""The daemon under systemd: READY, WATCHDOG and STOPPING reach a real notify socket; errors
reach the journal with their priority, each event once; a config or wiring error exits 2 with
one clear line (the unit does not restart it)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

TABLETAP = [sys.executable, "-m", "tabletap.controller.cli"]
REPO = Path(__file__).resolve().parents[2]


def _config(tmp_path: Path, extra: str = "") -> Path:
    cfg = tmp_path / "tabletap.yaml"
    cfg.write_text(f"state_dir: {tmp_path / 'state'}\ngame: magic-keys\nplayers: [ana, ben]\n"
                   f"seed: 3\n{extra}")
    return cfg


def _messages(sock: socket.socket, until: str, timeout: float = 30.0) -> list[str]:
    got: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not any(until in m for m in got):
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            got.append(sock.recv(4096).decode())
        except TimeoutError:
            break
    return got


def test_ready_then_watchdog_pings_then_stopping(tmp_path: Path):
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    env = {**os.environ, "NOTIFY_SOCKET": str(path)}
    proc = subprocess.Popen([*TABLETAP, "run", "--sim", "--config", str(_config(tmp_path))],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env, cwd=REPO)
    try:
        first = _messages(sock, "WATCHDOG=1")
        assert first[0].startswith("READY=1"), first
        assert "WATCHDOG=1" in first
        pings = _messages(sock, "never", timeout=2.5)
        # Throttled to one a second however fast the loop runs (every 0.1 s).
        assert 1 <= pings.count("WATCHDOG=1") <= 3, pings
        assert proc.stdin is not None
        proc.stdin.close()  # end of the console: the daemon stops cleanly
        assert "STOPPING=1" in _messages(sock, "STOPPING=1")
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
        sock.close()


def _journal_env() -> dict[str, str]:
    # systemd sets JOURNAL_STREAM when stderr is the journal; without Debian's python3-systemd
    # (as in the development venv) the lines carry the sd-daemon <N> priority prefix.
    env = {**os.environ, "JOURNAL_STREAM": "8:12345"}
    env.pop("NOTIFY_SOCKET", None)
    return env


def test_under_systemd_each_event_reaches_the_journal_once_with_its_priority(tmp_path: Path):
    proc = subprocess.Popen([*TABLETAP, "run", "--sim", "--config", str(_config(tmp_path))],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_journal_env(), cwd=REPO)
    assert proc.stdin is not None
    # A rejection (physical dice: the pawn is moved by hand) and an accepted end of turn; the
    # simulated buttons are read by the loop, so the console stays open while they are.
    proc.stdin.write("press roll\npress end-turn\n")
    proc.stdin.flush()
    time.sleep(5)
    _, err = proc.communicate(timeout=60)
    lines = err.splitlines()
    rejected = [line for line in lines if "rejected" in line]
    assert len(rejected) == 1 and rejected[0].startswith("<4>tabletap.session: rejected"), err
    turn = [line for line in lines if "It is ben's turn" in line]
    assert len(turn) == 1 and turn[0].startswith("<6>tabletap.table: "), err


def test_a_config_error_is_one_error_line_and_exit_2(tmp_path: Path):
    cfg = _config(tmp_path, "chest: {open_secnds: 5}\n")
    out = subprocess.run([*TABLETAP, "run", "--config", str(cfg)], capture_output=True,
                         text=True, env=_journal_env(), cwd=REPO, timeout=60)
    assert out.returncode == 2
    assert out.stderr.startswith("<3>tabletap: config error: ")
    assert "open_secnds" in out.stderr and len(out.stderr.splitlines()) == 1


def test_an_unknown_gpio_library_is_a_clear_error_not_a_traceback(tmp_path: Path):
    cfg = _config(tmp_path, "backend: gpio\npin_factory: nosuchlib\n")
    out = subprocess.run([*TABLETAP, "run", "--config", str(cfg)], capture_output=True,
                         text=True, cwd=REPO, timeout=60,
                         env={**os.environ, "GPIOZERO_PIN_FACTORY": ""})
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    assert "tabletap: cannot start: the gpio wiring cannot start" in out.stderr


def test_version():
    out = subprocess.run([*TABLETAP, "--version"], capture_output=True, text=True, check=True)
    from importlib.metadata import version
    assert out.stdout.strip() == f"tabletap {version('tabletap')}"


def _start_notices(cfg: Path) -> list[str]:
    """The daemon's start-up lines under systemd (stdin closed at once: it starts and stops)."""
    out = subprocess.run([*TABLETAP, "run", "--sim", "--config", str(cfg)], input="",
                         capture_output=True, text=True, env=_journal_env(), cwd=REPO,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stderr.splitlines()


def test_start_notices_reach_the_journal_once_at_their_level(tmp_path: Path):
    """Issue 13, "each event logged once": an idle table is news (info), a config naming other
    players than the unfinished game is a warning, and neither is logged twice."""
    idle = tmp_path / "idle.yaml"
    idle.write_text(f"state_dir: {tmp_path / 'idle'}\n")
    lines = [line for line in _start_notices(idle) if "No game is under way" in line]
    assert len(lines) == 1 and lines[0].startswith("<6>tabletap.table: "), lines

    cfg = _config(tmp_path)
    _start_notices(cfg)  # the game of ana and ben starts, unfinished
    cfg.write_text(cfg.read_text().replace("[ana, ben]", "[ana, cy]"))
    lines = [line for line in _start_notices(cfg) if "ana, cy" in line]
    assert len(lines) == 1 and lines[0].startswith("<4>tabletap.runtime: "), lines
