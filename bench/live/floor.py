"""`python -m bench.live.floor [--runs N] [--trials N]`: the CPU per tap of the real daemon
beside the same daemon whose reader costs nothing.

Issue 23's goal of 3 ms of CPU per accepted tap is not met, and the PN532's exchanges are the
largest part measured (the stopwatches of bench.live.stopwatch). Would a reader that cost nothing
meet it? The parts cannot say: some of the loop's waits and passes happen only because a reader
polls. So this runs the trials of `bench live` (trials.py) on two daemons, taking turns, each on a
fresh rig at full speed: the real one (rig.py: adafruit_pn532 over the emulated chip on a
pseudo-terminal), and the same daemon behind bench/live/free_reader.py, whose reader reads
placements and lifts from a FIFO the bench writes (no chip, no exchange). Everything else is the
same: the rules, the journal's fsyncs, the Pico link, the chest's and the lights' commands, the
new games. No phone, no quota. It reports each run's CPU per accepted tap, its kernel's share, and
the chest's latency (without the chip's wire time the second side's is not a reader's).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.live import pct
from bench.live.rig import Rig
from bench.live.trials import run_trials
from tabletap.sim.world import SimTag

PREFIX = Path(__file__).with_name("free_reader.py")


class FreeRig(Rig):
    """The rig whose daemon's reader is a FIFO: placing and lifting write a line to it."""

    def __init__(self, fifo: Path) -> None:
        super().__init__()
        self.fifo = fifo
        os.mkfifo(fifo)
        self._out = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)

    def place(self, tag: SimTag) -> float:
        assert tag.ndef is not None
        t = time.monotonic()
        os.write(self._out, b"+%s %s\n" % (tag.uid.hex().encode(), tag.ndef.hex().encode()))
        return t

    def lift(self, tag: SimTag) -> float:
        t = time.monotonic()
        os.write(self._out, b"-%s\n" % tag.uid.hex().encode())
        return t

    def close(self) -> None:
        super().close()
        os.close(self._out)


def one_run(free: bool, trials: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        fifo = Path(tmp) / "tags"
        rig = FreeRig(fifo) if free else Rig()
        try:
            if free:  # the daemon inherits the bench's environment (Rig.start)
                os.environ["FREE_READER_FIFO"] = str(fifo)
            rig.start(new=True, prefix=[sys.executable, str(PREFIX)] if free else None)
            f = run_trials(rig, trials, seed=1)
        finally:
            os.environ.pop("FREE_READER_FIFO", None)
            rig.close()
    taps = max(1, f.accepted)
    return {"cpu_ms_per_tap": f.cpu_s / taps * 1000, "sys_ms_per_tap": f.sys_s / taps * 1000,
            "accepted": f.accepted, "new_games": f.new_games,
            "chest_p50_ms": pct(f.first_chest + f.again_chest, 0.5) * 1000}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.live.floor", description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="runs of each side (3)")
    parser.add_argument("--trials", type=int, default=100, help="trials of each kind (100)")
    args = parser.parse_args(argv)
    results: dict[str, list[dict[str, float]]] = {"reader": [], "free": []}
    for n in range(args.runs):
        for side in ("reader", "free"):
            print(f"run {n + 1}/{args.runs}, {side} ...", flush=True)
            r = one_run(side == "free", args.trials)
            results[side].append(r)
            print("  " + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}"
                                   for k, v in r.items()), flush=True)
    print("medians:")
    for side, runs in results.items():
        cpu = statistics.median(r["cpu_ms_per_tap"] for r in runs)
        kernel = statistics.median(r["sys_ms_per_tap"] for r in runs)
        print(f"  {side}: cpu_ms_per_tap {cpu:.2f}, sys_ms_per_tap {kernel:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
