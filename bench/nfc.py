"""NFC path figures: the real adafruit driver and tabletap's reader adapter over the emulated PN532
with 115200-baud wire timing and the chip timing of sim/pn532/timing.yaml.

"wall" figures run on the system clock: the emulated port really waits for every byte, so they
include Python's own cost. "sim" figures run the identical code on virtual time, which makes long
soak runs and thousands of trials affordable; they show the timing model without Python's cost.
The loop is the daemon's: poll, then sleep `poll.period` (0.1 s), with its supervision and
presence tracking (sim.pn532.soak.PollLoop). Run: `make bench` or `python -m bench nfc`.
"""

from __future__ import annotations

import logging
import random
import statistics
import threading
import time
from typing import Any

from tabletap.controller.clock import SystemClock
from tabletap.controller.config import ReaderConfig
from tabletap.controller.identity import encode_piece
from tabletap.controller.ports import Clock
from tabletap.sim.clock import VirtualClock
from tabletap.sim.pn532.backend import build_reader
from tabletap.sim.pn532.faults import FaultPlan
from tabletap.sim.pn532.soak import PollLoop
from tabletap.sim.world import SimTag, SimWorld, uid_for

PERIOD = 0.1
PIECE = "magic-keys/key/gold"


# Waiting for taps (docs/nfc.md): readers.*.arm and poll.resting_period as measured below.
ARM = PERIOD
RESTING = 0.03


def _table(
    clock: Clock, faults: FaultPlan | None = None, recheck: bool = True, relists: int = 2,
    waiting: bool = False,
) -> tuple[SimWorld, PollLoop]:
    world = SimWorld(clock=clock)  # type: ignore[arg-type]
    context: dict[str, Any] = {"world": world, "clock": clock, "faults": {}}
    if faults is not None:
        context["faults"]["chest"] = faults
    config = ReaderConfig(baud=115200, arm=ARM if waiting else 0.0)
    reader = build_reader("chest", config, context)
    reader.recheck = recheck
    reader.relists = relists
    if waiting:
        return world, PollLoop(reader, clock, period=PERIOD, resting_period=RESTING,
                               run_loop=True)
    return world, PollLoop(reader, clock, period=PERIOD)


def _at(clock: Clock, when: float, action: Any) -> None:
    """Do `action` at `when` while the loop runs: scheduled on virtual time, a timer thread on
    the wall clock (the emulated chip notices within ARMED_STEP)."""
    if isinstance(clock, VirtualClock):
        clock.call_at(when, action)
    else:
        threading.Timer(max(0.0, when - clock.now()), action).start()


def waiting_latencies(
    clock: Clock, trials: int, seed: int, fresh: bool, faults: FaultPlan | None = None
) -> tuple[list[float], list[float]]:
    """Tap-to-event and lift-to-event seconds with the reader waiting for taps: each tap and
    lift happens at a random moment of the running loop (during a poll's wait, too)."""
    rng = random.Random(seed)
    world, loop = _table(clock, faults, waiting=True)
    taps: list[float] = []
    lifts: list[float] = []
    for _ in range(3):  # an empty field for a few polls: the reader waits from then on
        loop.tick()
    for trial in range(trials):
        tag = SimTag(uid=uid_for(f"fresh:{trial}" if fresh else PIECE), ndef=encode_piece(PIECE),
                     piece=PIECE)
        for kind, out in (("placed", taps), ("removed", lifts)):
            t_act = clock.now() + rng.random() * PERIOD
            if kind == "placed":
                _at(clock, t_act, lambda t=tag: world.place("chest", t))
            else:
                _at(clock, t_act, lambda t=tag: world.remove("chest", t.uid))
            # with faults, a reader that goes missing is retried with a growing backoff
            limit = 60 if faults is not None else 5
            at = loop.run_until(lambda evs, k=kind: any(e.kind == k for e in evs), limit=limit)
            if at is None:
                raise RuntimeError(f"no {kind} event within {limit} s")
            out.append(at - t_act)
        clock.sleep(rng.random() * PERIOD)
    return taps, lifts


def poll_durations(clock: Clock, polls: int, tags: int) -> float:
    """Mean seconds one poll takes with `tags` tags resting on the reader."""
    world, loop = _table(clock)
    for i in range(tags):
        world.place("chest", SimTag.for_piece(f"magic-keys/key/purple/{i + 1}"))
    loop.supervised.poll(clock.now())  # first contact and the NDEF reads are not idle polling
    t0 = clock.now()
    for _ in range(polls):
        loop.supervised.poll(clock.now())
    return (clock.now() - t0) / polls


