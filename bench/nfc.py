"""NFC path figures: the real adafruit driver and tabletap's reader adapter over the emulated PN532
with 115200-baud wire timing and the chip timing of sim/pn532/timing.yaml.

"wall" figures run on the system clock: the emulated port really waits for every byte, so they
include Python's own cost. "sim" figures run the identical code on virtual time, which makes long
soak runs and thousands of trials affordable; they show the timing model without Python's cost.
The loop is the daemon's, with the shipped defaults (ReaderConfig, PollConfig): every empty
reader waits for a tap with an armed listing and the loop waits on all of them at once; a
resting piece is polled every `poll.resting_period`, a miss confirmed after
`poll.confirm_period` (sim.pn532.soak.PollLoop). The old polling loop is measured alongside.
Run: `make bench` or `python -m bench nfc`.
"""

from __future__ import annotations

import logging
import random
import statistics
import threading
import time
from typing import Any

from tabletap.controller.clock import SystemClock
from tabletap.controller.ports import Clock
from tabletap.controller.settings.config import PollConfig, ReaderConfig
from tabletap.controller.table.identity import encode_piece
from tabletap.sim.clock import VirtualClock
from tabletap.sim.pn532.backend import build_reader
from tabletap.sim.pn532.faults import FaultPlan
from tabletap.sim.pn532.soak import PollLoop
from tabletap.sim.world import SimTag, SimWorld, uid_for

PERIOD = 0.1
PIECE = "bench/tag/gold"  # any id: the reader does not care which game a tag is of

# The old default, kept for comparison: every reader polled every poll.period, no waiting for a
# tap, no quicker polls while a piece rests or a miss wants confirming.
POLLING = {"arm": 0.0, "resting_period": None, "confirm_period": None}


def _table(
    clock: Clock, faults: FaultPlan | None = None, recheck: bool = True, relists: int = 2,
    polling: bool = False, readers: tuple[str, ...] = ("chest",), passive_retries: int = 1,
) -> tuple[SimWorld, PollLoop]:
    """A world and the daemon's loop over `readers`, with the shipped defaults (ReaderConfig,
    PollConfig) unless `polling` asks for the old polling loop."""
    world = SimWorld(clock=clock)  # type: ignore[arg-type]
    context: dict[str, Any] = {"world": world, "clock": clock, "faults": {}}
    if faults is not None:
        context["faults"]["chest"] = faults
    built = []
    for name in readers:
        config = ReaderConfig(baud=115200, arm=POLLING["arm"]) if polling else \
            ReaderConfig(baud=115200)
        reader = build_reader(name, config, context)
        reader.recheck = recheck
        reader.relists = relists
        reader.passive_retries = passive_retries
        built.append(reader)
    pauses = {k: v for k, v in POLLING.items() if k != "arm"} if polling else {}
    return world, PollLoop(built[0], clock, period=PERIOD, more=built[1:], **pauses)


def _at(clock: Clock, when: float, action: Any) -> None:
    """Do `action` at `when` while the loop runs: scheduled on virtual time, a timer thread on
    the wall clock (the emulated chip's waiting port wakes on the world's `changed` event)."""
    if isinstance(clock, VirtualClock):
        clock.call_at(when, action)
    else:
        threading.Timer(max(0.0, when - clock.now()), action).start()


def latencies(
    clock: Clock, trials: int, seed: int, fresh: bool = False, faults: FaultPlan | None = None,
    polling: bool = False,
) -> tuple[list[float], list[float]]:
    """Tap-to-event and lift-to-event seconds: each tap and lift happens at a random moment of
    the running loop (during a poll or its pause alike). `fresh`: every tap is a tag the reader
    has never seen (its NDEF must be read), else the same tag again (its NDEF cached by UID)."""
    rng = random.Random(seed)
    world, loop = _table(clock, faults, polling=polling)
    taps: list[float] = []
    lifts: list[float] = []
    for _ in range(3):  # an empty field for a few passes: a waiting reader waits from then on
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
    """Mean seconds one poll takes with `tags` tags resting on the reader (polling: a waiting
    reader's poll of an empty field costs nothing)."""
    world, loop = _table(clock, polling=True)
    for i in range(tags):
        world.place("chest", SimTag.for_piece(f"bench/tag/{i + 1}"))
    loop.supervised.poll(clock.now())  # first contact and the NDEF reads are not idle polling
    t0 = clock.now()
    for _ in range(polls):
        loop.supervised.poll(clock.now())
    return (clock.now() - t0) / polls


