"""The wall clock for the table; the simulator brings its own virtual one (sim.clock)."""

from __future__ import annotations

import time


class SystemClock:
    """Monotonic time: a daemon must not jump when NTP corrects the wall clock."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)
