"""The daemon's polling loop for one reader, on any clock, recording every presence event.

The same supervision (`tabletap.controller.daemon.SupervisedReader`: backoff on
ReaderUnavailable) and
presence tracking the daemon uses, without a game session, so tests and `bench/nfc.py` can measure
what a family would see: phantom removals, tap-to-event and lift-to-event latency.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tabletap.controller.config import PollConfig
from tabletap.controller.daemon import SupervisedReader
from tabletap.controller.ports import Clock, TagReader
from tabletap.controller.presence import PresenceEvent, PresenceTracker


@dataclass
class PollLoop:
    reader: TagReader
    clock: Clock
    period: float = 0.1
    miss_threshold: int = PollConfig.model_fields["miss_threshold"].default
    resting_period: float | None = None  # poll.resting_period
    # True: sleep what is left of the period after the poll, as `tabletap run` does (a poll
    # that waited for a tap has used the period up); False: a whole period after each poll,
    # as Daemon.run_for does
    run_loop: bool = False
    events: list[tuple[float, PresenceEvent]] = field(default_factory=list)
    ticks: int = 0

    def __post_init__(self) -> None:
        self.supervised = SupervisedReader(
            self.reader, PresenceTracker(self.reader.name, self.miss_threshold)
        )

    def _wait(self, started: float) -> None:
        period = self.period
        if self.resting_period is not None and self.supervised.tracker.present():
            period = min(period, self.resting_period)
        if self.run_loop:
            self.clock.sleep(period - (self.clock.now() - started))
        else:
            self.clock.sleep(period)

    def tick(self) -> list[PresenceEvent]:
        """One poll, then the daemon's sleep (see `run_loop`)."""
        started = self.clock.now()
        found = self.supervised.poll(started)
        now = self.clock.now()
        self.events += [(now, ev) for ev in found]
        self.ticks += 1
        self._wait(started)
        return found

    def run_for(self, seconds: float) -> None:
        end = self.clock.now() + seconds
        while self.clock.now() < end:
            self.tick()

    def run_until(
        self, done: Callable[[list[PresenceEvent]], bool], limit: float = 5.0
    ) -> float | None:
        """Tick until `done(events of this tick)`; the clock time it happened, None if never."""
        end = self.clock.now() + limit
        while self.clock.now() < end:
            started = self.clock.now()
            found = self.supervised.poll(started)
            now = self.clock.now()
            self.events += [(now, ev) for ev in found]
            self.ticks += 1
            self._wait(started)
            if done(found):
                return now
        return None

    def count(self, kind: str) -> int:
        return sum(1 for _, ev in self.events if ev.kind == kind)
