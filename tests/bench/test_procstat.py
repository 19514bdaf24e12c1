"""bench.live.procstat: a process's CPU from /proc, to the clock tick (the user's and the
kernel's apart, `cpu_split_s`) and to the microsecond (`runtime_s`)."""

from __future__ import annotations

import os
import time

from bench.live.procstat import cpu_s, cpu_split_s, runtime_s


def test_the_split_adds_up_to_the_whole_and_a_busy_loop_is_user_time() -> None:
    (user0, sys0), whole0 = cpu_split_s(os.getpid()), cpu_s(os.getpid())
    # arithmetic alone: a loop on time.thread_time() would be mostly system time, as that
    # clock is a system call
    total = sum(i * i for i in range(4_000_000))
    assert total > 0
    (user1, sys1), whole1 = cpu_split_s(os.getpid()), cpu_s(os.getpid())
    assert abs((user0 + sys0) - whole0) < 0.02 and abs((user1 + sys1) - whole1) < 0.02
    assert user1 - user0 > 0.05  # a few tenths of a second, counted in 10 ms ticks
    assert sys1 - sys0 < user1 - user0


def test_runtime_counts_this_process_to_the_microsecond() -> None:
    before, ticks = runtime_s(os.getpid()), cpu_s(os.getpid())
    spun = time.thread_time()
    while time.thread_time() - spun < 0.05:
        pass
    used = runtime_s(os.getpid()) - before
    assert 0.045 < used < 1.0
    assert abs((cpu_s(os.getpid()) - ticks) - used) < 0.05  # the ticks agree, coarsely
