"""What the daemon writes to the SD card: bytes per game, per restart and per idle hour.

A cheap SD card wears out by writes, and every accepted move is fsynced (the journal, then the
durable record), so the figure that matters is what reaches the card, not what the code means to
write. Measured, never computed from a formula:

- on the card: the state partition is rebuilt here exactly as the image builds it (size,
  `mkfs.ext4` and the fstab's mount options, read from image/layout.sh: ext4 with
  `data=journal`, so every data block is written twice), on a loop device; the loop device's
  block-layer counters (/sys/block/loopN/stat: sectors written, write requests, cache flushes)
  count everything the filesystem sent to the "card": the journal, the durable record, the
  archive, the inodes, directories and ext4's own journal and its checkpoints. The card's own
  write amplification comes on top (see the estimate below).
- from the daemon: /proc/<pid>/io `wchar` (bytes passed to write(), logs on stdout and stderr
  included) and `write_bytes` (bytes the process dirtied for the block layer), and `syscw`.
- logs: the daemon's stdout and stderr go to a file here; on the Pi they go to journald, which
  the image keeps in memory (image/rootfs/etc/systemd/journald.conf.d: `Storage=volatile`), so
  they never touch the card. Their size is reported anyway.

Needs root (losetup, mount). Without root only the daemon's own counters are measured, on
whatever disk holds the temporary folder.

    python tools/writes.py --games 10 --idle 300      (make writes)
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive import ROOT, Table, cases  # noqa: E402

LAYOUT = ROOT / "image" / "layout.sh"
STATE_MOUNT = "/var/lib/tabletap"

# The estimate's assumptions (docs/RELIABILITY.md, "Worn SD cards"): a cheap card, an evening.
CARD_BYTES = 8 * 10**9  # the smallest card the image fits with room: 8 GB
PE_CYCLES = 300  # erase cycles of a cheap card's TLC flash (a low, conservative figure)
PAGE = 16 * 1024  # a flash page: the least a card can program
ERASE_BLOCK = 4 * 1024 * 1024  # an allocation unit of a cheap card (Bergmann, LWN 2011)
EVENING_GAMES = 3
# moves in an evening: 3 games at the 136 moves a game `make evenings` averages over the shipped
# games (from 17 to 338 a game, docs/RELIABILITY.md): the estimate is made per move, so it does
# not hang on which games the few measured here happened to be
EVENING_MOVES = 400
EVENING_HOURS = 3.0  # the table powered on, games or not
EVENINGS_PER_YEAR = 365  # every evening of the year: the worst case of a family's use


def state_partition(layout: Path = LAYOUT) -> tuple[int, str, str]:
    """(size in MiB, mount options, label) of the image's state partition, from layout.sh: the
    measurement follows the image if the image changes."""
    text = layout.read_text()
    size = int(re.search(r"^STATE_MB=(\d+)", text, re.M).group(1))  # type: ignore[union-attr]
    label = re.search(r"^STATE_LABEL=(\S+)", text, re.M).group(1)  # type: ignore[union-attr]
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 4 and fields[1] == STATE_MOUNT:
            return size, fields[3], label
    raise ValueError(f"{layout}: no fstab line mounts {STATE_MOUNT}")


@dataclass
class Device:
    """A block device's write counters (the kernel's /sys/block/<dev>/stat)."""

    write_bytes: int = 0
    write_requests: int = 0
    flushes: int = 0

    @property
    def data_writes(self) -> int:
        """Write requests that carry data: the kernel counts a cache flush as a write request
        of no bytes as well (an idle table shows as many write requests as flushes, and 0
        bytes)."""
        return max(0, self.write_requests - self.flushes)

    def __sub__(self, other: Device) -> Device:
        return Device(self.write_bytes - other.write_bytes,
                      self.write_requests - other.write_requests, self.flushes - other.flushes)

    def __add__(self, other: Device) -> Device:
        return Device(self.write_bytes + other.write_bytes,
                      self.write_requests + other.write_requests, self.flushes + other.flushes)


@dataclass
class Process:
    """A process's write counters (/proc/<pid>/io)."""

    wchar: int = 0
    write_bytes: int = 0
    syscw: int = 0

    def __sub__(self, other: Process) -> Process:
        return Process(self.wchar - other.wchar, self.write_bytes - other.write_bytes,
                       self.syscw - other.syscw)

    def __add__(self, other: Process) -> Process:
        return Process(self.wchar + other.wchar, self.write_bytes + other.write_bytes,
                       self.syscw + other.syscw)


def process_io(pid: int) -> Process:
    """The counters of a live process; zeros once it is gone (read them before it ends)."""
    try:
        fields = dict(line.split(": ") for line in
                      Path(f"/proc/{pid}/io").read_text().splitlines())
    except OSError:
        return Process()
    return Process(int(fields["wchar"]), int(fields["write_bytes"]), int(fields["syscw"]))


