"""bench.live.floor's reader that costs nothing (bench/live/free_reader.py): the tags on it are
the lines the bench wrote, and the real daemon behind it plays the trials of `bench live`."""

from __future__ import annotations

import os
from pathlib import Path

from bench.live.floor import one_run
from bench.live.free_reader import FreeReader


def test_the_free_reader_holds_the_tags_placed_and_not_yet_lifted(tmp_path: Path) -> None:
    fifo = tmp_path / "tags"
    os.mkfifo(fifo)
    reader = FreeReader("chest", str(fifo))
    out = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    try:
        assert reader.poll().tags == ()
        os.write(out, b"+0a0b d1\n+0c 00\n-0c")  # the last line not yet whole
        assert [(t.uid, t.ndef) for t in reader.poll().tags] == [(b"\x0a\x0b", b"\xd1"),
                                                                 (b"\x0c", b"\x00")]
        os.write(out, b"\n")
        assert [t.uid for t in reader.poll().tags] == [b"\x0a\x0b"]
        assert [t.uid for t in reader.poll().tags] == [b"\x0a\x0b"]  # nothing new: the same
        assert reader.wait_handle().fileno() >= 0
    finally:
        os.close(out)
        reader.close()


def test_the_real_daemon_behind_the_free_reader_plays_the_trials() -> None:
    """Each trial's tap opens the chest and its lift is logged (trials.py waits for both)."""
    run = one_run(free=True, trials=3)
    assert run["accepted"] >= 6
    assert run["cpu_ms_per_tap"] > 0
