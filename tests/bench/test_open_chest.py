"""bench.live.open_chest: one accepted tap with the box's chest and lights times, read to the
microsecond from the scheduler (procstat.runtime_s)."""

from __future__ import annotations

import os
import time

from bench.live import rig as rigging
from bench.live.open_chest import tap_costs_ms
from bench.live.procstat import cpu_s, runtime_s


def test_runtime_counts_this_process_to_the_microsecond() -> None:
    before, ticks = runtime_s(os.getpid()), cpu_s(os.getpid())
    spun = time.thread_time()
    while time.thread_time() - spun < 0.05:
        pass
    used = runtime_s(os.getpid()) - before
    assert 0.045 < used < 1.0
    assert abs((cpu_s(os.getpid()) - ticks) - used) < 0.05  # the ticks agree, coarsely


def test_one_tap_with_the_box_times_is_read_and_the_rig_keeps_its_own() -> None:
    (cost,) = tap_costs_ms(1)
    assert 0.0 < cost < 2000.0
    assert (rigging.OPEN_SECONDS, rigging.FEEDBACK_SECONDS) == (0.25, 0.2)  # put back
