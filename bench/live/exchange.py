"""`python -m bench.live.exchange [--blocks N] [--layers]`: the host's CPU for one resting poll.

One tag rests on the emulated PN532 at the far end of a pseudo-terminal (sim/pn532/pty.py,
115200 baud); the real reader (`Pn532Reader` on `UartTransport`, the unmodified adafruit driver,
the framing on pyserial's descriptor) polls it 200 times a block. Printed: the median over the
blocks of this thread's CPU (`time.thread_time()`, user and system) per poll, which is one
InListPassiveTarget exchange. The emulator's own thread is not counted. This is the exchange's
floor beside the stopwatches' `_call` in the daemon (stopwatch.py).

`--layers` runs the same InListPassiveTarget at four depths, block by block in turn: the six
system calls alone (`tcflush`, `os.write`, then `select` and `os.read` until the ACK and the
reply are in), the framing (`FramedSerial`, as the driver calls it), the driver's
`call_function`, and the reader's whole `poll`. Each depth's figure less the one above it is
what that layer's Python costs per exchange, as it runs between two waits.
"""

from __future__ import annotations

import argparse
import os
import select
import statistics
import termios
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from bench.demo import demo_game
from tabletap.controller.table.identity import encode_piece
from tabletap.hw.pn532.reader import IN_LIST_PASSIVE_TARGET, Pn532Reader
from tabletap.hw.pn532.transports import UartTransport, serial_opener
from tabletap.sim.pn532.chip import Pn532Chip
from tabletap.sim.pn532.pty import PtyChip
from tabletap.sim.pn532.timing import default_timing
from tabletap.sim.world import SimTag, SimWorld, uid_for

POLLS = 200


LISTING = bytes.fromhex("0000ff04fcd44a0200e000")  # InListPassiveTarget, two targets, type A
ACK_AND_REPLY = 6 + 22  # the ACK, and the reply naming one tag with a 7-byte UID


@contextmanager
def resting_tag() -> Iterator[Pn532Reader]:
    """The real reader on the pty emulator, one tag resting on it, its NDEF already read."""
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
        yield reader
    finally:
        reader.close()
        pty.close()


def _block_us(one: Callable[[], object]) -> float:
    started = time.thread_time()
    for _ in range(POLLS):
        one()
    return (time.thread_time() - started) / POLLS * 1e6


def _poll(reader: Pn532Reader) -> Callable[[], object]:
    def one() -> None:
        if not reader.poll().tags:
            raise RuntimeError("the resting tag was missed")
    return one


def resting_poll_us(blocks: int) -> list[float]:
    with resting_tag() as reader:
        return [_block_us(_poll(reader)) for _ in range(blocks)]


def layers_us(blocks: int) -> dict[str, list[float]]:
    """Each depth's CPU per exchange, `blocks` blocks each, the depths taking turns."""
    with resting_tag() as reader:
        framed = reader.transport._framed  # type: ignore[attr-defined]
        fd, pn = framed._fd, reader._pn
        if fd is None or pn is None:
            raise RuntimeError("the reader is not on a descriptor")

        def bare() -> None:
            termios.tcflush(fd, termios.TCIFLUSH)
            os.write(fd, LISTING)
            got = 0
            while got < ACK_AND_REPLY:
                select.select([fd], [], [], 0.05)
                got += len(os.read(fd, 256))

        def framing() -> None:
            framed.reset_input_buffer()
            framed.write(LISTING)
            for size in (6, ACK_AND_REPLY - 6):  # the ACK, then the reply, as the driver asks
                framed.in_waiting  # noqa: B018 - the property waits for the frame
                if len(framed.read(64)) != size:
                    raise RuntimeError("the framing gave a frame of the wrong length")

        def driver() -> None:
            if not pn.call_function(IN_LIST_PASSIVE_TARGET, response_length=31, params=[2, 0],
                                    timeout=1.0):
                raise RuntimeError("the driver listed no tag")

        depths = {"system calls alone": bare, "+ framing": framing,
                  "+ adafruit driver": driver, "+ reader's poll": _poll(reader)}
        out: dict[str, list[float]] = {name: [] for name in depths}
        for _ in range(blocks):
            for name, one in depths.items():
                out[name].append(_block_us(one))
        return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.live.exchange", description=__doc__)
    parser.add_argument("--blocks", type=int, default=10, help="blocks of 200 polls (10)")
    parser.add_argument("--layers", action="store_true",
                        help="the exchange at four depths, from the system calls up")
    args = parser.parse_args(argv)
    if args.layers:
        for name, us in layers_us(args.blocks).items():
            print(f"{name:20s} median {statistics.median(us):4.0f} us an exchange "
                  f"(blocks: {', '.join(f'{b:.0f}' for b in us)})")
        return 0
    blocks = resting_poll_us(args.blocks)
    print(f"a resting poll (one exchange): median {statistics.median(blocks):.0f} us of the "
          f"host's CPU (blocks: {', '.join(f'{b:.0f}' for b in blocks)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