def latencies(
    clock: Clock, trials: int, seed: int, faults: FaultPlan | None = None, fresh: bool = False
) -> tuple[list[float], list[float]]:
    """Tap-to-event and lift-to-event seconds, the tag placed and lifted at random phases.
    `fresh`: every tap is a tag the reader has never seen (its NDEF must be read), else the
    same tag again (its NDEF cached by UID)."""
    rng = random.Random(seed)
    world, loop = _table(clock, faults)
    tag = SimTag.for_piece(PIECE)
    taps: list[float] = []
    lifts: list[float] = []
    loop.tick()
    for trial in range(trials):
        if fresh:
            tag = SimTag(uid=uid_for(f"fresh:{trial}"), ndef=encode_piece(PIECE), piece=PIECE)
        for kind, out in (("placed", taps), ("removed", lifts)):
            offset = rng.random() * PERIOD
            clock.sleep(offset)  # the loop sleeps one period after each poll; act inside it
            t_act = clock.now()
            if kind == "placed":
                world.place("chest", tag)
            else:
                world.remove("chest", tag.uid)
            clock.sleep(PERIOD - offset)
            at = loop.run_until(lambda evs, k=kind: any(e.kind == k for e in evs), limit=5)
            if at is None:
                raise RuntimeError(f"no {kind} event within 5 s")
            out.append(at - t_act)
    return taps, lifts


def phantoms(
    runs: int, rate: float, recheck: bool = True, kinds: tuple[str, ...] | None = None,
    relists: int = 2, waiting: bool = False,
) -> tuple[float, dict[str, int], float]:
    """Removals of a resting tag per 10 simulated minutes with `rate` of polls faulted; the
    faults injected; reader-missing episodes per 10 minutes."""
    removed, injected, outages = 0, {}, 0
    for seed in range(runs):
        clock = VirtualClock()
        faults = FaultPlan(rate=rate, seed=seed)
        if kinds:
            faults = FaultPlan(rate=rate, seed=seed, kinds=kinds)  # type: ignore[arg-type]
        world, loop = _table(clock, faults, recheck, relists, waiting)
        world.place("chest", SimTag.for_piece(PIECE))
        episodes, was_missing = 0, False
        end = clock.now() + 600
        while clock.now() < end:
            loop.tick()
            missing = loop.supervised.missing
            episodes += missing and not was_missing
            was_missing = missing
        outages += episodes
        removed += loop.count("removed")
        for k, v in faults.injected.items():
            injected[k] = injected.get(k, 0) + v
    return removed / runs, injected, outages / runs


def cpu_per_minute(clock: Clock, seconds: float, tags: int, waiting: bool = False) -> float:
    """CPU seconds per minute of idle polling (empty field or resting tags)."""
    world, loop = _table(clock, waiting=waiting)
    for i in range(tags):
        world.place("chest", SimTag.for_piece(f"magic-keys/key/blue/{i + 1}"))
    loop.tick()
    c0, t0 = time.process_time(), clock.now()
    loop.run_for(seconds)
    return (time.process_time() - c0) / (clock.now() - t0) * 60


