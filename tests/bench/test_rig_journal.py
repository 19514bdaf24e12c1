"""`bench live`'s daemon logs as the box's unit has it log (bench/live/rig.py): with stderr
connected to the journal (`JOURNAL_STREAM`), every record carries its sd-daemon priority and the
play-by-play is logged too, a record per sentence, as `journalctl -u tabletap` shows it. Run as
in a shell instead, the daemon printed its play-by-play to a stdout nobody reads and left those
records out of the CPU a tap costs."""

from __future__ import annotations

from bench.live.rig import Rig
from bench.live.trials import run_trials


def test_the_benched_daemon_logs_its_play_by_play_into_the_journal_stream() -> None:
    rig = Rig()
    try:
        rig.start()
        figures = run_trials(rig, 1, seed=1)
        assert figures.accepted >= 1
        assert rig.log is not None
        lines = [line for _, line in rig.log.lines]
    finally:
        rig.close()
    placed = [line for line in lines if "reader chest:" in line and line.endswith(" placed")]
    assert placed and all(line.startswith("<6>") for line in placed), lines
    # the play-by-play of the accepted taps: narrated into the journal, at info
    said = [line for line in lines if line.startswith("<6>tabletap.table: ")]
    assert len(said) >= figures.accepted, lines
