"""What the kernel says about a process: its CPU time and its memory (no psutil: /proc)."""

from __future__ import annotations

import os
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def _stat_cpu_s(stat: Path) -> float:
    """User + system CPU seconds in a /proc `stat` file (fields after the command's name)."""
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of process `pid` (its threads included)."""
    return _stat_cpu_s(Path(f"/proc/{pid}/stat"))


def thread_cpu_s(tid: int) -> float:
    """CPU seconds of one thread of this process (the emulator's serving thread)."""
    return _stat_cpu_s(Path(f"/proc/self/task/{tid}/stat"))


def threads_cpu_s(pid: int) -> dict[int, float]:
    """CPU seconds of each thread of process `pid`, by thread id (the main thread's is `pid`)."""
    return {int(task.name): _stat_cpu_s(task / "stat")
            for task in Path(f"/proc/{pid}/task").iterdir()}


def memory_mib(pid: int) -> tuple[float, float]:
    """(RSS, PSS) of `pid` in MiB: PSS shares each shared page among the processes mapping it,
    so it is what the process costs the machine."""
    values: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        key, _, rest = line.partition(":")
        values[key] = int(rest.split()[0])
    return values["Rss"] / 1024, values["Pss"] / 1024