def cpu_three_readers(clock: Clock, seconds: float, waiting: bool) -> float:
    """CPU share of one core (%) for three readers with empty fields, polled one after the
    other each pass as the daemon does (waiting: each waits a third of the period)."""
    world = SimWorld(clock=clock)  # type: ignore[arg-type]
    context: dict[str, Any] = {"world": world, "clock": clock, "faults": {}}
    arm = PERIOD / 3 if waiting else 0.0
    loops = [PollLoop(build_reader(name, ReaderConfig(baud=115200, arm=arm), context), clock,
                      period=PERIOD) for name in ("chest", "pond", "board")]
    end = clock.now() + seconds
    c0, t0 = time.process_time(), clock.now()
    while clock.now() < end:
        started = clock.now()
        for loop in loops:
            loop.supervised.poll(clock.now())
        clock.sleep(PERIOD - (clock.now() - started))
    return (time.process_time() - c0) / (clock.now() - t0) * 100


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run() -> list[tuple]:
    logging.getLogger("tabletap.daemon").setLevel(logging.CRITICAL)  # outages are counted below
    wall = SystemClock()
    out: list[tuple[str, float, str]] = [
        ("poll.miss_threshold (the config default)", PollLoop.miss_threshold, "misses")
    ]
    for tags in (0, 1, 2):
        d = poll_durations(wall, 200, tags)
        out.append((f"poll duration, {tags} tag(s) resting (wall)", d * 1000, "ms"))
    period = PERIOD + poll_durations(wall, 50, 1)
    out.append(("poll period at poll.period 0.1, 1 tag (wall)", period * 1000, "ms"))
    sim_period = PERIOD + poll_durations(VirtualClock(), 50, 1)
    out.append(("poll period at poll.period 0.1, 1 tag (sim)", sim_period * 1000, "ms"))
    taps, lifts = latencies(wall, 40, seed=1)
    out += [
        ("tap-to-event median (wall, 40 trials)", statistics.median(taps) * 1000, "ms"),
        ("tap-to-event p99 (wall, 40 trials)", pct(taps, 0.99) * 1000, "ms"),
        ("lift-to-event median (wall, 40 trials)", statistics.median(lifts) * 1000, "ms"),
        ("lift-to-event p99 (wall, 40 trials)", pct(lifts, 0.99) * 1000, "ms"),
        ("lifts later than 3 poll periods (wall, 40 trials)",
         sum(x > 3 * period for x in lifts), "lifts"),
    ]
    taps, _ = latencies(VirtualClock(), 2000, seed=4, fresh=True)
    out += [
        ("tap-to-event median, a tag never seen (sim, 2000 trials)",
         statistics.median(taps) * 1000, "ms"),
        ("tap-to-event p99, a tag never seen (sim, 2000 trials)", pct(taps, 0.99) * 1000, "ms"),
    ]
    taps, lifts = latencies(VirtualClock(), 2000, seed=2)
    out += [
        ("tap-to-event median (sim, 2000 trials)", statistics.median(taps) * 1000, "ms"),
        ("tap-to-event p99 (sim, 2000 trials)", pct(taps, 0.99) * 1000, "ms"),
        ("lift-to-event median (sim, 2000 trials)", statistics.median(lifts) * 1000, "ms"),
        ("lift-to-event p99 (sim, 2000 trials)", pct(lifts, 0.99) * 1000, "ms"),
        ("lift-to-event max (sim, 2000 trials)", max(lifts) * 1000, "ms"),
        ("lifts later than 3 poll periods (sim, 2000 trials)",
         sum(x > 3 * sim_period for x in lifts), "lifts"),
    ]
    _, lifts = latencies(VirtualClock(), 2000, seed=3, faults=FaultPlan(rate=0.05, seed=3))
    out += [
        ("lift-to-event median at 5% faults (sim, 2000 trials)",
         statistics.median(lifts) * 1000, "ms"),
        ("lift-to-event p90 at 5% faults (sim, 2000 trials)", pct(lifts, 0.9) * 1000, "ms"),
        ("lift-to-event p99 at 5% faults (sim, 2000 trials)", pct(lifts, 0.99) * 1000, "ms"),
        ("lift-to-event max at 5% faults (sim, 2000 trials)", max(lifts) * 1000, "ms"),
        ("lifts later than 3 poll periods at 5% faults (sim, 2000 trials)",
         100 * sum(x > 3 * sim_period for x in lifts) / len(lifts), "%"),
    ]
    runs = 20
    per10, injected, outages = phantoms(runs, 0.05)
    out.append((f"phantom removals per 10 min at 5% faults (sim, {runs} runs)", per10, "removals"))
    out.append(("faults injected per 10 min in those runs (sim)",
                sum(injected.values()) / runs, "faults"))
    out.append(("reader-missing episodes per 10 min in those runs (sim)", outages, "episodes"))
    per10, _, _ = phantoms(5, 0.20)
    out.append(("phantom removals per 10 min at 20% faults (sim, 5 runs)", per10, "removals"))
    per10, _, _ = phantoms(5, 0.05, kinds=("fade",))
    out.append(("same, 5% of polls all clean misses (fade) (sim, 5 runs)", per10, "removals"))
    per10, _, _ = phantoms(100, 0.05, kinds=("fade",))
    out.append(("same, 100 runs (sim)", per10, "removals"))
    per10, _, _ = phantoms(5, 0.20, kinds=("fade",))
    out.append(("same, 20% of polls all clean misses (fade) (sim, 5 runs)", per10, "removals"))
    per10, _, _ = phantoms(100, 0.05, kinds=("fade",), relists=1)
    out.append(("same at 5%, one extra listing instead of two (sim, 100 runs)", per10,
                "removals"))
    per10, _, _ = phantoms(5, 0.20, kinds=("fade",), relists=1)
    out.append(("same at 20%, one extra listing instead of two (sim, 5 runs)", per10, "removals"))
    per10, _, _ = phantoms(5, 0.05, recheck=False, kinds=("fade",))
    out.append(("same at 5%, without the extra listings (sim, 5 runs)", per10, "removals"))
    idle = cpu_per_minute(wall, 10, 0)
    out.append(("CPU per minute of idle polling, empty field (wall, 10 s)", idle, "cpu-s"))
    out.append(("  the same as a share of one core", idle / 60 * 100, "%"))
    out.append(("CPU per minute of idle polling, 1 tag resting (wall, 10 s)",
                cpu_per_minute(wall, 10, 1), "cpu-s"))
    out.append(("CPU per simulated minute of idle polling, empty field (sim)",
                cpu_per_minute(VirtualClock(), 60, 0), "cpu-s"))
    out.append(("CPU per simulated minute of idle polling, 1 tag resting (sim)",
                cpu_per_minute(VirtualClock(), 60, 1), "cpu-s"))
    return out + waiting_figures(wall)


