"""The state folder's layout: every file the daemon keeps there, named once.

Before, `journal.jsonl` was spelt in two modules and the control socket, the pairings and the
UID registry each built their own path; now every part asks a `StateFolder` where its file is,
so the layout is read in one place (docs/CONTRACTS.md, "The journal").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class StateFolder:
    """One table's state folder (`state_dir`): the game journal, its durable record and its
    archive, the lock, the control socket, the pairings and the default UID registry."""

    path: Path

    def __init__(self, path: str | Path) -> None:
        object.__setattr__(self, "path", Path(path))

    @property
    def journal(self) -> Path:
        """The game under way, one CRC-checked entry per gesture."""
        return self.path / "journal.jsonl"

    @property
    def durable(self) -> Path:
        """How far the journal is known durable (state/durable.py): two small slots, one
        rewritten in place after every entry's fsync."""
        return self.path / "journal.durable"

    @property
    def archive(self) -> Path:
        """Finished, abandoned and damaged games, one file each."""
        return self.path / "games"

    @property
    def lock(self) -> Path:
        """The daemon's `flock` (state/lock.py), holding its pid."""
        return self.path / "lock"

    @property
    def control_socket(self) -> Path:
        return self.path / "control.sock"

    @property
    def pairings(self) -> Path:
        return self.path / "pairings.json"

    @property
    def uid_registry(self) -> Path:
        """Where tags enrolled by UID are kept unless the config names another file."""
        return self.path / "uids.yaml"

    def make(self) -> Path:
        """Create the folder owner-only (0700): it holds the seed, and so every secret."""
        self.path.mkdir(mode=0o700, parents=True, exist_ok=True)
        return self.path


def make_state_dir(folder: str | Path) -> Path:
    """Create the state folder owner-only (0700): it holds the seed, and so every secret."""
    return StateFolder(folder).make()