def phantoms(
    runs: int, rate: float, recheck: bool = True, kinds: tuple[str, ...] | None = None,
    relists: int = 2, polling: bool = False, passive_retries: int = 1,
    per_activation: bool = False,
) -> tuple[float, dict[str, int], float]:
    """Removals of a resting tag per 10 simulated minutes with `rate` of polls faulted (or,
    `per_activation`, each activation missing the tag on its own with probability `rate`:
    FaultPlan.activation_fade); the faults injected; reader-missing episodes per 10 minutes."""
    removed, injected, outages = 0, {}, 0
    for seed in range(runs):
        clock = VirtualClock()
        faults = FaultPlan(rate=rate, seed=seed)
        if kinds:
            faults = FaultPlan(rate=rate, seed=seed, kinds=kinds)  # type: ignore[arg-type]
        if per_activation:
            faults = FaultPlan(activation_fade=rate, seed=seed)
        world, loop = _table(clock, faults, recheck, relists, polling,
                             passive_retries=passive_retries)
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


def cpu_share(clock: Clock, seconds: float, tags: int, readers: int = 1,
              polling: bool = False) -> float:
    """CPU seconds per minute of idle play (empty fields, or `tags` resting on the first
    reader), the emulator included, on the daemon's loop over `readers` readers."""
    names = ("chest", "pond", "board")[:readers]
    world, loop = _table(clock, polling=polling, readers=names)
    for i in range(tags):
        world.place("chest", SimTag.for_piece(f"bench/tag/other/{i + 1}"))
    loop.run_for(1)  # first contact, the reads, and the readers settle (waiting or polling)
    c0, t0 = time.process_time(), clock.now()
    loop.run_for(seconds)
    return (time.process_time() - c0) / (clock.now() - t0) * 60


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _lat(label: str, values: list[float], key: str | None = None) -> list[tuple]:
    p50 = (label + " median", statistics.median(values) * 1000, "ms")
    p99 = (label + " p99", pct(values, 0.99) * 1000, "ms")
    if key is None:
        return [p50, p99]
    return [(*p50, f"{key}_p50_ms"), (*p99, f"{key}_p99_ms")]


