"""bench.live.open_chest: one accepted tap with the box's chest and lights times, read to the
microsecond from the scheduler (procstat.runtime_s)."""

from __future__ import annotations

import os
import time

import yaml

from bench.live.open_chest import tap_costs_ms
from bench.live.procstat import cpu_s, runtime_s
from bench.live.rig import Rig


def test_runtime_counts_this_process_to_the_microsecond() -> None:
    before, ticks = runtime_s(os.getpid()), cpu_s(os.getpid())
    spun = time.thread_time()
    while time.thread_time() - spun < 0.05:
        pass
    used = runtime_s(os.getpid()) - before
    assert 0.045 < used < 1.0
    assert abs((cpu_s(os.getpid()) - ticks) - used) < 0.05  # the ticks agree, coarsely


def test_one_tap_with_the_box_times_is_read() -> None:
    (cost,) = tap_costs_ms(1)  # it raises if the golden key never opened the chest
    assert 0.0 < cost < 2000.0


def test_a_rig_asked_for_the_box_times_runs_with_them_and_others_keep_the_bench_times() -> None:
    box, bench = Rig(open_seconds=5.0, feedback_seconds=2.0), Rig()
    try:
        for rig, times in ((box, (5.0, 2.0)), (bench, (0.25, 0.2))):
            config = yaml.safe_load(rig.config.read_text(encoding="utf-8"))
            assert (config["chest"]["open_seconds"], config["lights"]["feedback_seconds"]) \
                == times
    finally:
        box.close()
        bench.close()
