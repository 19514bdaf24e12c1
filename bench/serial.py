"""The Pico link over a pseudo-terminal: command round trips and key-to-servo latency.

Both run the firmware's own code in the simulated board and real pyserial on the host, so they
measure this code's overhead (framing, CRC, threads, the pty), not USB's.
"""

from __future__ import annotations

import statistics
import tempfile
import time

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


def run() -> list[tuple[str, float, str]]:
    clean = round_trips(0.0)
    noisy = round_trips(0.01)
    keys = key_to_servo()
    return [
        ("command round trip host->board->ack, median", statistics.median(clean), "ms"),
        ("command round trip host->board->ack, p99", _percentile(clean, 0.99), "ms"),
        ("round trip with 1% of bytes corrupted, median", statistics.median(noisy), "ms"),
        ("round trip with 1% of bytes corrupted, p99", _percentile(noisy, 0.99), "ms"),
        ("true key at the session -> first servo PWM change, median",
         statistics.median(keys), "ms"),
        ("true key at the session -> first servo PWM change, p99",
         _percentile(keys, 0.99), "ms"),
    ]
