"""Fault 1: a full disk must refuse the move with a reason, and never corrupt the journal.

Before the fix a short write left part of a line; when space returned, the next action was
appended to it and the journal no longer parsed (`journal.jsonl:68: not valid JSON`). This runs
on a real full file system: a 64 KiB tmpfs (needs root to mount; skipped otherwise).
"""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletap.controller.state.journal import Journal
from tests.core.helpers import magic_keys_table


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(disk: Path) -> Path:
    """Fill the disk to the last byte; the filler file is returned for freeing later."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as fh:
        while True:
            try:
                if fh.write(b"x" * 512) == 0:
                    break
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
                break
    return filler


def test_a_full_disk_refuses_moves_and_the_game_goes_on_when_space_returns(small_disk: Path):
    daemon, _ = magic_keys_table(small_disk)
    session = daemon.session
    filler = _fill(small_disk)
    moves = [{"action": "try-key", "key": "purple/1"}] + [{"action": "end-turn"}] * 400
    refused = None
    for move in moves:
        result = session.handle(_manual(move), 0.0)
        if result.accepted is False:
            refused = result.rejection
            break
    assert refused is not None and refused.code == "journal-error"
    assert "memory card is full" in refused.message and "does not count" in refused.message
    accepted = session.actions
    # The refused move left nothing behind: the journal still reads as it was.
    assert Journal(session.journal.path).replay(repair=False).actions == accepted
    again = session.handle(_manual({"action": "end-turn"}), 0.0)  # still full: refused again
    assert again.accepted is False
    filler.unlink()  # space returns
    assert session.handle(_manual({"action": "end-turn"}), 0.0).accepted is True
    replayed = Journal(session.journal.path).replay(repair=False)
    assert replayed.warnings == [] and replayed.actions == accepted + 1
    assert session.engine.state_to_json(replayed.state) == \
        session.engine.state_to_json(session.state)
    daemon.close()


def _manual(action: dict):
    from tabletap.controller.games.base import ManualAction

    return ManualAction(dict(action))
