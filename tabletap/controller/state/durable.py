"""The journal's durable point: how much of the journal the table has answered.

A power cut can tear only the entry being written, and that entry was never answered (the chest
and the lights act after the fsync). Everything before it was answered, so if the end of the
journal is lost later (a zeroed block, a file cut in half, a flipped newline) moves the family
saw accepted are gone, and the journal alone cannot tell that from a torn write. This record,
beside the journal in the state folder (`journal.durable`), says how far the journal is known
durable, the way PostgreSQL's pg_control says how far its WAL was flushed: replay refuses a
journal that ends before it (state/journal.py).

The record is written after the journal entry's fsync and before the table answers. It is a
fixed-size file of two 128-byte slots, each at the start of its own 4 KiB block (so a write torn
anywhere below the file system, a sector or a block, cannot reach the other), overwritten in
place, alternately; each slot carries a sequence number and its own CRC-32, and the newest slot
that checks wins. Why in place rather
than a temp file and a rename: a rename costs a new inode, a directory update and two fsyncs
(the file's and the folder's), so several erase-block writes on an SD card per move; an
overwrite of one slot in an allocated block is one small write and one fdatasync (the size
never changes, so no metadata need be written). A write torn by a power cut breaks at most the
slot being written; the other still holds the previous point, which is a lower bound and so
still true. Cost per move: 128 bytes and one fdatasync on top of the journal's own write and
fsync, which on the image's ext4 state partition (data=journal) is a second journal transaction:
about 5 KiB and three cache flushes reach the card a move, doubling what a move writes (measured
by `make writes`, docs/RELIABILITY.md; still about 120 years of evenings for a cheap card there).

Each slot names the journal it describes (the random `journal` id in the journal's header, or
for a journal from before the ids, its header's CRC), so a record left by an older game is never
applied to a new one.
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

from msgspec import Struct

from tabletap.controller.state.atomic import atomic_write

MAGIC = "tabletap-durable-1"
SLOT = 128
SLOTS = 2
STRIDE = 4096  # slot i starts at i * STRIDE: one file-system block (and flash page) each


class DurablePoint(Struct, frozen=True):
    """The journal `journal` is durable up to `entries` whole lines (the header included),
    `size` bytes, with `actions` live actions in them."""

    journal: str
    entries: int
    size: int
    actions: int
    seq: int = 0


def _slot(point: DurablePoint) -> bytes:
    body = (f"{MAGIC} {point.journal} {point.seq} {point.entries} {point.size} "
            f"{point.actions}")
    line = f"{body} {zlib.crc32(body.encode('ascii')):08x}"
    if len(line) >= SLOT or any(c.isspace() for c in point.journal):
        raise ValueError(f"a durable point does not fit a slot: {line!r}")
    return line.ljust(SLOT - 1).encode("ascii") + b"\n"


def _parse(raw: bytes) -> DurablePoint | None:
    try:
        parts = raw.decode("ascii").split()
    except UnicodeDecodeError:
        return None
    if len(parts) != 7 or parts[0] != MAGIC:
        return None
    body = " ".join(parts[:6])
    if f"{zlib.crc32(body.encode('ascii')):08x}" != parts[6]:
        return None
    try:
        seq, entries, size, actions = (int(p) for p in parts[2:6])
    except ValueError:
        return None
    return DurablePoint(parts[1], entries, size, actions, seq)


class DurableRecord:
    """The record file; `read` at replay, `advance` after every append, `reset` when the
    journal is started afresh or repaired."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._seq: int | None = None  # the newest slot's sequence number, once known
        self.note: str | None = None  # why the last `read` found no point

    def read(self) -> DurablePoint | None:
        """The newest point that checks; None, with `note` saying why, when the record is
        missing or damaged (neither is fatal: the journal's own checks still hold)."""
        self.note = None
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            self._seq = None
            self.note = (f"{self.path} is missing (a journal from before the durable record, "
                         "or a fresh state folder)")
            return None
        except OSError as exc:
            self.note = f"{self.path} cannot be read ({exc.strerror or exc}); not trusted"
            return None
        points = [p for p in (_parse(raw[i * STRIDE:i * STRIDE + SLOT]) for i in range(SLOTS))
                  if p]
        if not points:
            self._seq = None
            self.note = f"{self.path} is damaged (no slot passes its checksum); not trusted"
            return None
        best = max(points, key=lambda p: p.seq)
        self._seq = best.seq
        return best

    def advance(self, journal: str, entries: int, size: int, actions: int) -> None:
        """The journal is durable up to here: overwrite the older slot, then fdatasync."""
        if self._seq is None:
            self.read()
        if self._seq is None or not self.path.exists():
            self.reset(journal, entries, size, actions)
            return
        seq = self._seq + 1
        data = _slot(DurablePoint(journal, entries, size, actions, seq))
        fd = os.open(self.path, os.O_WRONLY | os.O_CLOEXEC)
        try:
            os.pwrite(fd, data, (seq % SLOTS) * STRIDE)
            os.fdatasync(fd)
        finally:
            os.close(fd)
        self._seq = seq

    def reset(self, journal: str, entries: int, size: int, actions: int) -> None:
        """A new record, both slots alike, created atomically (a new game, a repair)."""
        slot = _slot(DurablePoint(journal, entries, size, actions, 0))
        atomic_write(self.path, slot.ljust(STRIDE, b"\0") * (SLOTS - 1) + slot, mode=0o600)
        self._seq = 0
