"""Fault 2: a second daemon on the same state folder must refuse to start, not take over.

Before the lock, the second `tabletap run` unlinked the first one's control socket and both
appended to one journal.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tabletap.controller.state.lock import StateLock, StateLocked, holder, state_lock
from tests.reliability.procs import cli, magic_keys_config, start, wait_ready


def test_a_second_daemon_on_the_same_folder_refuses_with_a_clear_message(tmp_path: Path):
    cfg = magic_keys_config(tmp_path)
    first = start(cfg)
    try:
        wait_ready(first)
        sock = tmp_path / "state" / "control.sock"
        inode = sock.stat().st_ino
        second = cli("run", "--sim", "--config", str(cfg), timeout=60)
        assert second.returncode == 2
        assert f"is already using the state folder {tmp_path / 'state'}" in second.stderr
        assert f"pid {first.pid}" in second.stderr
        assert "Traceback" not in second.stderr
        assert sock.stat().st_ino == inode  # the first daemon's socket is still its own
        assert first.poll() is None
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=20)
    assert holder(tmp_path / "state") is None  # released on a clean stop


def test_the_lock_is_released_by_a_sigkill(tmp_path: Path):
    cfg = magic_keys_config(tmp_path)
    first = start(cfg)
    wait_ready(first)
    assert holder(tmp_path / "state") == first.pid
    first.kill()
    first.communicate(timeout=20)
    again = start(cfg)
    try:
        lines = wait_ready(again)
        assert any("Resuming" in line for line in lines)
    finally:
        again.send_signal(signal.SIGTERM)
        again.communicate(timeout=20)


def test_the_context_manager_holds_and_releases(tmp_path: Path):
    with state_lock(tmp_path / "s") as lock:
        assert lock.held and holder(tmp_path / "s") is not None
        with pytest.raises(StateLocked, match="only one daemon"):
            StateLock(tmp_path / "s").acquire()
    assert holder(tmp_path / "s") is None
    assert (tmp_path / "s").stat().st_mode & 0o777 == 0o700
    assert (tmp_path / "s" / "lock").stat().st_mode & 0o777 == 0o600
