"""The Pico link over a pseudo-terminal: command round trips and key-to-servo latency; and the
Pico's own framing under real MicroPython.

The first two run the firmware's own code in the simulated board and real pyserial on the host,
so they measure this code's overhead (framing, CRC, threads, the pty), not USB's. The simulated
board runs the firmware under CPython, so they cannot show what the framing costs the Pico's
interpreter: the third runs the firmware's protocol.py under MicroPython 1.27 (its WebAssembly
port, on Node.js; bench/pico_framing.mjs) and times a command's decoding and its ack's encoding.
That is MicroPython's own speed on this machine, not an RP2040's.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench.demo import demo_game
from tabletap.controller.games.base import PiecePlaced
from tabletap.controller.settings.config import Config
from tabletap.controller.table.runtime import GameSpec, open_table
from tabletap.firmware import servo
from tabletap.hw.serial_link import BoardLink
from tabletap.sim.board import SimBoard
from tabletap.sim.context import make_context

CLOSED = servo.duty_u16(500 + 2000 * 60 / 180)  # the default closed angle, -30 degrees
ROUND_TRIPS = 300
KEYS = 40


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def round_trips(corrupt: float) -> list[float]:
    """Milliseconds from submit() to the acknowledgement, one command at a time."""
    board = SimBoard(seed=1, corrupt=corrupt).start()
    link = BoardLink(board.port, board_config={"travel_s": 0.0}, retry=0.01).start()
    try:
        link.wait_hello(5)
        link.wait_idle(5)
        times = []
        for i in range(ROUND_TRIPS):
            start = time.perf_counter()
            ticket = link.submit({"op": "latch", "open": i % 2 == 0})
            if not ticket.wait(5):
                raise RuntimeError("a command was never acknowledged")
            times.append((time.perf_counter() - start) * 1000)
        return times
    finally:
        link.close()
        board.close()


def key_to_servo() -> list[float]:
    """Milliseconds from a true key reaching the table session (the tap identified) to the
    servo's first PWM change: the rules, the journal's fsync, the link and the firmware."""
    context = make_context()
    with tempfile.TemporaryDirectory() as state_dir:
        config = Config(backend="serial", state_dir=state_dir)
        spec, demo = demo_game()
        daemon = open_table(config, context, context["clock"],
                            GameSpec(spec.name, list(demo.players), 1, dict(demo.options),
                                     dict(demo.setup)), new=True)
        session = daemon.session
        outputs = session.outputs
        rec = context["pico"].recorder
        gold = PiecePlaced("chest", demo.again)  # always accepted, always back in place
        try:
            times = []
            for _ in range(KEYS):
                if session.engine.is_over(session.state):
                    session.new_game(context["clock"].now())
                outputs.chest.set_open(False)
                outputs.chest.link.wait_idle(5)
                rec.wait_for(lambda: rec.duty(16) == CLOSED, 5)  # travelled home
                start = time.monotonic()
                if not session.handle(gold, context["clock"].now()).accepted:
                    raise RuntimeError("the golden key was refused")
                rec.wait_for(lambda start=start: rec.pwm[-1][0] > start, 5)
                first = next(t for t, _, _ in rec.pwm if t > start)
                times.append((first - start) * 1000)
            return times
        finally:
            daemon.close()
            outputs.close()


FRAMING_SCRIPT = Path(__file__).with_name("pico_framing.mjs")
MICROPYTHON = (Path(__file__).resolve().parent.parent / "node_modules" / "@micropython"
               / "micropython-webassembly-pyscript")  # the package the script imports


def pico_framing(protocol_py: Path | None = None) -> dict[str, float] | None:
    """Microseconds the firmware's framing takes under MicroPython (pico_framing.mjs); None,
    with the reason printed, where Node.js or the npm package is missing (`make bench` installs
    both, as `make test` does)."""
    if shutil.which("node") is None or not MICROPYTHON.is_dir():
        print("  Node.js or MicroPython's npm package is missing (make bench installs them): "
              "the Pico's framing is not measured")
        return None
    argv = ["node", str(FRAMING_SCRIPT), *([str(protocol_py)] if protocol_py else [])]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def run() -> list[tuple]:
    clean = round_trips(0.0)
    noisy = round_trips(0.01)
    keys = key_to_servo()
    framing = pico_framing()
    pico = [] if framing is None else [
        ("Pico, MicroPython (wasm): a lights command decoded",
         framing["feed_lights_us"], "us", "pico_feed_lights_us_micropython"),
        ("Pico, MicroPython (wasm): a latch command decoded",
         framing["feed_latch_us"], "us", "pico_feed_latch_us_micropython"),
        ("Pico, MicroPython (wasm): its ack encoded", framing["encode_ack_us"], "us",
         "pico_encode_ack_us_micropython"),
    ]
    return [
        ("command round trip host->board->ack, median", statistics.median(clean), "ms"),
        ("command round trip host->board->ack, p99", _percentile(clean, 0.99), "ms"),
        ("round trip with 1% of bytes corrupted, median", statistics.median(noisy), "ms"),
        ("round trip with 1% of bytes corrupted, p99", _percentile(noisy, 0.99), "ms"),
        ("true key at the session -> first servo PWM change, median",
         statistics.median(keys), "ms"),
        ("true key at the session -> first servo PWM change, p99",
         _percentile(keys, 0.99), "ms"),
    ] + pico
