"""The daemon's stopwatches (bench/live/stopwatched.py): a wrapped function's calls and thread
CPU are added up and written, with the thread's own CPU, when SIGUSR1 comes."""

from __future__ import annotations

import gc
import json
import os
import signal
import sys
from pathlib import Path

import pytest

from bench.live import stopwatched


def test_a_wrapped_part_counts_its_calls_and_cpu_and_sigusr1_writes_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "busy_part.py").write_text(
        "class Loop:\n"
        "    def spin(self, n):\n"
        "        return sum(i * i for i in range(n))\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("STOPWATCH_OUT", str(tmp_path / "totals.json"))
    monkeypatch.setattr(stopwatched, "totals", {})
    monkeypatch.setattr(stopwatched, "snapshots", [])
    old = signal.signal(signal.SIGUSR1, stopwatched._snapshot)
    try:
        stopwatched._wrap("busy_part", "Loop.spin")
        import busy_part

        loop = busy_part.Loop()
        assert loop.spin(10) == 285  # the answer is the function's own
        for _ in range(3):
            loop.spin(200_000)
        os.kill(os.getpid(), signal.SIGUSR1)
        (snap,) = json.loads((tmp_path / "totals.json").read_text(encoding="utf-8"))
    finally:
        signal.signal(signal.SIGUSR1, old)
        sys.modules.pop("busy_part", None)
    calls, cpu = snap["parts"]["Loop.spin"]
    assert calls == 4
    assert 0 < cpu <= snap["main"]


def test_the_collectors_own_time_is_counted_by_generation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stopwatched, "totals", {})
    gc.callbacks.append(stopwatched._gc_timed)
    try:
        junk = [[i] for i in range(50_000)]
        for item in junk:
            item.append(item)  # cycles, for the collector to walk
        del junk
        gc.collect(2)
        gc.collect(2)
    finally:
        gc.callbacks.remove(stopwatched._gc_timed)
    calls, cpu = stopwatched.totals["gc, generation 2"]
    assert calls >= 2
    assert cpu > 0
