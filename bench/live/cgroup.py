"""A CPU quota for the daemon alone: a tenth of a core stands in for a Pi Zero 2 W, a quarter for
a Pi 3 (docs/BENCHMARKS.md says how close a stand-in that is).

cgroup v1 (`/sys/fs/cgroup/cpu/<name>/cpu.cfs_period_us` and `cpu.cfs_quota_us`) where it is
mounted, else cgroup v2's `cpu.max`. The period is short (10 ms) so the quota is handed out in
small slices, as a slow core runs steadily, rather than in one burst per 100 ms. Needs root;
without it `Quota.make` says why and the bench leaves those figures out.

`stretch` says whether a quota bites on this machine: a CPU-bound child's wall time per CPU
second in it, about 1/share. The bench reports it beside each speed's figures, and this file
runs alone (stdlib only, `python3 cgroup.py`), so it can be copied onto any machine to check
its cgroups: docs/BENCHMARKS.md, "The quota on cgroup v2".
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

PERIOD_US = 10_000
V1 = Path("/sys/fs/cgroup/cpu")
V2 = Path("/sys/fs/cgroup")
# A child that only computes: bytecode over and over, a clock read every 10,000 turns, until it
# has had `cpu` seconds of CPU.
_SPIN = (
    "import time\nend = time.process_time() + {cpu}\n"
    "while time.process_time() < end:\n    for _ in range(10_000):\n        pass\n"
)


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
                # systemd enables only the controllers its units ask for (trixie's root has
                # "memory pids"): the cpu controller is enabled for the root's children here
                with contextlib.suppress(OSError):
                    (V2 / "cgroup.subtree_control").write_text("+cpu\n")
                path = V2 / name
                path.mkdir(exist_ok=True)
                if not (path / "cpu.max").exists():
                    with contextlib.suppress(OSError):
                        path.rmdir()
                    raise QuotaUnavailable(
                        f"the cpu controller cannot be enabled in {V2} (cgroup.controllers: "
                        f"{(V2 / 'cgroup.controllers').read_text().strip() or 'none'}; "
                        "in a container, its cgroup may hold processes itself)"
                    )
                (path / "cpu.max").write_text(f"{quota_us} {PERIOD_US}\n")
                return cls(path, path / "cgroup.procs")
        except OSError as exc:
            root = "" if os.geteuid() == 0 else "; a CPU quota needs root: sudo make bench"
            raise QuotaUnavailable(f"cannot make the cgroup {name} ({exc}){root}") from None
        raise QuotaUnavailable("no cgroup CPU controller is mounted")

    def enter(self) -> None:
        with open(self.procs, "w") as f:  # noqa: PTH123 - between fork and exec: keep it plain
            f.write(str(os.getpid()))

    def remove(self) -> None:
        with contextlib.suppress(OSError):
            self.path.rmdir()


def stretch(quota: Quota | None, cpu: float = 0.3) -> float:
    """Wall seconds per CPU second of a child of this interpreter that computes for `cpu`
    seconds of CPU in `quota`: about 1 / share where the quota bites (10 at a tenth), about 1
    with none on an idle core. The child's own CPU comes from `wait4`, all of it spent in the
    cgroup, since it enters before its exec."""
    started = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-S", "-c", _SPIN.format(cpu=cpu)],
        preexec_fn=quota.enter if quota is not None else None,  # noqa: PLW1509
    )
    _, status, usage = os.wait4(child.pid, 0)  # wait4 for the child's own CPU
    wall = time.monotonic() - started
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped: Popen must not wait again
    if child.returncode != 0:
        raise RuntimeError(f"the spinning child exited {child.returncode}")
    return wall / max(usage.ru_utime + usage.ru_stime, 1e-6)


def bites(share: float, slowed: float) -> bool:
    """Whether a quota of `share` slowed a spinning child enough to be called enforced: at
    least half the 1 / share it should (a loaded machine only slows it more)."""
    return slowed >= 0.5 / share


def main() -> int:
    """Make each of the bench's quotas, spin a child in it, and say how much it was slowed;
    exit 1 when a quota cannot be made or does not bite (under half its expected stretch)."""
    print(f"this machine, no quota: {stretch(None):.2f} wall seconds per CPU second")
    for name, share in (("quarter", 0.25), ("tenth", 0.10)):
        try:
            quota = Quota.make(f"tabletap-bench-{name}", share)
        except QuotaUnavailable as exc:
            print(f"a {name} of a core: {exc}")
            return 1
        try:
            slowed = stretch(quota)
        finally:
            quota.remove()
        print(
            f"a {name} of a core ({quota.path}): {slowed:.2f} wall seconds per CPU second "
            f"(expected about {1 / share:g})"
        )
        if not bites(share, slowed):
            print(f"the quota of a {name} does not bite: its figures would be full speed's")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
