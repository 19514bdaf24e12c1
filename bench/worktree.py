"""A commit's own files beside the working tree, for the side-by-side benches (bench.live.compare,
bench.games_compare): a detached `git worktree` in a temporary folder, removed after."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """The files of commit `rev`, checked out in a temporary folder for as long as the block
    runs; a `rev` git does not know is git's own error (CalledProcessError, its message on
    stderr)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rev"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q",
                        str(path), rev], check=True)
        try:
            yield path
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(path)], check=False)
