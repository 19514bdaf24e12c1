"""What the kernel says about a process: its CPU time and its memory (no psutil: /proc)."""

from __future__ import annotations

import os
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of process `pid` (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def thread_cpu_s(tid: int) -> float:
    """CPU seconds of one thread of this process (the emulator's serving thread)."""
    fields = Path(f"/proc/self/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def memory_mib(pid: int) -> tuple[float, float]:
    """(RSS, PSS) of `pid` in MiB: PSS shares each shared page among the processes mapping it,
    so it is what the process costs the machine."""
    values: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        key, _, rest = line.partition(":")
        values[key] = int(rest.split()[0])
    return values["Rss"] / 1024, values["Pss"] / 1024
