"""One daemon per state folder: an advisory `flock` on `<state_dir>/lock`.

Two daemons on one folder both append to one journal and fight over the control socket; the game
the table then resumes is neither of theirs. The lock is a kernel `flock`, so it vanishes with its
process: a SIGKILL or a power cut never leaves a stale lock behind, and nothing needs cleaning up.
The file holds the holder's pid only so the refusal can name it.

    with state_lock(config.state_dir):
        ...  # the folder is ours until the block ends

`StateLock.acquire()` / `release()` serve holders that outlive one block (the daemon).
"""

from __future__ import annotations

import errno
import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tabletap.controller.state.folder import StateFolder, make_state_dir

LOCK_NAME = "lock"  # the file StateFolder.lock names
__all__ = ["LOCK_NAME", "StateLock", "StateLocked", "holder", "make_state_dir", "state_lock"]


class StateLocked(RuntimeError):
    """Another process holds the state folder; the message says which and what to do."""

    def __init__(self, folder: Path, pid: int | None) -> None:
        self.folder, self.pid = folder, pid
        who = f"another tabletap (pid {pid})" if pid else "another tabletap process"
        super().__init__(
            f"{who} is already using the state folder {folder}; only one daemon may play a "
            "table at a time. Stop it first (`systemctl stop tabletap`, or Ctrl-C in its "
            "console), or give this one another state_dir."
        )


class StateLock:
    """The exclusive lock on one state folder, held until `release()` or process exit."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.path = StateFolder(self.folder).lock
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> StateLock:
        """Take the lock without waiting; StateLocked if another process has it."""
        if self._fd is not None:
            return self
        make_state_dir(self.folder)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            pid = _read_pid(fd)
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise StateLocked(self.folder, pid) from None
            raise
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass  # a full disk: the pid only helps the refusal message; the flock is what counts
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            os.ftruncate(fd, 0)
        except OSError:
            pass  # a full or read-only disk must not stop the unlock
        os.close(fd)  # closing the only descriptor drops the flock

    def __del__(self) -> None:  # a forgotten lock goes with its object, as a file would
        self.release()

    def __enter__(self) -> StateLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


@contextmanager
def state_lock(folder: str | Path) -> Iterator[StateLock]:
    """Hold the state folder for the duration of the block (StateLocked if taken)."""
    lock = StateLock(folder).acquire()
    try:
        yield lock
    finally:
        lock.release()


def holder(folder: str | Path) -> int | None:
    """The pid of the process holding `folder` (-1 if it wrote none), or None when it is free.

    A probe for commands such as `tabletap sim run` that must leave a live table alone."""
    path = StateFolder(folder).lock
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return _read_pid(fd) or -1
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
