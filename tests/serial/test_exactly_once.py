"""The heart of the Pico link: with 1% of the bytes on the line dropped or bit-flipped and the USB
cable pulled once at a random moment, a long run of commands ends with every command executed
exactly once, and the latch never moved by a command the host did not send."""

from __future__ import annotations

import random
import threading
import time

import pytest

from tabletap.firmware import servo
from tabletap.hw.serial_link import BoardLink
from tabletap.sim.board import SimBoard

CONFIG = {"min_us": 500, "max_us": 2500, "min_angle": -90, "max_angle": 90, "open_angle": 60,
          "closed_angle": -30, "travel_s": 0.2,
          "host_timeout": 10.0}  # the safe state (tested elsewhere) must not join in here


def duty_at(angle: float) -> int:
    us = 500 + (angle + 90) / 180 * 2000
    return servo.duty_u16(us)


def command_stream(rng: random.Random, n: int) -> list[dict]:
    bodies = []
    for _ in range(n):
        if rng.random() < 0.6:
            bodies.append({"op": "latch", "open": rng.random() < 0.5})
        else:
            bodies.append({"op": "show", "pattern": rng.choice(["turn", "accepted", "rejected",
                                                                "win", "pending"]),
                           "colour": rng.choice([None, "blue", "red", "gold"])})
    return bodies


@pytest.mark.parametrize("seed", [3, 11])
def test_every_command_once_despite_noise_and_an_unplug(seed: int) -> None:
    rng = random.Random(seed)
    board = SimBoard(seed=seed, corrupt=0.01).start()
    link = BoardLink(board.port, board_config=CONFIG, retry=0.004, backoff=(0.02, 0.2),
                     host_timeout=10.0).start()
    try:
        link.wait_hello(5)
        bodies = command_stream(rng, 200)

        def pull_the_cable() -> None:
            board.unplug()
            time.sleep(rng.uniform(0.05, 0.3))  # how long the cable stays out
            board.replug()

        unplug = threading.Timer(rng.uniform(0.1, 0.6), pull_the_cable)
        unplug.start()
        tickets = [link.submit(b) for b in bodies]
        assert link.wait_idle(30), "the link did not finish the run"
        unplug.join()
        assert link.wait_idle(5)
        last_latch = [b["open"] for b in bodies if b["op"] == "latch"][-1]
        final = duty_at(60) if last_latch else duty_at(-30)
        assert board.recorder.wait_for(lambda: board.recorder.duty(16) == final, 2)
    finally:
        link.close()
        board.close()
    assert board.error is None

    # The faults really happened.
    assert board.line.stats.dropped > 20 and board.line.stats.flipped > 20
    assert link.stats["connects"] >= 2, "the unplug did not make the host reconnect"
    assert link.stats["resent"] > 0

    # Exactly once, in order, and exactly what the host sent.
    assert len(board.boots) == 1
    executed = board.recorder.executed
    sent = {t.seq: t.body for t in tickets}
    seqs = [e.seq for e in executed]
    assert len(seqs) == len(set(seqs)), "a command ran twice"
    assert seqs == sorted(seqs)
    assert all(t.ok and not t.superseded for t in tickets)
    assert set(sent) <= set(seqs)
    for e in executed:
        body = {k: v for k, v in e.body.items() if k not in ("h", "b")}
        if e.seq in sent:
            assert body == sent[e.seq]
        else:
            assert body["op"] == "cfg"  # the one command the link adds itself, after hello
    assert [e.seq for e in executed if e.seq in sent] == [t.seq for t in tickets]

    # The latch moved only toward what the last executed latch command asked for.
    latch_cmds = [(e.t, e.body["open"]) for e in executed if e.body.get("op") == "latch"]
    closed, opened = duty_at(-30), duty_at(60)
    previous = None
    for t, _pin, duty in board.recorder.pwm:
        assert closed <= duty <= opened
        asked = [o for (tc, o) in latch_cmds if tc <= t]
        target = opened if (asked and asked[-1]) else closed
        if previous is not None and duty != previous:
            assert (duty - previous) * (target - previous) > 0, "the servo moved unasked"
        previous = duty
