"""`python -m bench.live.stopwatch [--trials N]`: where the real daemon's CPU per tap goes.

The daemon of `bench live` (rig.py) runs behind `bench/live/stopwatched.py`, which puts a
thread-CPU stopwatch (`time.thread_time()`, user and system time of the calling thread) around
each of the loop's parts listed there and writes their totals when sent SIGUSR1. The bench
sends it before and after `run_trials` and prints each part's calls and CPU per accepted tap,
beside the daemon's whole CPU per thread from /proc. The parts nest (a reader's exchanges are
inside its poll, the poll inside the pass), so they do not add up; what is in no part is the
loop's own code between them.

cProfile was the tool before, and it misled: its cost per call made the many small calls (the
framing's byte handling, contextlib) look like a fifth of an exchange, and it sees one thread.
A stopwatch costs two clock reads per call, on about twenty functions a pass; the totals come
out a few per cent above a run without it (7.17 ms a tap against 6.85-7.10 in the runs of
`bench.live.compare` on the same tree, the same evening). No quota, no phone watching: compare
runs of this tool with each other, not with `bench live`.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

from bench.live.phone import Phone
from bench.live.procstat import threads_cpu_s
from bench.live.rig import Rig
from bench.live.trials import rest_a_piece, run_trials

WRAPPER = Path(__file__).with_name("stopwatched.py")


def _threads(pid: int) -> dict[str, float]:
    """CPU seconds of each thread: the loop's ("main") and the others by id (Python names its
    threads for itself only: the kernel's name is the program's for all of them)."""
    return {"main" if tid == pid else f"thread {tid}": cpu
            for tid, cpu in threads_cpu_s(pid).items()}


def _snapshot(pid: int, path: Path, count: int) -> dict:
    os.kill(pid, signal.SIGUSR1)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            snaps = json.loads(path.read_text())
        except (FileNotFoundError, ValueError):
            snaps = []
        if len(snaps) >= count:
            return snaps[count - 1]
        time.sleep(0.05)
    raise RuntimeError("the daemon wrote no stopwatch totals (is it running behind the wrapper?)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.live.stopwatch", description=__doc__)
    parser.add_argument("--trials", type=int, default=60, help="trials of each kind (60)")
    watch = parser.add_mutually_exclusive_group()
    watch.add_argument("--phone", action="store_true",
                       help="a phone watches the page all along, as in `bench live`'s full run")
    watch.add_argument("--page", action="store_true",
                       help="the page runs and no phone watches it (a family's box most of an "
                            "evening)")
    no_trials = parser.add_mutually_exclusive_group()
    no_trials.add_argument("--idle", type=float, default=0.0, metavar="S",
                           help="no trials: an empty table for S seconds, the parts per second")
    no_trials.add_argument("--resting", type=float, default=0.0, metavar="S",
                           help="no trials: one piece resting on the reader for S seconds "
                                "(placed, its answer played out, then timed), the parts per "
                                "second")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        totals = Path(tmp) / "stopwatch.json"
        os.environ["STOPWATCH_OUT"] = str(totals)
        rig = Rig()
        phone = Phone(rig, watching=args.phone) if args.phone or args.page else None
        try:
            rig.start(new=True, prefix=[sys.executable, str(WRAPPER)])
            still = args.idle or args.resting
            if args.resting:
                rest_a_piece(rig)
            before = _snapshot(rig.pid, totals, 1)
            threads0 = _threads(rig.pid)
            if still:
                started = time.monotonic()
                time.sleep(still)
                seconds = time.monotonic() - started
            else:
                f = run_trials(rig, args.trials, seed=1)
            threads1 = _threads(rig.pid)
            after = _snapshot(rig.pid, totals, 2)
        finally:
            if phone is not None:
                phone.stop()
            rig.close()
    if still:
        taps, each = seconds, "second"
        table = "one piece resting on the reader" if args.resting else "an empty table"
        print(f"{table} for {seconds:.1f} s; the daemon's CPU per second by thread "
              "(/proc): ", end="")
    else:
        taps, each = max(1, f.accepted), "tap"
        print(f"{f.accepted} accepted taps, {f.new_games} new games; the daemon's CPU per "
              f"accepted tap {f.cpu_s / taps * 1000:.2f} ms, by thread (/proc): ", end="")
    print(", ".join(f"{name} {(cpu - threads0.get(name, 0.0)) / taps * 1000:.2f} ms"
                    for name, cpu in threads1.items()))
    main_ms = (after["main"] - before["main"]) / taps * 1000
    print(f"the loop's thread (thread_time): {main_ms:.2f} ms per {each}")
    print(f"  {'part':36s} {'calls/' + each:>12s} {'ms/' + each:>10s} {'us/call':>8s}")
    rows = []
    for part, (calls, cpu) in after["parts"].items():
        calls0, cpu0 = before["parts"].get(part, (0, 0.0))
        if calls > calls0:
            rows.append((part, (calls - calls0) / taps, (cpu - cpu0) / taps * 1000,
                         (cpu - cpu0) / (calls - calls0) * 1e6))
    for part, calls, ms, us in sorted(rows, key=lambda r: -r[2]):
        print(f"  {part:36s} {calls:12.2f} {ms:10.3f} {us:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
