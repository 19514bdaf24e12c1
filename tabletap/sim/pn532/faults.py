"""Faults on demand for the emulated PN532: what goes wrong with real readers at a real table.

- `drop`: the chip's reply frame never arrives (the ACK does): the host times out.
- `corrupt`: the reply arrives with a wrong data checksum (DCS).
- `fade`: the tag does not answer this one exchange: missing from an InListPassiveTarget (a clean
  miss, the hard case for presence tracking) or status 0x01 in the middle of an InDataExchange.
- `vanish`: the chip loses power for `vanish_seconds`, then comes back reset (configuration lost).

Faults are armed one at a time (`arm`), for tests that need one exact failure, or drawn at random
per poll (`rate`, seeded), for soak runs: a poll starts with InListPassiveTarget, so that is where
the draw happens, and the drawn fault hits the first exchange it applies to.

A `fade` misses the whole listing, however many activations its MaxRetries allow: the field, not
the tag, is at fault. `activation_fade` is the other model of a resting tag's misses: each
activation attempt misses it on its own, with that probability, so a listing misses it only when
every attempt does. Which of the two a real reader and tag show is what `tabletap tags misses`
counts (docs/nfc.md, "Extra listings"); the emulator is told, it cannot know.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Literal

Fault = Literal["drop", "corrupt", "fade", "vanish"]
KINDS: tuple[Fault, ...] = ("drop", "corrupt", "fade", "vanish")

IN_LIST = 0x4A
IN_DATA_EXCHANGE = 0x40


@dataclass
class FaultPlan:
    rate: float = 0.0  # probability that a poll is hit by one fault
    kinds: tuple[Fault, ...] = KINDS
    seed: int = 0
    vanish_seconds: float = 0.3
    activation_fade: float = 0.0  # probability that one activation attempt misses a tag
    _armed: deque[tuple[Fault, int | None]] = field(default_factory=deque)
    _pending: Fault | None = None
    injected: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 0 <= self.rate <= 1:
            raise ValueError("fault rate must be between 0 and 1")
        if not 0 <= self.activation_fade < 1:
            raise ValueError("activation_fade must be at least 0 and below 1")
        unknown = set(self.kinds) - set(KINDS)
        if unknown:
            raise ValueError(f"unknown fault kinds {sorted(unknown)}; known: {', '.join(KINDS)}")
        self._rng = random.Random(self.seed)

    def arm(self, kind: Fault, command: int | None = None) -> None:
        """Make the next exchange (of `command`, if given) suffer `kind`."""
        if kind not in KINDS:
            raise ValueError(f"unknown fault {kind!r}; known: {', '.join(KINDS)}")
        self._armed.append((kind, command))

    def take(self, command: int) -> Fault | None:
        """The fault for this exchange, if any; called once per command the chip receives."""
        if self._armed:
            kind, wanted = self._armed[0]
            if wanted is None or wanted == command:
                self._armed.popleft()
                return self._count(kind)
        if command == IN_LIST and self.rate and self._rng.random() < self.rate:
            self._pending = self._rng.choice(self.kinds)
        if self._pending is not None:
            if self._pending == "fade" and command not in (IN_LIST, IN_DATA_EXCHANGE):
                return None
            kind, self._pending = self._pending, None
            return self._count(kind)
        return None

    def missed_activations(self, attempts: int) -> int:
        """How many of a listing's `attempts` activations miss the tag before one finds it
        (`attempts` when none does), each missing it on its own (`activation_fade`)."""
        missed = 0
        while missed < attempts and self._rng.random() < self.activation_fade:
            missed += 1
        if missed == attempts:
            self.injected["activation_fade"] = self.injected.get("activation_fade", 0) + 1
        return missed

    def _count(self, kind: Fault) -> Fault:
        self.injected[kind] = self.injected.get(kind, 0) + 1
        return kind
