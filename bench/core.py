"""Figures for the daemon core: the journal's fsync cost (each game's engine figures are its
spec's `bench` module)."""

from __future__ import annotations

import statistics
import tempfile
import time

from tabletap.controller.games import registry
from tabletap.controller.state.journal import GameHeader, Journal


def _journal_append_ms(n: int = 300) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal.in_dir(folder)
        journal.start(GameHeader(registry.game_names()[0], ["a", "b"], 1))
        times = []
        for i in range(n):
            started = time.perf_counter()
            journal.append(i + 1, {"type": "end-turn"})
            times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1]


def run() -> list[tuple[str, float, str]]:
    median, p99 = _journal_append_ms()
    return [
        ("journal append + fsync, median", median, "ms"),
        ("journal append + fsync, p99", p99, "ms"),
    ]
