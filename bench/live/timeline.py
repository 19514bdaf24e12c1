"""`python -m bench.live.timeline [--trials N]`: where a tap's wall-clock time goes.

`bench live` measures a tap from the tag entering the emulated field to the board executing the
chest's command. This tool splits that time at the daemon's own steps: the real daemon of `bench
live` (rig.py) runs behind bench/live/timelined.py, which stamps the monotonic clock as each
step begins or ends; the bench stamps the tag's entry and the board's execution on the same
clock. For each accepted tap the first stamp of each step inside its window is taken, and the
medians are printed in order, each with the time since the step before. Then the moment the
answer's first sentence begins (AFTER), looked for until the next tap, beside the link's send:
issue 23 has the chest's command sent the moment the move is durable and the narration, the
page's notice and the voice after it, never before.

Why: the first tap's p50 goal (25 ms) sits a few milliseconds above what the emulated chip's
wire and timing.yaml's guessed chip times take by themselves, so a run over it must say whether
the chip's model, the disk's flushes or the daemon's own code took the rest. No phone, no quota:
compare runs of this tool with each other.
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.live.rig import Rig
from bench.live.trials import Figures, run_trials

WRAPPER = Path(__file__).with_name("timelined.py")
STEPS: dict[str, str] = {  # timelined.py's steps, in the order a tap passes them
    "listed": "the armed listing's answer read",
    "ndef": "the tag's NDEF read (a new tag only)",
    "identified": "the piece identified",
    "rules": "the placement handed to the session",
    "journal": "the rules' answer: the journal's append begins",
    "fsynced": "the journal's entry written and fsynced",
    "recorded": "the durable record written and fdatasynced",
    "queued": "the chest's command queued for the Pico link",
    "sent": "the link's thread writes it",
    "executed": "the board executed it (the bench's stamp)",
}
# steps after the chest's command, looked for until the next tap (a sentence may begin before or
# after the board executes the command), each reported beside the link's send ("sent")
AFTER: dict[str, str] = {
    "told": "the answer's first sentence begins (printed, to the page, said)",
}


def _stamps(pid: int, path: Path) -> list[tuple[float, str]]:
    os.kill(pid, signal.SIGUSR1)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            return [(t, step) for t, step in json.loads(path.read_text(encoding="utf-8"))]
        except (FileNotFoundError, ValueError):
            time.sleep(0.05)
    raise RuntimeError("the daemon wrote no stamps (is it running behind the wrapper?)")


def timelines(f: Figures, stamps: list[tuple[float, str]]) -> dict[bool, dict[str, list[float]]]:
    """For first taps (True) and taps again (False): each step's milliseconds after the tag
    entered, from the first stamp of that step within the tap's window."""
    out: dict[bool, dict[str, list[float]]] = {True: {}, False: {}}
    starts = sorted(placed for _, placed, _ in f.taps)
    for first, placed, executed in f.taps:
        later = bisect.bisect_right(starts, placed)  # the next tap's start ends this one's AFTER
        until = starts[later] if later < len(starts) else float("inf")
        seen: dict[str, float] = {}
        for t, step in stamps:
            end = until if step in AFTER else executed
            if placed <= t <= end and step not in seen:
                seen[step] = t
        seen["executed"] = executed
        for step, t in seen.items():
            out[first].setdefault(step, []).append((t - placed) * 1000)
    return out


def report(lines: dict[bool, dict[str, list[float]]]) -> list[str]:
    text: list[str] = []
    for first, steps in lines.items():
        taps = len(steps.get("executed", []))
        text.append(f"{'first taps' if first else 'taps again'} ({taps}): median ms after the "
                    "tag entered the field, and since the step before")
        before = 0.0
        for step, label in STEPS.items():
            if step not in steps:
                continue
            at = statistics.median(steps[step])
            text.append(f"  {at:7.2f}  {at - before:+7.2f}  {label}")
            before = at
        for step, label in AFTER.items():
            if step in steps and "sent" in steps:
                at, sent = statistics.median(steps[step]), statistics.median(steps["sent"])
                text.append(f"  {at:7.2f}  {at - sent:+7.2f}  {label}, after the link's send")
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.live.timeline", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=60, help="trials of each kind (60)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "timeline.json"
        os.environ["TIMELINE_OUT"] = str(out)
        rig = Rig()
        try:
            rig.start(new=True, prefix=[sys.executable, str(WRAPPER)])
            f = run_trials(rig, args.trials, seed=1)
            stamps = _stamps(rig.pid, out)
        finally:
            rig.close()
    print("\n".join(report(timelines(f, stamps))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
