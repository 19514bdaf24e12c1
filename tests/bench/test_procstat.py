"""bench.live.procstat: a process's CPU to the nanosecond (`cpu_s`, its CPU clock) and to the
clock tick (the user's and the kernel's apart, `cpu_split_s`, from /proc)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from bench.live.procstat import cpu_s, cpu_split_s


def test_the_split_adds_up_to_the_whole_and_a_busy_loop_is_user_time() -> None:
    (user0, sys0), whole0 = cpu_split_s(os.getpid()), cpu_s(os.getpid())
    # arithmetic alone: a loop on time.thread_time() would be mostly system time, as that
    # clock is a system call
    total = sum(i * i for i in range(4_000_000))
    assert total > 0
    (user1, sys1), whole1 = cpu_split_s(os.getpid()), cpu_s(os.getpid())
    # each of the two counts is cut to its tick
    assert abs((user0 + sys0) - whole0) < 0.025 and abs((user1 + sys1) - whole1) < 0.025
    assert user1 - user0 > 0.05  # a few tenths of a second, counted in 10 ms ticks
    assert sys1 - sys0 < user1 - user0


def test_the_clock_counts_this_process_and_the_ticks_agree_coarsely() -> None:
    before, ticks = cpu_s(os.getpid()), sum(cpu_split_s(os.getpid()))
    spun = time.thread_time()
    while time.thread_time() - spun < 0.05:
        pass
    used = cpu_s(os.getpid()) - before
    assert 0.045 < used < 1.0
    assert abs((sum(cpu_split_s(os.getpid())) - ticks) - used) < 0.05  # the ticks, coarsely


CHILD = """
import sys, threading, time
def spin():
    spun = time.thread_time()
    while time.thread_time() - spun < 0.004:
        pass
print("ready", flush=True)
sys.stdin.readline()
worker = threading.Thread(target=spin)
worker.start()
worker.join()
print("done", flush=True)
sys.stdin.readline()
"""


def test_another_process_is_counted_to_below_a_tick_its_ended_threads_too() -> None:
    """4 ms of CPU in a thread that then ends: less than one 10 ms tick, which /proc's `stat`
    counted as 0 or 10 ms. `bench live`'s short runs (BENCH_IDLE_SECONDS=2) printed idle and
    per-tap CPU rounded to ticks, and the goals' verdicts on them."""
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdin is not None
        assert child.stdout.readline() == "ready\n"
        before = cpu_s(child.pid)
        child.stdin.write("go\n")
        child.stdin.flush()
        assert child.stdout.readline() == "done\n"
        used = cpu_s(child.pid) - before
        assert 0.0035 < used < 0.009, used  # the 4 ms, and a little of reading and printing
    finally:
        child.kill()
        child.wait()
