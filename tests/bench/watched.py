"""The real daemon's resuming start behind tests/bench/start_watch.py, for the start's tests.

A first start makes the game and what is kept between starts; the second, watched, is a start
as a box makes every time after its first.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bench.live.rig import Rig

WATCH = [sys.executable, str(Path(__file__).with_name("start_watch.py"))]


def resume_watched(rig: Rig) -> None:
    """Start a new game and stop; then start again, resuming it, behind the watch."""
    rig.start(new=True)
    rig.stop()
    rig.start(new=False, prefix=WATCH)


def watch_lines(rig: Rig) -> list[str]:
    """The daemon's stderr lines so far, the watch's among them."""
    assert rig.log is not None
    return [line for _, line in rig.log.lines]
