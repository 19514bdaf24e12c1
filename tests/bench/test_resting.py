"""`bench live`'s resting figure (bench/live/trials.py, `resting_cpu`): the daemon's CPU is
timed while one piece rests on the reader the whole time, and the piece is lifted after.

A second of rest is about 4 ms of the daemon's CPU on a fast machine: less than one 10 ms clock
tick, which the figure was counted in until it failed in CI as 0 % (it is now the process's CPU
clock, to the nanosecond)."""

from __future__ import annotations

import time

from bench.live.rig import Rig
from bench.live.trials import resting_cpu

SECONDS = 1.0


def test_the_piece_rests_through_the_timing_and_is_lifted_after() -> None:
    rig = Rig()
    try:
        rig.start()
        started = time.monotonic()
        share = resting_cpu(rig, SECONDS)
        assert rig.log is not None
        lines = [(t, line) for t, line in rig.log.lines if t > started]
        placed = [t for t, line in lines if "reader chest:" in line and " placed" in line]
        lifted = [t for t, line in lines if "reader chest:" in line and " lifted" in line]
        # One placement and one lift, the timed seconds between them: a piece lifted before
        # the timing ended (or a phantom lift the daemon saw) would time an empty table.
        assert len(placed) == 1 and len(lifted) == 1, lines
        assert lifted[0] - placed[0] >= SECONDS
        assert share > 0
    finally:
        rig.close()
