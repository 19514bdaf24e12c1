"""A CPU quota for the daemon alone: a tenth of a core stands in for a Pi Zero 2 W, a quarter for
a Pi 3 (docs/BENCHMARKS.md says how close a stand-in that is).

cgroup v1 (`/sys/fs/cgroup/cpu/<name>/cpu.cfs_period_us` and `cpu.cfs_quota_us`) where it is
mounted, else cgroup v2's `cpu.max`. The period is short (10 ms) so the quota is handed out in
small slices, as a slow core runs steadily, rather than in one burst per 100 ms. Needs root;
without it `Quota.make` says why and the bench leaves those figures out.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

PERIOD_US = 10_000
V1 = Path("/sys/fs/cgroup/cpu")
V2 = Path("/sys/fs/cgroup")


class QuotaUnavailable(RuntimeError):
    """This machine (or user) cannot give a process a CPU quota."""


class Quota:
    """One cgroup with `share` of one core; `enter()` moves the calling process into it (run in
    the child between fork and exec, so the daemon's start-up is under the quota too)."""

    def __init__(self, path: Path, procs: Path) -> None:
        self.path = path
        self.procs = procs

    @classmethod
    def make(cls, name: str, share: float) -> Quota:
        quota_us = max(1000, round(PERIOD_US * share))  # 1000 us: the smallest quota allowed
        try:
            if (V1 / "cpu.cfs_quota_us").exists():
                path = V1 / name
                path.mkdir(exist_ok=True)
                (path / "cpu.cfs_period_us").write_text(f"{PERIOD_US}\n")
                (path / "cpu.cfs_quota_us").write_text(f"{quota_us}\n")
                return cls(path, path / "cgroup.procs")
            if (V2 / "cgroup.controllers").exists():
                with contextlib.suppress(OSError):
                    (V2 / "cgroup.subtree_control").write_text("+cpu\n")
                path = V2 / name
                path.mkdir(exist_ok=True)
                (path / "cpu.max").write_text(f"{quota_us} {PERIOD_US}\n")
                return cls(path, path / "cgroup.procs")
        except OSError as exc:
            raise QuotaUnavailable(f"cannot make the cgroup {name} ({exc})") from None
        raise QuotaUnavailable("no cgroup CPU controller is mounted")

    def enter(self) -> None:
        with open(self.procs, "w") as f:  # noqa: PTH123 - between fork and exec: keep it plain
            f.write(str(os.getpid()))

    def remove(self) -> None:
        with contextlib.suppress(OSError):
            self.path.rmdir()
