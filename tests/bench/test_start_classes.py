"""The real daemon's start makes no dataclass but the few kept for a reason.

A dataclass compiles its `__init__`, `__repr__` and `__eq__` from source at every start, about
0.3-1.5 ms a class here, where a msgspec Struct is made in C in about 20 µs. The start's mutable
classes (the session, the daemon, the presence trackers, the journal's replay, the Pico link's
tickets, ...) are Structs, as its frozen values already were: 8.9 % of the instructions to READY
(docs/BENCHMARKS.md, "The start's classes made in C"). This test keeps a new dataclass from
creeping back onto the start's path unseen: one that must be a dataclass goes in KEPT, with why.
"""

from __future__ import annotations

import time

from bench.live.rig import Rig
from tests.bench.watched import resume_watched, watch_lines

MADE = "start-watch: dataclass "

# Each kept as a dataclass for what a Struct cannot do, or what other code relies on.
KEPT = {
    # copied with dataclasses.replace (table/session.py: the next game like this one)
    "tabletap.controller.state.journal.GameHeader",
    # copied with dataclasses.replace when the volume changes (spoken/speaker.py)
    "tabletap.controller.spoken.speaker.VoiceSettings",
    # a functools.cached_property needs an instance __dict__
    "tabletap.games.magic_keys.rules.track.Track",
    # its own __init__, which a Struct may not have
    "tabletap.controller.state.folder.StateFolder",
    # a game's table: the session tells a half-made gesture by comparing copies made with
    # dataclasses.replace (table/session.py, `_gesture_pending`), and every game's table,
    # a plugin's too, subclasses GameTable
    "tabletap.controller.games.base.GameTable",
    "tabletap.games.magic_keys.table.MagicKeysTable",
}


def test_the_start_makes_only_the_kept_dataclasses() -> None:
    rig = Rig()
    try:
        resume_watched(rig)
        time.sleep(0.5)
        rig.stop()
        lines = watch_lines(rig)
    finally:
        rig.close()
    # from exec to READY; the phone page's side is attached after READY (commands/run.py)
    start = lines[:lines.index("start-watch: ready")]
    assert "start-watch: main entered" in start  # the watch ran: its silence would mean nothing
    made = {line.removeprefix(MADE) for line in start if line.startswith(MADE)}
    assert made, "no dataclass seen at all: the watch did not take"
    assert made <= KEPT, f"dataclasses on the start's path: {sorted(made - KEPT)}"
