"""Virtual time: ten minutes of play in a fraction of a second."""

from __future__ import annotations

import heapq
from collections.abc import Callable
from itertools import count


class VirtualClock:
    """A clock that only moves when told to; `sleep` advances it instead of waiting.

    Something can be scheduled for a moment (`call_at`): a sleep that passes that moment stops
    there, runs it, and goes on, so a tag can be placed while the reader is in the middle of
    waiting for one (an armed PN532 listing), at exactly the time it was meant to happen.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._due: list[tuple[float, int, Callable[[], None]]] = []
        self._order = count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, action: Callable[[], None]) -> None:
        heapq.heappush(self._due, (when, next(self._order), action))

    def next_due(self) -> float | None:
        """When the next scheduled action happens (None: nothing scheduled)."""
        return self._due[0][0] if self._due else None

    def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            self._run_due()
            return
        target = self._now + seconds
        while self._due and self._due[0][0] <= target:
            when, _, action = heapq.heappop(self._due)
            self._now = max(self._now, when)
            action()
        self._now = max(self._now, target)

    def _run_due(self) -> None:
        while self._due and self._due[0][0] <= self._now:
            heapq.heappop(self._due)[2]()

    advance = sleep
