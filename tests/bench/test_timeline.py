"""`python -m bench.live.timeline`: a tap's wall-clock time split at the real daemon's steps
(bench/live/timelined.py stamps them inside the daemon, on the clock the bench stamps the tag's
entry and the board's execution with)."""

from __future__ import annotations

import pytest

from bench.live import timeline
from bench.live.trials import Figures


def test_each_tap_takes_the_first_stamp_of_each_step_inside_its_window() -> None:
    f = Figures(taps=[(True, 10.000, 10.025), (False, 20.000, 20.009)])
    stamps = [(9.999, "listed"),  # before the tag entered: another pass's
              (10.006, "listed"), (10.022, "ndef"), (10.023, "fsynced"),
              (10.024, "fsynced"),  # a second entry in the same window: not this tap's step
              (10.0245, "sent"),
              (10.026, "told"),  # after the board executed, before the next tap: this tap's
              (20.006, "listed"), (20.008, "fsynced"),
              (20.010, "sent")]  # after the board executed: not on this tap's path
    lines = timeline.timelines(f, stamps)
    assert lines[True]["listed"] == [pytest.approx(6.0)]
    assert lines[True]["fsynced"] == [pytest.approx(23.0)]
    assert lines[True]["executed"] == [pytest.approx(25.0)]
    assert lines[True]["told"] == [pytest.approx(26.0)]
    assert "ndef" not in lines[False] and "sent" not in lines[False]
    assert "told" not in lines[False]  # the first tap's sentence is not the next tap's
    text = timeline.report(lines)
    assert text[0].startswith("first taps (1)")
    assert any("+16.00  the tag's NDEF read" in line for line in text)
    assert any("+1.50  the answer's first sentence begins" in line for line in text)


def test_the_real_daemon_passes_every_step_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 23: "The chest's command is sent the moment the journal entry is durable;
    narration, the page's notice and the voice come after, never before". The link's thread
    wrote the latch 0.3 ms after the loop queued it, by which time the loop had begun the
    answer's sentences (59 taps of 60, f42d973): the sentence must begin after the send."""
    assert timeline.main(["--trials", "3"]) == 0
    out = capsys.readouterr().out
    first, again = out.split("taps again")
    for block, steps in ((first, list(timeline.STEPS)), (again, [
            s for s in timeline.STEPS if s != "ndef"])):
        labels = [timeline.STEPS[s] for s in steps]
        *found, told = [line for line in block.splitlines()[1:] if line.strip()]
        assert [line.split("  ")[-1] for line in found] == labels, block
        medians = [float(line.split()[0]) for line in found]
        assert medians == sorted(medians) and medians[0] > 0
        assert told.endswith(timeline.AFTER["told"] + ", after the link's send"), block
        assert float(told.split()[1]) > 0, block  # the sentence began after the latch's send