def run() -> list[tuple]:
    logging.getLogger("tabletap.daemon").setLevel(logging.CRITICAL)  # outages are counted below
    wall = SystemClock()
    poll = PollConfig()
    out: list[tuple] = [
        ("-- the shipped defaults: poll.period (s)", poll.period, "s"),
        ("   poll.resting_period", poll.resting_period or 0.0, "s"),
        ("   poll.confirm_period", poll.confirm_period or 0.0, "s"),
        ("   poll.miss_threshold", poll.miss_threshold, "misses"),
        ("   readers.*.arm (renewal of an armed listing)", ReaderConfig().arm, "s"),
    ]
    for tags in (0, 1, 2):
        d = poll_durations(wall, 200, tags)
        out.append((f"poll duration, {tags} tag(s) resting (wall)", d * 1000, "ms"))
    trials = 2000
    for fresh, label, key in ((True, "a tag never seen", "tap_first"),
                              (False, "the same tag again", "tap_again")):
        taps, lifts = latencies(VirtualClock(), trials, seed=5, fresh=fresh)
        out += _lat(f"model: tap-to-event, {label} (virtual time, {trials} trials),", taps,
                    key)
    out += _lat(f"model: lift-to-event (virtual time, {trials} trials),", lifts, "lift")
    out.append((f"lift-to-event max (sim, {trials} trials)", max(lifts) * 1000, "ms"))
    taps, lifts = latencies(wall, 30, seed=6, fresh=True)
    out += _lat("tap-to-event, a tag never seen (wall, 30 trials),", taps)
    out += _lat("lift-to-event (wall, 30 trials),", lifts)
    _, lifts = latencies(VirtualClock(), trials, seed=7, faults=FaultPlan(rate=0.05, seed=7))
    out += _lat(f"lift-to-event at 5% faults (sim, {trials} trials),", lifts)
    out += [("lift-to-event p90 at 5% faults", pct(lifts, 0.9) * 1000, "ms"),
            ("lift-to-event max at 5% faults", max(lifts) * 1000, "ms")]
    runs = 20
    per10, injected, outages = phantoms(runs, 0.05)
    out += [
        (f"phantom removals per 10 min at 5% faults (sim, {runs} runs)", per10, "removals",
         "phantom_removals_per_10min_at_5pct"),
        ("faults injected per 10 min in those runs (sim)", sum(injected.values()) / runs,
         "faults"),
        ("reader-missing episodes per 10 min in those runs (sim)", outages, "episodes"),
    ]
    per10, _, _ = phantoms(5, 0.20)
    out.append(("phantom removals per 10 min at 20% faults (sim, 5 runs)", per10, "removals"))
    per10, _, _ = phantoms(20, 0.05, kinds=("fade",))
    out.append(("same, 5% of polls all clean misses (fade) (sim, 20 runs)", per10, "removals"))
    per10, _, _ = phantoms(5, 0.20, kinds=("fade",))
    out.append(("same, 20% of polls all clean misses (fade) (sim, 5 runs)", per10, "removals"))
    # The chip's own retries in place of the re-listings (tabletap tags misses asks a real
    # reader which model holds): one listing of six activations, under each model of a miss.
    chip = {"relists": 0, "passive_retries": 5}
    per10, _, _ = phantoms(20, 0.05, kinds=("fade",), **chip)
    out.append(("same, 5% fade, the chip's 6 activations instead of re-listings (sim, 20 runs)",
                per10, "removals"))
    for label, ways in (("shipped defaults", {}), ("the chip's 6 activations", chip)):
        per10, _, _ = phantoms(20, 0.6, per_activation=True, **ways)
        out.append((f"same, each activation missing 60% on its own, {label} (sim, 20 runs)",
                    per10, "removals"))
    idle = cpu_share(wall, 10, 0)
    out += [
        ("CPU per minute, one reader, empty field (wall, 10 s, emulator included)", idle,
         "cpu-s"),
        ("   as a share of one core", idle / 60 * 100, "%", "idle_cpu_percent"),
        ("CPU per minute, one reader, 1 tag resting (wall, 10 s)", cpu_share(wall, 10, 1),
         "cpu-s"),
        ("CPU, three readers, empty fields (wall, 10 s)", cpu_share(wall, 10, 0, 3) / 60 * 100,
         "%", "idle_cpu_percent_three_readers"),
        ("CPU, three readers, 1 tag resting on one (wall, 10 s)",
         cpu_share(wall, 10, 1, 3) / 60 * 100, "%"),
    ]
    return out + polling_figures(wall)


def polling_figures(wall: Clock) -> list[tuple]:
    """The old default for comparison: every reader polled every 0.1 s, no waiting."""
    out: list[tuple] = [("-- for comparison, polling every 0.1 s (arm 0, no resting or "
                         "confirm period)", PERIOD, "s")]
    taps, _ = latencies(VirtualClock(), 1000, seed=5, fresh=True, polling=True)
    out += _lat("tap-to-event, a tag never seen (sim, 1000 trials),", taps)
    taps, lifts = latencies(VirtualClock(), 1000, seed=5, polling=True)
    out += _lat("tap-to-event, the same tag again (sim, 1000 trials),", taps)
    out += _lat("lift-to-event (sim, 1000 trials),", lifts)
    _, lifts = latencies(VirtualClock(), 1000, seed=7, faults=FaultPlan(rate=0.05, seed=7),
                         polling=True)
    out += _lat("lift-to-event at 5% faults (sim, 1000 trials),", lifts)
    idle = cpu_share(wall, 10, 0, polling=True)
    out += [
        ("CPU per minute, one reader, empty field (wall, 10 s)", idle, "cpu-s"),
        ("CPU per minute, one reader, 1 tag resting (wall, 10 s)",
         cpu_share(wall, 10, 1, polling=True), "cpu-s"),
        ("CPU, three readers, empty fields (wall, 10 s)",
         cpu_share(wall, 10, 0, 3, polling=True) / 60 * 100, "%"),
    ]
    return out
