"""Start-up figures: `tabletap --help` CPU time and `tabletap run --sim` exec -> ready.

Both run the installed `tabletap` script in a fresh process, the way a person or systemd does,
so imports and entry-point discovery count. Medians of a few runs (the machine is shared).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.demo import demo_game

RUNS = 7
TABLETAP = str(Path(sys.executable).with_name("tabletap"))


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def help_cpu_s(runs: int = RUNS) -> float:
    """CPU seconds (user + system) of `tabletap --help`, median."""
    times = []
    for _ in range(runs):
        before = _child_cpu()
        subprocess.run([TABLETAP, "--help"], check=True, stdout=subprocess.DEVNULL)
        times.append(_child_cpu() - before)
    return statistics.median(times)


def ready_s(runs: int = RUNS) -> float:
    """Wall seconds from exec of `tabletap run --sim` to its ready line, median."""
    times = []
    spec, demo = demo_game()
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            started = time.perf_counter()
            proc = subprocess.Popen(
                [TABLETAP, "run", "--sim", "--game", spec.name, "--players",
                 ",".join(demo.players), "--new"],
                cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
            assert proc.stdout is not None and proc.stdin is not None
            for line in proc.stdout:
                if "ready" in line:
                    times.append(time.perf_counter() - started)
                    break
            else:
                raise RuntimeError("tabletap run --sim never said it was ready")
            proc.stdin.close()
            proc.wait(timeout=10)
    return statistics.median(times)


def run() -> list[tuple]:
    return [
        ("tabletap --help, CPU (median)", help_cpu_s(), "s", "help_cpu_s"),
        # the real daemon's exec -> READY is `bench live`'s ready_s
        ("tabletap run --sim, exec -> ready, wall (median)", ready_s(), "s", "sim_ready_s"),
    ]
