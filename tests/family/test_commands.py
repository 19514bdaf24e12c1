"""`tabletap new`, `undo` and `abandon` ask the running daemon; commands name their config and
never fall back to the simulator outside --sim; a user without access gets a sentence."""

from __future__ import annotations

import json
import os
import pwd
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

TABLETAP = [sys.executable, "-m", "tabletap.controller.cli"]


def _cmd(*words: str, user: str | None = None, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TABLETAP, *words], capture_output=True, text=True, timeout=30,
                          user=user, env=env, cwd="/")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Path]:
    """A running simulated daemon with no game under way; yields its config file."""
    cfg = tmp_path / "t.yaml"
    cfg.write_text(f"state_dir: {tmp_path / 'state'}\n"
                   "game_options: {magic-keys: {dice: digital}}\n")
    daemon = subprocess.Popen([*TABLETAP, "run", "--sim", "--config", str(cfg)],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, text=True)
    sock = tmp_path / "state" / "control.sock"
    deadline = time.monotonic() + 20
    while not sock.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield cfg
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=10)


def test_new_undo_and_abandon_go_through_the_running_daemon(table: Path):
    c = ("--config", str(table))
    started = _cmd("new", "magic-keys", "--players", "ana,ben", *c)
    assert started.returncode == 0, started.stderr
    assert "A new game of Magic Keys begins: ana, ben." in started.stdout
    assert f"config {table}; backend sim" in started.stderr
    again = _cmd("new", "oversiege", "--players", "red,blue", *c)
    assert again.returncode == 2 and "abandon it first" in again.stderr
    nothing = _cmd("undo", *c)
    assert nothing.returncode == 1 and "nothing-to-undo" in nothing.stdout
    assert _cmd("do", "roll", "dice=[2, 3, 4]", *c).returncode == 0
    chance = _cmd("undo", *c)
    assert chance.returncode == 1 and "a roll stays as rolled" in chance.stdout
    assert _cmd("do", "move", "steps=2", *c).returncode == 0
    undone = _cmd("undo", *c)
    assert undone.returncode == 0 and "Move the pawn back 2 spaces." in undone.stdout
    state = json.loads(_cmd("state", "--json", *c).stdout)
    assert state["pawn"]["position"] == 0 and state["dice"]["showing"] == [2, 3, 4]
    abandoned = _cmd("abandon", *c)
    assert abandoned.returncode == 0 and "is abandoned" in abandoned.stdout
    assert list((table.parent / "state" / "games").glob("*.jsonl"))
    assert _cmd("abandon", *c).returncode == 1  # nothing under way any more
    options = _cmd("new", "kingdomino", "--players", "ana,ben", "--option", "treasures=false",
                   *c)
    assert options.returncode == 0, options.stderr


def test_a_command_without_a_config_never_uses_the_simulator_quietly(tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if k != "TABLETAP_CONFIG"}
    if Path("/etc/tabletap/table.yaml").exists():
        pytest.skip("this machine has a real table config")
    done = _cmd("undo", env=env)
    assert done.returncode == 2
    assert "no config: /etc/tabletap/table.yaml does not exist" in done.stderr
    assert "--sim" in done.stderr and "Traceback" not in done.stderr
    cfg = tmp_path / "t.yaml"
    cfg.write_text(f"state_dir: {tmp_path / 'state'}\nbackend: serial\n")
    via_env = _cmd("undo", env={**env, "TABLETAP_CONFIG": str(cfg)})
    assert f"config {cfg}; backend serial" in via_env.stderr
    assert "no table is running" in via_env.stderr


def _nobody_can_run_python() -> bool:
    if os.geteuid() != 0:
        return False
    try:
        pwd.getpwnam("nobody")
        subprocess.run([sys.executable, "-c", "0"], user="nobody", check=True, timeout=30)
    except (KeyError, OSError, subprocess.CalledProcessError):
        return False
    return True


def test_permission_denied_on_the_socket_is_a_sentence_not_no_table(monkeypatch, capsys):
    """The layer above the transport: whatever raises PermissionError, the user is told what
    to do, never "no table is running" (the real check, as another user, follows)."""
    from tabletap.controller.commands.common import ask_daemon
    from tabletap.controller.control_socket import server as control
    from tabletap.controller.settings.config import Config

    def refused(path, payload, timeout=5.0):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(control, "request", refused)
    with pytest.raises(SystemExit):
        ask_daemon(Config(state_dir="/var/lib/tabletap"), {"undo": True})
    err = capsys.readouterr().err
    assert "you may not use the table's state folder /var/lib/tabletap" in err
    assert "sudo -u tabletap" in err and "no table is running" not in err


@pytest.mark.skipif(not _nobody_can_run_python(),
                    reason="needs root and an interpreter the user nobody may run")
def test_a_user_who_may_not_use_the_state_folder_is_told_so(table: Path):
    state = table.parent / "state"
    state.chmod(0o700)
    table.parent.chmod(0o755)
    done = _cmd("undo", "--config", str(table), user="nobody")
    assert done.returncode == 2, done.stderr
    assert "you may not use the table's state folder" in done.stderr
    assert "sudo -u tabletap" in done.stderr and "no table is running" not in done.stderr
    shown = _cmd("state", "--config", str(table), user="nobody")
    assert shown.returncode == 2 and "you may not read the table's state folder" in shown.stderr


def test_a_state_folder_that_cannot_be_used_is_a_sentence_not_a_traceback(tmp_path: Path):
    (tmp_path / "a-file").write_text("")
    cfg = tmp_path / "t.yaml"
    cfg.write_text(f"state_dir: {tmp_path / 'a-file' / 'state'}\n")
    done = subprocess.run([*TABLETAP, "run", "--sim", "--config", str(cfg)], capture_output=True,
                          text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "the state folder" in done.stderr and "cannot be used (Not a directory" in done.stderr