class CardImage:
    """The image's state partition, built the image's way, on a loop device, mounted with the
    image's options. Root only."""

    def __init__(self, work: Path, size_mb: int | None = None) -> None:
        mb, self.options, self.label = state_partition()
        self.size_mb = size_mb or mb
        # The image file itself in memory when it can be: the counters are the loop device's,
        # whatever holds its file, and a flush then costs microseconds instead of the host
        # disk's milliseconds (six flushes a move; the evenings would take an hour).
        shm = Path("/dev/shm")
        room = shm.is_dir() and os.statvfs(shm).f_bavail * os.statvfs(shm).f_frsize \
            > 4 * self.size_mb * 2**20
        self.file = Path(tempfile.mkstemp(prefix="tabletap-state-", suffix=".img",
                                          dir=shm if room else work)[1])
        self.mount = work / "state"
        self.device = ""
        self.cleanups: list[Callable[[], None]] = []  # run before the unmount (the daemon)

    def __enter__(self) -> CardImage:
        self.file.unlink(missing_ok=True)
        with open(self.file, "wb") as fh:
            fh.truncate(self.size_mb * 1024 * 1024)
        # As image/assemble.sh; the inode tables and ext4's journal are zeroed now rather than
        # by the kernel after the mount (a one-off of the first boot, not of the evenings).
        subprocess.run(["mkfs.ext4", "-q", "-F", "-L", self.label,
                        "-E", "root_owner=0:0,lazy_itable_init=0,lazy_journal_init=0",
                        str(self.file), f"{self.size_mb}M"], check=True)
        self.device = subprocess.run(["losetup", "--find", "--show", str(self.file)],
                                     check=True, capture_output=True, text=True).stdout.strip()
        self.mount.mkdir(exist_ok=True)
        try:
            subprocess.run(["mount", "-t", "ext4", "-o", self.options, self.device,
                            str(self.mount)], check=True)
        except subprocess.CalledProcessError:
            subprocess.run(["losetup", "-d", self.device], check=False)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        for cleanup in self.cleanups:
            cleanup()
        self.unmount()
        subprocess.run(["losetup", "-d", self.device], check=False)
        self.file.unlink(missing_ok=True)

    def unmount(self) -> None:
        """Unmount (ext4 writes its journal's checkpoints now): the counters stay readable
        until the loop device is detached."""
        if os.path.ismount(self.mount):
            subprocess.run(["umount", str(self.mount)], check=True)

    def settle(self) -> Device:
        """The counters once everything written so far has reached the device."""
        if os.path.ismount(self.mount):
            fd = os.open(self.mount, os.O_RDONLY)
            try:
                ctypes.CDLL(None, use_errno=True).syncfs(fd)
            finally:
                os.close(fd)
        fields = Path(f"/sys/block/{Path(self.device).name}/stat").read_text().split()
        flushes = int(fields[15]) if len(fields) > 15 else 0
        return Device(int(fields[6]) * 512, int(fields[4]), flushes)

    def used(self) -> tuple[int, int]:
        """(bytes, inodes) in use on the partition."""
        st = os.statvfs(self.mount)
        return (st.f_blocks - st.f_bfree) * st.f_frsize, st.f_files - st.f_ffree

    def free_for_users(self) -> int:
        """Bytes an unprivileged daemon may still write (the 5 % root reserve excluded)."""
        st = os.statvfs(self.mount)
        return st.f_bavail * st.f_frsize


class NoCard:
    """Stand-in when not root: a plain folder, no device counters."""

    def __init__(self, work: Path) -> None:
        self.mount = work / "state"
        self.mount.mkdir(exist_ok=True)
        self.device = ""
        self.cleanups: list[Callable[[], None]] = []

    def __enter__(self) -> NoCard:
        return self

    def __exit__(self, *exc: object) -> None:
        for cleanup in self.cleanups:
            cleanup()

    def unmount(self) -> None:
        pass

    def settle(self) -> Device:
        return Device()

    def used(self) -> tuple[int, int]:
        return 0, 0

    def free_for_users(self) -> int:
        return 0


def card(work: Path) -> CardImage | NoCard:
    return CardImage(work) if os.geteuid() == 0 else NoCard(work)


def years(per_evening_bytes: float, write_requests: float) -> dict[str, float]:
    """Years of evenings before the card's flash is worn, under three write amplifications.

    `per_evening_bytes` and `write_requests` (those that carry data) are what the filesystem
    sends the card in an evening. The card programs whole pages and erases whole blocks: best,
    every write costs its bytes rounded up to pages (a page-mapped card); middling, every write
    costs a whole page of its own plus a share of garbage collection, taken as 4 pages; worst,
    every write rewrites a whole erase block (a cheap card whose few open allocation units are
    all busy)."""
    endurance = CARD_BYTES * PE_CYCLES
    per_request = per_evening_bytes / write_requests if write_requests else 0.0
    costs = {
        "page-mapped": write_requests * max(PAGE, per_request),
        "middling (4 pages a write)": write_requests * max(4 * PAGE, per_request),
        "worst (an erase block a write)": write_requests * ERASE_BLOCK,
    }
    return {k: round(endurance / (v * EVENINGS_PER_YEAR), 1) if v else float("inf")
            for k, v in costs.items()}


