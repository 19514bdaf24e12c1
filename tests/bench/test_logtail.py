"""bench.live.rig.LogTail: when a daemon's log line arrived, the figure `bench live` takes the
placement's and the lift's times from (bench/live/trials.py)."""

from __future__ import annotations

import os
import time

from bench.live.rig import LogTail


def _tail() -> tuple[LogTail, int]:
    read, write = os.pipe()
    return LogTail(os.fdopen(read, encoding="utf-8")), write


def _arrived(tail: LogTail, count: int) -> None:
    deadline = time.monotonic() + 5
    while len(tail.lines) < count and time.monotonic() < deadline:
        time.sleep(0.005)
    assert len(tail.lines) == count


def test_the_first_matching_line_after_the_moment_is_the_one_timed() -> None:
    tail, write = _tail()
    os.write(write, b"chest: old placed\n")
    _arrived(tail, 1)
    after = time.monotonic()
    os.write(write, b"chest: key placed\n")
    _arrived(tail, 2)
    time.sleep(0.02)
    os.write(write, b"chest: key placed again\n")
    _arrived(tail, 3)
    # the line before `after` is never taken, and of the two after it the first is
    assert tail.wait_for(" placed", after, 1.0) == tail.lines[1][0]
    assert tail.lines[1][0] < tail.lines[2][0]
    os.close(write)


def test_a_line_that_never_comes_is_none_after_the_timeout() -> None:
    tail, write = _tail()
    after = time.monotonic()
    os.write(write, b"chest: key placed\n")
    _arrived(tail, 1)
    started = time.monotonic()
    assert tail.wait_for(" lifted", after, 0.1) is None
    assert time.monotonic() - started >= 0.1
    os.close(write)


def test_a_line_that_comes_while_waiting_is_found() -> None:
    tail, write = _tail()
    after = time.monotonic()
    os.write(write, b"chest: key lifted\n")
    found = tail.wait_for(" lifted", after, 5.0)
    assert found is not None and found >= after
    os.close(write)
