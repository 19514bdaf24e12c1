"""What the daemon keeps between its starts, so that a start repeats no work it did before.

A Pi Zero 2 W starts the daemon's Python about ten times slower than a desktop, and a family
waits for the table to answer (issue 23: start to READY in 2.5 s at a tenth of a core). Two
things every start did again, though nothing had changed, are kept here instead: the YAML
documents it parses (loading.doccache) and the installed entry points (controller.entrypoints).

Only a process given a state folder by systemd keeps anything: the daemon's unit has
`StateDirectory=tabletap`, which sets `$STATE_DIRECTORY`, and the cache is its `cache/` folder
(the root filesystem is read-only on the box; the state partition is the one written). Every
other process (a maker's command, the tests, the page) does the work each time, as before.

A kept file may never change what a start does, only how fast, and may never stop one:
- each file is one body with its CRC-32 in front, checked whole: a file a damaged SD card or a
  power cut tore is a miss;
- each user compares what the body was made from with what it has now (the text, the
  installed packages) and treats any difference as a miss;
- any failure to read or write (a full disk, a read-only folder, another user's folder) is a
  miss, logged at debug level.
Files are replaced by rename without fsync: a power cut may lose or tear the newest one, which
the CRC turns into a miss, and a start does not wait for the SD card.
"""

from __future__ import annotations

import contextlib
import logging
import os
import zlib
from pathlib import Path

FOLDER = "cache"
# No kept body is near this (a document's text is at most 1 MiB, its data bounded by the node
# limit); a larger file is not one of ours.
MAX_FILE = 16 * 1024 * 1024
_CRC = 4

log = logging.getLogger(__name__)


def folder() -> Path | None:
    """`$STATE_DIRECTORY/cache` (the first folder systemd names), or None when the process
    has no state folder from systemd."""
    given = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    return Path(given) / FOLDER if given else None


def read(name: str) -> bytes | None:
    """The body kept as `name`, whole, or None (no cache, nothing kept, damaged, unreadable)."""
    where = folder()
    if where is None:
        return None
    file = where / name
    try:
        with open(file, "rb") as fh:
            raw = fh.read(MAX_FILE + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.debug("the kept file %s is not read: %s", file, exc)
        return None
    if len(raw) > MAX_FILE or len(raw) < _CRC or \
            zlib.crc32(raw[_CRC:]) != int.from_bytes(raw[:_CRC], "big"):
        log.debug("the kept file %s is damaged (%d bytes; its CRC does not match)", file,
                  len(raw))
        return None
    return raw[_CRC:]


def write(name: str, body: bytes) -> None:
    """Keep `body` as `name` for the next start; nothing happens where that fails."""
    where = folder()
    if where is None:
        return
    file = where / name
    tmp = where / f"{name}.{os.getpid()}.tmp"
    try:
        where.mkdir(mode=0o700, exist_ok=True)
        for torn in where.glob("*.tmp"):  # left by a power cut during an earlier write
            torn.unlink(missing_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(zlib.crc32(body).to_bytes(_CRC, "big"))
            fh.write(body)
        os.replace(tmp, file)
    except OSError as exc:
        log.debug("the file %s is not kept: %s", file, exc)
        with contextlib.suppress(OSError):
            tmp.unlink()