def measure(games: int, idle: float, seed: int, work: Path, labels: list[str] | None = None
            ) -> dict[str, Any]:
    """Idle first (a game under way, nobody playing), then a restart, then `games` games (every
    shipped kind in turn, or those `labels` name)."""
    rng = random.Random(seed)
    kinds = [c for c in cases() if labels is None or c.label in labels]
    log = work / "daemon.log"
    with card(work) as state:
        table = Table(state.mount / "table", log, seed=seed)
        state.cleanups.append(table.stop)
        start0 = state.settle()
        table.start(kinds[0])
        table.play(rng, max_moves=5)  # a game under way, as at a pause
        before, proc0 = state.settle(), process_io(table.pid)
        time.sleep(idle)
        idle_dev, idle_proc = state.settle() - before, process_io(table.pid) - proc0
        # the measurement's own cost: a syncfs with nothing to write still sends a flush
        probe = state.settle()
        idle_dev = idle_dev - (state.settle() - probe)
        startup = before - start0
        # a restart: the box switched off (SIGTERM) and on
        before = state.settle()
        table.stop(signal.SIGTERM)
        table.start(kinds[0])
        restart_dev = state.settle() - before
        # the games
        log_before = log.stat().st_size
        before, p0 = state.settle(), process_io(table.pid)
        moves = 0
        started = time.monotonic()
        for n in range(games):
            if not table.playing():
                table.new_game(kinds[n % len(kinds)])
            played, _ = table.play(rng)
            moves += played
        proc = process_io(table.pid) - p0
        table.stop(signal.SIGTERM)
        used = state.used()
        state.unmount()  # ext4's checkpoints of the games' blocks land now: counted
        games_dev = state.settle() - before
        log_bytes = log.stat().st_size - log_before
    def scaled(device: Device, by: float) -> dict[str, float]:
        return {**{k: v * by for k, v in asdict(device).items()},
                "data_writes": device.data_writes * by}

    per_game = scaled(games_dev, 1 / games)
    idle_hour = scaled(idle_dev, 3600 / idle)
    per_move = scaled(games_dev, 1 / max(1, moves))
    evening_bytes = EVENING_MOVES * per_move["write_bytes"] + EVENING_HOURS * \
        idle_hour["write_bytes"]
    evening_requests = EVENING_MOVES * per_move["data_writes"] + EVENING_HOURS * \
        idle_hour["data_writes"]
    return {
        "on_a_card_image": isinstance(state, CardImage),
        "games": games, "moves": moves, "seconds_playing": round(time.monotonic() - started),
        "per_game_device": per_game,
        "per_move_device": per_move,
        "per_game_daemon": {k: v / games for k, v in asdict(proc).items()},
        "per_game_log_bytes": log_bytes / games,
        "idle_seconds": idle, "per_idle_hour_device": idle_hour,
        "per_idle_hour_daemon": {k: v * 3600 / idle for k, v in asdict(idle_proc).items()},
        "first_start_device": asdict(startup), "per_restart_device": asdict(restart_dev),
        "partition_used_after": {"bytes": used[0], "inodes": used[1]},
        "evening": {"games": EVENING_GAMES, "moves": EVENING_MOVES, "hours": EVENING_HOURS,
                    "device_bytes": evening_bytes, "device_data_writes": evening_requests},
        # without the card image there is nothing measured at the device to estimate from
        "estimate_years_of_evenings": years(evening_bytes, evening_requests)
        if isinstance(state, CardImage) else None,
        "assumptions": {"card_bytes": CARD_BYTES, "pe_cycles": PE_CYCLES, "page": PAGE,
                        "erase_block": ERASE_BLOCK, "evenings_per_year": EVENINGS_PER_YEAR},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--idle", type=float, default=300.0,
                        help="seconds of idle table measured, scaled to an hour")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write the report here as JSON too")
    args = parser.parse_args(argv)
    # SIGTERM unwinds like an exception: the daemon stopped, the card image unmounted
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if os.geteuid() != 0:
        print("note: not root: no card image, so only the daemon's own counters", flush=True)
    with tempfile.TemporaryDirectory(prefix="tabletap-writes-") as tmp:
        report = measure(args.games, args.idle, args.seed, Path(tmp))
    print(json.dumps(report, indent=2))
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    g, h = report["per_game_device"], report["per_idle_hour_device"]
    if not report["on_a_card_image"]:
        d = report["per_game_daemon"]
        print(f"the daemon: {d['wchar'] / 1024:.0f} KiB in {d['syscw']:.0f} write() calls a "
              "game (no card image without root: no device figures, no estimate)", flush=True)
        return 0
    print(f"on the card: {g['write_bytes'] / 1024:.0f} KiB in {g['data_writes']:.0f} writes "
          f"and {g['flushes']:.0f} cache flushes per game "
          f"({report['moves'] / args.games:.0f} moves); "
          f"{h['write_bytes'] / 1024:.1f} KiB per idle hour; estimated years of evenings "
          f"({EVENING_GAMES} games, {EVENING_MOVES} moves, {EVENING_HOURS:g} h, every day) on "
          f"an {CARD_BYTES // 10**9} GB card of {PE_CYCLES} P/E cycles: "
          f"{report['estimate_years_of_evenings']}",
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
