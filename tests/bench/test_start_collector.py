"""The real daemon makes no garbage collection between entering `cli.main` and READY, and the
objects of its start are frozen at READY, so no later collection traces them again; after
READY the collector runs as usual (controller/collector.py: 3.2 % of the start's instructions,
docs/BENCHMARKS.md, "The collector held off during the start")."""

from __future__ import annotations

import re

from bench.live.rig import Rig
from bench.live.trials import run_trials
from tests.bench.watched import resume_watched, watch_lines

COLLECTION = re.compile(r"start-watch: collection generation=(\d) frozen=(\d+)")


def _collections_after_main(rig: Rig) -> list[tuple[int, int]]:
    """(generation, objects frozen by then) of each collection since `main` was entered."""
    lines = watch_lines(rig)
    entered = lines.index("start-watch: main entered")
    return [(int(m[1]), int(m[2])) for line in lines[entered:]
            if (m := COLLECTION.search(line))]


def test_the_start_collects_nothing_and_is_frozen_at_ready() -> None:
    rig = Rig()
    try:
        resume_watched(rig)
        run_trials(rig, 3)  # play: allocations enough for the collector's passes after READY
        rig.stop()
        seen = _collections_after_main(rig)
    finally:
        rig.close()
    assert seen, "no collection after READY: the collector was left off"
    before_ready = [c for c in seen if c[1] == 0]
    assert not before_ready, f"{len(before_ready)} collections between main and READY"
    # the start's heap, tens of thousands of objects, frozen once at READY
    assert min(frozen for _, frozen in seen) > 10_000
