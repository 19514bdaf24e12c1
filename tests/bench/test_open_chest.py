"""bench.live.open_chest: one accepted tap with the box's chest and lights times, read to the
nanosecond from the daemon's CPU clock (procstat.cpu_s, tests/bench/test_procstat.py)."""

from __future__ import annotations

import yaml

from bench.live.open_chest import tap_costs_ms
from bench.live.rig import Rig


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
