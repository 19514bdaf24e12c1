"""Power-cut-safe file replacement (docs/CONTRACTS.md, "The journal").

temp file, fsync, rename, fsync the folder: plain writes left 149 of 150 files corrupt in the
power-cut trials (docs/hardware-notes.md), this left none. Leftover temp files from a cut are
cleaned at start.
"""

from __future__ import annotations

import os
from pathlib import Path

TMP_SUFFIX = ".tmp-tabletap"


def fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: str | Path, data: bytes | str, mode: int | None = None) -> None:
    """`mode`: the new file's permissions, set at creation whatever the umask (0o600 for the
    journal, which holds the seed); None keeps the umask's default."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(p.name + TMP_SUFFIX)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp.unlink(missing_ok=True)  # a leftover must not lend the new file its permissions
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC,
                 0o666 if mode is None else mode)
    with open(fd, "wb") as fh:
        if mode is not None:
            os.fchmod(fh.fileno(), mode)  # the umask may only take bits away; be exact
        fh.write(raw)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, p)
    fsync_dir(p.parent)


def clean_leftovers(folder: str | Path) -> list[Path]:
    """Remove temp files a power cut left behind; returns what was removed."""
    removed = []
    folder = Path(folder)
    if folder.is_dir():
        for tmp in folder.glob(f"*{TMP_SUFFIX}"):
            tmp.unlink(missing_ok=True)
            removed.append(tmp)
    return removed
