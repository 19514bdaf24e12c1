"""Taps and lifts at the real daemon, on the wall clock (rig.py).

A trial puts a tag in the emulated field at a random moment and stamps it; the figures are the
moments the simulated board executed the chest's latch command and the lights' next frame, and
the daemon's log line for the lift (`reader chest: ... lifted`, written as the removal event is
handled). "First" taps are tags the reader has never seen (a fresh UID: its NDEF is read);
"again" the same tag each time from its second placement on (its NDEF cached by UID; its first
placement is a first tap and counted as one). The demo's golden key is accepted and
opens the chest each time; when a game is won, a new one is started through the control socket
and the trial taken again.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from bench.live.procstat import cpu_s, cpu_split_s
from bench.live.rig import Rig
from tabletap.controller.table.identity import encode_piece
from tabletap.sim.world import SimTag, uid_for

ANSWER_TIMEOUT = 5.0


@dataclass
class Figures:
    first_chest: list[float] = field(default_factory=list)
    first_lights: list[float] = field(default_factory=list)
    again_chest: list[float] = field(default_factory=list)
    again_lights: list[float] = field(default_factory=list)
    lift: list[float] = field(default_factory=list)
    seen: list[float] = field(default_factory=list)  # tap -> the daemon's `placed` log line
    # each accepted tap's (a first tap?, the moment the tag entered, the chest executed), on
    # the monotonic clock the daemon's own stamps share (timeline.py)
    taps: list[tuple[bool, float, float]] = field(default_factory=list)
    accepted: int = 0
    cpu_s: float = 0.0
    sys_s: float = 0.0  # of cpu_s, the kernel's (system time)
    wall_s: float = 0.0  # the run's wall-clock time, over which cpu_s was spent
    new_games: int = 0


def _latch_open(body: dict) -> bool:
    return body.get("op") == "latch" and body.get("open") is True


def _frame(body: dict) -> bool:
    return body.get("op") == "show"


def _refused(body: dict) -> bool:
    """The lights' answer to a refused tap (the game was won: the next trial starts one)."""
    return body.get("op") == "show" and body.get("pattern") == "rejected"


def _new_game(rig: Rig) -> None:
    rig.ask({"new": {"game": rig.spec.name, "players": list(rig.demo.players),
                     "options": dict(rig.demo.options)}})


def rest_a_piece(rig: Rig) -> SimTag:
    """Put the demo's piece, on a tag of its own, on the reader and leave it there (a key a
    child forgot on the chest); return once the daemon's answer (the chest's opening and
    relock, the lights) has played out, the board quiet for a second."""
    piece = rig.demo.again
    tag = SimTag(uid=uid_for("bench:resting"), ndef=encode_piece(piece), piece=piece)
    rig.place(tag)
    rig.wait_settled(quiet=1.0, limit=30)
    return tag


def resting_cpu(rig: Rig, seconds: float) -> float:
    """Share of a core (%) the daemon uses while one piece rests on the reader
    (`rest_a_piece`), over `seconds`; the piece is lifted after, and its lift seen, so that the
    table is empty again for whatever the bench does next. A resting piece is polled every
    `resting_period` so that its lift is seen in time, so this is more than the empty table's
    rate (`idle_cpu`).

    Timed to the nanosecond (`cpu_s`), not in 10 ms clock ticks: the daemon rests at about
    0.4 % of a core, 8 ms in two seconds, which the ticks often counted as none (a test's
    failure in CI)."""
    tag = rest_a_piece(rig)
    try:
        d0, t0 = cpu_s(rig.pid), time.monotonic()
        time.sleep(seconds)
        return (cpu_s(rig.pid) - d0) / (time.monotonic() - t0) * 100
    finally:
        lifted = rig.lift(tag)
        assert rig.log is not None
        rig.log.wait_for(" lifted", lifted, ANSWER_TIMEOUT)
        rig.wait_settled()


def run_trials(rig: Rig, trials: int, seed: int = 1) -> Figures:
    """`trials` first taps and `trials` taps again, interleaved, each followed by a lift."""
    rng = random.Random(seed)
    piece = rig.demo.again
    again = SimTag(uid=uid_for("bench:again"), ndef=encode_piece(piece), piece=piece)
    out = Figures()
    (_, sys0), cpu0, wall0 = cpu_split_s(rig.pid), cpu_s(rig.pid), time.monotonic()
    n = 0
    # The again tag's first placement is a first tap (the reader has never seen it, so it reads
    # its NDEF): measured as one, or "again" would hold one first tap a run.
    again_seen = False
    while len(out.first_chest) < trials or len(out.again_chest) < trials:
        fresh = len(out.first_chest) <= len(out.again_chest)
        tag = SimTag(uid=uid_for(f"bench:first:{n}"), ndef=encode_piece(piece), piece=piece) \
            if fresh else again
        n += 1
        first_time = fresh or not again_seen
        time.sleep(rng.random() * 0.05)  # anywhere in the daemon's wait
        t0 = rig.place(tag)
        again_seen = again_seen or not fresh
        lights = rig.executed(t0, _frame, ANSWER_TIMEOUT)
        refused = rig.executed(t0, _refused, 0.0) is not None
        chest = None if refused else rig.executed(t0, _latch_open, ANSWER_TIMEOUT)
        assert rig.log is not None
        seen = rig.log.wait_for(" placed", t0, 0.0 if chest else 0.5)
        time.sleep(0.05 + rng.random() * 0.05)
        t1 = rig.lift(tag)
        assert rig.log is not None
        lifted = rig.log.wait_for(" lifted", t1, ANSWER_TIMEOUT)
        if lifted is not None:
            out.lift.append(lifted - t1)
        if chest is None or lights is None:
            _new_game(rig)  # refused while the game goes on: then it was something else
            out.new_games += 1
            rig.wait_settled()
            continue
        out.accepted += 1
        if seen is not None:
            out.seen.append(seen - t0)
        (out.first_chest if first_time else out.again_chest).append(chest - t0)
        out.taps.append((first_time, t0, chest))
        (out.first_lights if first_time else out.again_lights).append(lights - t0)
        rig.wait_settled(quiet=0.25)
    # the whole to the nanosecond (cpu_s); the kernel's share of it in 10 ms ticks (cpu_split_s)
    (_, sys1), cpu1 = cpu_split_s(rig.pid), cpu_s(rig.pid)
    out.cpu_s, out.sys_s = cpu1 - cpu0, sys1 - sys0
    out.wall_s = time.monotonic() - wall0
    return out


def idle_cpu(rig: Rig, seconds: float) -> tuple[float, float]:
    """Share of a core (%) the idle daemon and the PN532 emulator's thread use, apart."""
    from bench.live.procstat import thread_cpu_s

    rig.wait_settled()
    tid = rig.pty.thread_id
    d0, e0 = cpu_s(rig.pid), thread_cpu_s(tid) if tid else 0.0
    t0 = time.monotonic()
    time.sleep(seconds)
    wall = time.monotonic() - t0
    d1, e1 = cpu_s(rig.pid), thread_cpu_s(tid) if tid else 0.0
    return (d1 - d0) / wall * 100, (e1 - e0) / wall * 100
