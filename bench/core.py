"""Figures for the daemon core: the journal's fsync cost and the Magic Keys engine's speed."""

from __future__ import annotations

import statistics
import tempfile
import time

from tabletap.controller.journal import GameHeader, Journal
from tabletap.controller.rules import engine_for


def _journal_append_ms(n: int = 300) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal.in_dir(folder)
        journal.start(GameHeader("magic-keys", ["a", "b"], 1))
        times = []
        for i in range(n):
            started = time.perf_counter()
            journal.append(i + 1, {"type": "end-turn"})
            times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1]


def _engine_actions_per_second(seconds: float = 2.0) -> float:
    engine = engine_for("magic-keys")
    count, seed = 0, 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = engine.new_game(["a", "b", "c"], seed, {"dice": "digital"}, {})
        seed += 1
        for i in range(400):
            legal = engine.legal_actions(state)
            if not legal:
                break
            state = engine.apply(state, legal[(i * 7919) % len(legal)]).state
            count += 1
    return count / (time.perf_counter() - started)


def run() -> list[tuple[str, float, str]]:
    median, p99 = _journal_append_ms()
    return [
        ("journal append + fsync, median", median, "ms"),
        ("journal append + fsync, p99", p99, "ms"),
        ("Magic Keys engine, digital dice, legal_actions + apply", _engine_actions_per_second(),
         "actions/s"),
    ]
