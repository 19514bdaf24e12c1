"""`python -m bench.live.exchange [--blocks N]`: the host's CPU for one resting poll.

One tag rests on the emulated PN532 at the far end of a pseudo-terminal (sim/pn532/pty.py,
115200 baud); the real reader (`Pn532Reader` on `UartTransport`, the unmodified adafruit driver,
the framing on pyserial's descriptor) polls it 200 times a block. Printed: the median over the
blocks of this thread's CPU (`time.thread_time()`, user and system) per poll, which is one
InListPassiveTarget exchange. The emulator's own thread is not counted. This is the exchange's
floor beside the stopwatches' `_call` in the daemon (stopwatch.py).
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench.demo import demo_game
from tabletap.controller.table.identity import encode_piece
from tabletap.hw.pn532.reader import Pn532Reader
from tabletap.hw.pn532.transports import UartTransport, serial_opener
from tabletap.sim.pn532.chip import Pn532Chip
from tabletap.sim.pn532.pty import PtyChip
from tabletap.sim.pn532.timing import default_timing
from tabletap.sim.world import SimTag, SimWorld, uid_for

POLLS = 200


def resting_poll_us(blocks: int) -> list[float]:
    world = SimWorld(clock=time)  # type: ignore[arg-type]  # now() is not used
    chip = Pn532Chip(field=lambda: [t.memory for t in world.field_of("chest")],
                     timing=default_timing())
    pty = PtyChip(chip, baud=115200)
    reader = Pn532Reader("chest", UartTransport(serial_opener(pty.port, 115200), 0.05))
    piece = demo_game()[1].again  # the demo game's piece that the trials tap again
    try:
        world.place("chest", SimTag(uid=uid_for("bench:exchange"), ndef=encode_piece(piece),
                                    piece=piece))
        pty.poke()
        if not reader.poll().tags:  # the first poll reads the tag's NDEF: not a resting one
            raise RuntimeError("the emulated reader did not see the tag")
        out = []
        for _ in range(blocks):
            started = time.thread_time()
            for _ in range(POLLS):
                if not reader.poll().tags:
                    raise RuntimeError("the resting tag was missed")
            out.append((time.thread_time() - started) / POLLS * 1e6)
        return out
    finally:
        reader.close()
        pty.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.live.exchange", description=__doc__)
    parser.add_argument("--blocks", type=int, default=10, help="blocks of 200 polls (10)")
    args = parser.parse_args(argv)
    blocks = resting_poll_us(args.blocks)
    print(f"a resting poll (one exchange): median {statistics.median(blocks):.0f} us of the "
          f"host's CPU (blocks: {', '.join(f'{b:.0f}' for b in blocks)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
