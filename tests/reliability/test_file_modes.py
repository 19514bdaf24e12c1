"""Fault 8 (outside the unit): the daemon creates its state owner-only, whatever the umask.

Before: the state folder was created 0755 and the journal 0644, so any local user could read the
seed, and so which keys are fake.
"""

from __future__ import annotations

import os
import signal
import stat
from pathlib import Path

from tests.reliability.procs import magic_keys_config, start, wait_ready


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _new_game_under_the_usual_umask(cfg: Path) -> None:
    """Start a daemon on a new game with umask 022, which it must not rely on, then stop it."""
    old = os.umask(0o022)
    try:
        daemon = start(cfg, "--new")
    finally:
        os.umask(old)
    try:
        wait_ready(daemon)
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.communicate(timeout=20)


def test_the_daemon_creates_its_state_owner_only(tmp_path: Path):
    cfg = magic_keys_config(tmp_path)
    _new_game_under_the_usual_umask(cfg)
    state = tmp_path / "state"
    assert _mode(state) == 0o700
    assert _mode(state / "journal.jsonl") == 0o600
    assert _mode(state / "lock") == 0o600
    # A second game archives the first one in games/, owner-only too.
    _new_game_under_the_usual_umask(cfg)
    games = state / "games"
    assert _mode(games) == 0o700
    assert all(_mode(p) == 0o600 for p in games.iterdir())
    assert _mode(state / "journal.jsonl") == 0o600


def test_an_old_world_readable_journal_is_tightened(tmp_path: Path):
    from tabletap.controller.state.journal import GameHeader, Journal

    journal = Journal.in_dir(tmp_path)
    journal.start(GameHeader("magic-keys", ["ana", "ben"], 1))
    os.chmod(journal.path, 0o644)
    Journal.in_dir(tmp_path)
    assert _mode(journal.path) == 0o600
