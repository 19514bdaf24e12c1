"""`bench live`'s daemons keep their bytecode between starts, as the box's installed wheel is
kept compiled, in a folder of the running user's own (bench/live/rig.py, `bytecode_folder`).

It was a fixed folder in the shared /tmp. After `sudo make bench` a developer's own run could
not write there, so each of its daemons compiled itself anew at every start (start to READY
0.357 s and 2,733 M instructions where 0.078 s and 368 M were right, reported as the daemon's);
and a root run took bytecode from a folder any local user could have made first."""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.live.rig import Rig


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, Path]]:
    """A temporary folder where another user made the old bytecode folder first, and a home."""
    shared, home = tmp_path / "tmp", tmp_path / "home"
    (shared / "tabletap-bench-pycache").mkdir(parents=True)
    home.mkdir()
    if os.geteuid() == 0:
        os.chown(shared / "tabletap-bench-pycache", 65534, 65534)  # nobody's
    monkeypatch.setenv("TMPDIR", str(shared))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", None)  # gettempdir() reads TMPDIR again
    yield shared, home


def _daemon_env(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode().split("=", 1) for item in raw if b"=" in item)


def test_the_daemon_keeps_its_bytecode_in_this_users_own_folder(
    elsewhere: tuple[Path, Path],
) -> None:
    shared, home = elsewhere
    rig = Rig()
    try:
        rig.start()
        assert rig.proc is not None
        folder = Path(_daemon_env(rig.proc.pid)["PYTHONPYCACHEPREFIX"])
    finally:
        rig.close()
    assert not folder.is_relative_to(shared)
    assert folder.is_relative_to(home / ".cache")
    mode = folder.stat()
    assert mode.st_uid == os.geteuid() and stat.S_IMODE(mode.st_mode) == 0o700
    # the daemon's start kept its bytecode there
    assert any(folder.rglob("*.pyc"))
