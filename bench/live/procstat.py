"""What the kernel says about a process: its CPU time and its memory (no psutil: /proc)."""

from __future__ import annotations

import os
import time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def _stat_split_s(stat: Path) -> tuple[float, float]:
    """(user, system) CPU seconds in a /proc `stat` file (fields after the command's name)."""
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICK, int(fields[12]) / TICK


def _stat_cpu_s(stat: Path) -> float:
    """User + system CPU seconds in a /proc `stat` file."""
    return sum(_stat_split_s(stat))


def _cpu_clock(tid: int, thread: bool) -> int:
    """The kernel's CPU-time clock of another process (its threads, the ended ones included) or
    of one thread, as glibc's clock_getcpuclockid and pthread_getcpuclockid make it (Linux's
    CPUCLOCK_SCHED: the scheduler's runtime, to the nanosecond)."""
    return (~tid << 3) | (4 if thread else 0) | 2


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of process `pid`, its threads included, to the nanosecond
    (`pid` a process, not one of its threads: Linux gives the clock of a thread group's leader).

    Not /proc's `stat`, which counts in 10 ms clock ticks: a daemon resting at 0.4 % of a core
    spends 8 ms in two seconds, and a short `bench live` (BENCH_IDLE_SECONDS=2) printed its idle
    CPU as 0.5 % (one tick) and 20 taps' CPU as 3.000 ms a tap (six ticks), "met" by rounding."""
    return time.clock_gettime(_cpu_clock(pid, thread=False))


def cpu_split_s(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds of process `pid`, its threads included: how much of its CPU
    is the kernel's work for it (system calls, wake-ups), which no Python cut can touch."""
    return _stat_split_s(Path(f"/proc/{pid}/stat"))


def thread_cpu_s(tid: int) -> float:
    """CPU seconds of one thread of this process (the emulator's serving thread, by its native
    id), to the nanosecond (`cpu_s`). Linux gives a thread's clock to its own process only, so
    another process's threads are counted in ticks (`threads_cpu_s`)."""
    return time.clock_gettime(_cpu_clock(tid, thread=True))


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