def waiting_figures(wall: Clock) -> list[tuple]:
    """The reader waiting for taps (readers.*.arm 0.1 s, poll.resting_period 0.03 s, the loop
    of `tabletap run`): the figures bench.json keeps."""
    out: list[tuple] = [("-- waiting for taps: arm, resting_period (s)", ARM, "s"),
                        ("   resting_period", RESTING, "s")]
    for fresh, label, key in ((True, "a tag never seen", "tap_first"),
                              (False, "the same tag again", "tap_again")):
        taps, lifts = waiting_latencies(VirtualClock(), 2000, seed=5, fresh=fresh)
        out += [
            (f"tap-to-event median, {label} (sim, 2000 trials)",
             statistics.median(taps) * 1000, "ms", f"{key}_p50_ms"),
            (f"tap-to-event p99, {label} (sim, 2000 trials)", pct(taps, 0.99) * 1000, "ms",
             f"{key}_p99_ms"),
        ]
    out += [
        ("lift-to-event median (sim, 2000 trials)", statistics.median(lifts) * 1000, "ms",
         "lift_p50_ms"),
        ("lift-to-event p99 (sim, 2000 trials)", pct(lifts, 0.99) * 1000, "ms", "lift_p99_ms"),
    ]
    taps, lifts = waiting_latencies(wall, 30, seed=6, fresh=True)
    out += [
        ("tap-to-event median / p99, a tag never seen (wall, 30 trials)",
         statistics.median(taps) * 1000, "ms"),
        ("   p99", pct(taps, 0.99) * 1000, "ms"),
        ("lift-to-event median (wall, 30 trials)", statistics.median(lifts) * 1000, "ms"),
        ("   p99", pct(lifts, 0.99) * 1000, "ms"),
    ]
    _, lifts = waiting_latencies(VirtualClock(), 2000, seed=7, fresh=False,
                                 faults=FaultPlan(rate=0.05, seed=7))
    out += [("lift-to-event median at 5% faults (sim, 2000 trials)",
             statistics.median(lifts) * 1000, "ms"), ("   p99", pct(lifts, 0.99) * 1000, "ms"),
            ("   max (a reader missing, retried with backoff)", max(lifts) * 1000, "ms")]
    runs = 10
    per10, injected, outages = phantoms(runs, 0.05, waiting=True)
    out += [
        (f"phantom removals per 10 min at 5% faults (sim, {runs} runs)", per10, "removals",
         "phantom_removals_per_10min_at_5pct"),
        ("faults injected per 10 min in those runs (sim)", sum(injected.values()) / runs,
         "faults"),
        ("reader-missing episodes per 10 min in those runs (sim)", outages, "episodes"),
    ]
    per10, _, _ = phantoms(20, 0.05, kinds=("fade",), waiting=True)
    out.append(("same, 5% of polls all clean misses (fade) (sim, 20 runs)", per10, "removals"))
    idle = cpu_per_minute(wall, 10, 0, waiting=True)
    out += [
        ("CPU per minute, empty field (wall, 10 s, emulator included)", idle, "cpu-s"),
        ("   as a share of one core", idle / 60 * 100, "%", "idle_cpu_percent"),
        ("CPU per minute, 1 tag resting (wall, 10 s, emulator included)",
         cpu_per_minute(wall, 10, 1, waiting=True), "cpu-s"),
        ("CPU, three readers, empty fields, polling every 0.1 s (wall, 10 s)",
         cpu_three_readers(wall, 10, waiting=False), "%", "idle_cpu_percent_three_readers"),
        ("CPU, three readers, empty fields, each waiting a third (wall, 10 s)",
         cpu_three_readers(wall, 10, waiting=True), "%"),
    ]
    return out
