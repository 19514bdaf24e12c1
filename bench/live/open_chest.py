"""`python -m bench.live.open_chest [--taps N]`: the daemon's CPU for one accepted tap with the
box's own chest and lights times, the open chest and the lights' feedback included.

`bench live` runs its trials with a chest that relocks after 0.25 s and lights that settle
after 0.2 s (rig.py), so that a trial's answer is over before the next tap. A family's box
keeps the chest open `chest.open_seconds` (5 s by default) and shows the feedback for
`lights.feedback_seconds` (2 s): whatever the loop does while those run is a tap's cost the
trials hardly see. Here the real daemon of `bench live` (rig.py) runs with those defaults; the
demo's golden key is tapped, lifted 0.3 s later, and the daemon's CPU is read from just before
the tap to 6.5 s after it (its CPU clock, procstat.cpu_s, to the nanosecond: clock ticks
are too coarse for a window this short). No phone watches. Another commit's daemon:
`BENCH_DAEMON_PYTHONPATH=WORKTREE` (rig.py), as bench.live.compare does.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench.live.procstat import cpu_s
from bench.live.rig import Rig
from bench.live.trials import _latch_open, _new_game
from tabletap.controller.settings.config import ChestConfig, LightsConfig
from tabletap.controller.table.identity import encode_piece
from tabletap.sim.world import SimTag, uid_for

AFTER = 6.5  # seconds read after the tap: the chest's 5 s and a margin
LIFT_AFTER = 0.3


def tap_costs_ms(taps: int) -> list[float]:
    """The daemon's CPU (ms) over the AFTER seconds of each accepted tap."""
    rig = Rig(open_seconds=ChestConfig().open_seconds,
              feedback_seconds=LightsConfig().feedback_seconds)
    out: list[float] = []
    try:
        rig.start(new=True)
        piece = rig.demo.again
        tag = SimTag(uid=uid_for("bench:open-chest"), ndef=encode_piece(piece), piece=piece)
        for _ in range(3 * taps):
            if len(out) == taps:
                break
            time.sleep(1.0)
            before = cpu_s(rig.pid)
            t0 = rig.place(tag)
            opened = rig.executed(t0, _latch_open, 5.0)
            time.sleep(LIFT_AFTER)
            rig.lift(tag)
            time.sleep(AFTER - LIFT_AFTER)
            used = cpu_s(rig.pid) - before
            if opened is None:  # the game was won: a new one, and the tap again
                _new_game(rig)
                rig.wait_settled()
                continue
            out.append(used * 1000)
        if len(out) < taps:
            raise RuntimeError(f"the golden key opened the chest {len(out)} times in "
                               f"{3 * taps} taps")
    finally:
        rig.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.live.open_chest", description=__doc__)
    parser.add_argument("--taps", type=int, default=5, help="accepted taps to read (5)")
    args = parser.parse_args(argv)
    costs = tap_costs_ms(args.taps)
    print(f"daemon CPU over {AFTER:g} s after an accepted tap (chest open "
          f"{ChestConfig().open_seconds:g} s, feedback {LightsConfig().feedback_seconds:g} s): "
          f"median {statistics.median(costs):.1f} ms "
          f"({', '.join(f'{c:.1f}' for c in costs)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
