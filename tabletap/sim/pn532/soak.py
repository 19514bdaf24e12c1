"""The daemon's polling loop, on any clock, recording every presence event.

The same supervision (`tabletap.controller.table.daemon.SupervisedReader`: backoff on
ReaderUnavailable), presence tracking and pauses (`poll.period`, `poll.resting_period`,
`poll.confirm_period`, and waiting on every reader that waits for a tap at once:
`tabletap.controller.table.daemon.wait_for_readers`) the daemon uses, without a game session, so
tests and `bench/nfc.py` can measure what a family would see: phantom removals, tap-to-event and
lift-to-event latency, CPU.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tabletap.controller.ports import Clock, TagReader
from tabletap.controller.settings.config import PollConfig
from tabletap.controller.table.daemon import SupervisedReader, pause_after_pass, wait_for_readers
from tabletap.controller.table.presence import PresenceEvent, PresenceTracker

_DEFAULTS = PollConfig()


@dataclass
class PollLoop:
    reader: TagReader
    clock: Clock
    period: float = _DEFAULTS.period
    miss_threshold: int = _DEFAULTS.miss_threshold
    resting_period: float | None = _DEFAULTS.resting_period
    confirm_period: float | None = _DEFAULTS.confirm_period
    # True: pause what is left of the pass after the polls, as `tabletap run` and
    # Daemon.run_for do; False: a whole pause after each pass
    run_loop: bool = True
    # more readers on the same loop, polled one after the other each pass as the daemon does
    more: list[TagReader] = field(default_factory=list)
    events: list[tuple[float, PresenceEvent]] = field(default_factory=list)
    ticks: int = 0

    def __post_init__(self) -> None:
        self.all = [
            SupervisedReader(r, PresenceTracker(r.name, self.miss_threshold))
            for r in [self.reader, *self.more]
        ]
        self.supervised = self.all[0]

    def pause(self) -> float:
        """The pause after a pass: Daemon.poll_wait's rule."""
        return pause_after_pass(self.all, self.period, self.resting_period, self.confirm_period)

    def _wait(self, started: float) -> None:
        wait = self.pause()
        if self.run_loop:
            wait -= self.clock.now() - started
        wait_for_readers([s.reader for s in self.all if not s.missing], self.clock, wait)

    def _pass(self) -> list[PresenceEvent]:
        started = self.clock.now()
        found: list[PresenceEvent] = []
        for sup in self.all:
            found += sup.poll(self.clock.now())
        now = self.clock.now()
        self.events += [(now, ev) for ev in found]
        self.ticks += 1
        self._wait(started)
        return found

    def tick(self) -> list[PresenceEvent]:
        """One pass (every reader once), then the daemon's pause."""
        return self._pass()

    def run_for(self, seconds: float) -> None:
        end = self.clock.now() + seconds
        while self.clock.now() < end:
            self.tick()

    def run_until(
        self, done: Callable[[list[PresenceEvent]], bool], limit: float = 5.0
    ) -> float | None:
        """Pass until `done(events of this pass)`; the clock time it happened, None if never."""
        end = self.clock.now() + limit
        while self.clock.now() < end:
            n = len(self.events)
            found = self._pass()
            if done(found):
                return self.events[n][0] if len(self.events) > n else self.clock.now()
        return None

    def count(self, kind: str) -> int:
        return sum(1 for _, ev in self.events if ev.kind == kind)
