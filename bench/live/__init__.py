"""`python -m bench live`: the real daemon process on the wall clock (rig.py, trials.py), at full
speed and under a CPU quota of a quarter and a tenth of one core (cgroup.py).

Figures per speed: tag in the field -> the board executes the chest's latch command (first tap of a
tag / the same tag again), -> the lights' frame, and tag lifted -> the daemon's removal event; p50,
p90, p99, max over `BENCH_LIVE_TRIALS` (default 200) of each. At full speed also the daemon's CPU
per accepted tap, its idle CPU and the emulator's over `BENCH_IDLE_SECONDS` (60), its CPU with one
piece resting on the reader over `BENCH_RESTING_SECONDS` (30), exec -> READY (on the wall clock,
and in instructions: instructions.py), and RSS/PSS of the daemon and of the page (`tabletap web`, a
phone watching its stream all along) after the whole run ("an evening"); exec -> READY again under
a tenth of a core. Beside each quota's figures, how much it slowed a child that only computes
(cgroup.stretch): a quota made but not enforced would report full speed under its name.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Iterator
from contextlib import contextmanager

from bench.live.cgroup import Quota, QuotaUnavailable, bites, stretch
from bench.live.instructions import NoValgrind, ready_instructions
from bench.live.phone import Phone
from bench.live.procstat import memory_mib
from bench.live.rig import Rig
from bench.live.trials import Figures, idle_cpu, resting_cpu, run_trials

TRIALS = int(os.environ.get("BENCH_LIVE_TRIALS", "200"))
IDLE_SECONDS = float(os.environ.get("BENCH_IDLE_SECONDS", "60"))
RESTING_SECONDS = float(os.environ.get("BENCH_RESTING_SECONDS", "30"))
STARTS = 5
SPEEDS = (("wall", None), ("quarter", 0.25), ("tenth", 0.10))

# Issue 23's table, row by row, full core then a tenth (judged by `python -m bench`:
# bench/goals.py), and the other keys it asks for.
GOALS = (
    ("wall_tap_first_p50_ms", "tag enters the field -> chest command, first tap, p50", "<=",
     25, "ms"),
    ("wall_tap_first_p99_ms", "  the same, p99", "<=", 40, "ms"),
    ("tenth_tap_first_p99_ms", "  the same at a tenth of a core, p99", "<=", 120, "ms"),
    ("wall_tap_again_p50_ms", "tag enters again -> chest command, p50", "<=", 10, "ms"),
    ("wall_tap_again_p99_ms", "  the same, p99", "<=", 20, "ms"),
    ("tenth_tap_again_p99_ms", "  the same at a tenth of a core, p99", "<=", 80, "ms"),
    ("wall_lift_p99_ms", "tag leaves -> removal event, p99", "<=", 120, "ms"),
    ("tenth_lift_p99_ms", "  the same at a tenth of a core, p99", "<=", 200, "ms"),
    ("daemon_idle_cpu_percent", "real daemon idle CPU, its own process", "<=", 0.3, "%"),
    ("daemon_cpu_ms_per_tap", "CPU per accepted tap, the daemon alone", "<=", 3, "ms"),
    ("ready_s", "start to ready", "<=", 0.3, "s"),
    ("tenth_ready_s", "  the same at a tenth of a core", "<=", 2.5, "s"),
    ("daemon_rss_mib", "daemon RSS after an evening", "<=", 40, "MiB"),
    ("web_rss_mib", "page RSS after an evening", "<=", 45, "MiB"),
)
ASKED = (*(row[0] for row in GOALS), "quarter_tap_first_p99_ms", "daemon_pss_mib",
         "web_pss_mib")
MISSING_WHY = "the quarter's and tenth's figures need root for the CPU quota (sudo make bench)"
# the issue asks at least 200 trials of each kind and an idle minute; a developer's shorter run
# (the variables above) is judged too, and says so
GOAL_NOTES = (() if TRIALS >= 200 and IDLE_SECONDS >= 60 else (
    f"bench live ran {TRIALS} trials of each kind and {IDLE_SECONDS:g} s idle, where the issue "
    "asks at least 200 and 60 s: its p99s are of fewer taps (BENCH_LIVE_TRIALS, "
    "BENCH_IDLE_SECONDS)",))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _spread(label: str, seconds: list[float], key: str) -> list[tuple]:
    ms = [s * 1000 for s in seconds]
    if not ms:
        return [(f"{label}: no trial answered", 0.0, "")]
    return [(f"{label}, p50", statistics.median(ms), "ms", f"{key}_p50_ms"),
            (f"{label}, p90", pct(ms, 0.90), "ms", f"{key}_p90_ms"),
            (f"{label}, p99", pct(ms, 0.99), "ms", f"{key}_p99_ms"),
            (f"{label}, max ({len(ms)} trials)", max(ms), "ms", f"{key}_max_ms")]


def _latencies(name: str, f: Figures) -> list[tuple]:
    return [
        *_spread(f"[{name}] tag enters the field -> chest command, first tap", f.first_chest,
                 f"{name}_tap_first"),
        *_spread(f"[{name}] tag enters again -> chest command", f.again_chest,
                 f"{name}_tap_again"),
        *_spread(f"[{name}] tag enters -> lights' frame, first tap", f.first_lights,
                 f"{name}_lights_first"),
        *_spread(f"[{name}] tag enters again -> lights' frame", f.again_lights,
                 f"{name}_lights_again"),
        *_spread(f"[{name}] tag leaves -> removal event", f.lift, f"{name}_lift"),
    ]


@contextmanager
def _quota(name: str, share: float | None) -> Iterator[Quota | None]:
    if share is None:
        yield None
        return
    quota = Quota.make(f"tabletap-bench-{name}", share)
    try:
        yield quota
    finally:
        quota.remove()


def _ready(quota: Quota | None, starts: int) -> tuple[float, float, float, float]:
    """Medians of exec -> READY=1 and of the daemon's CPU up to it, over `starts` daemons
    resuming the same game, the first start's exec -> READY, and then one new game's. The CPU
    tells a start that did more work from one that ran on a slower minute: under a quota the
    wall time is about the CPU divided by the share. The first start (a new game) finds nothing
    kept in the state folder (controller.startcache): a box whose `cache/` was removed, or
    installed from the Debian package; the others start as a box does every other time. The
    last, a new game with everything kept, is a box's first start after flashing the image,
    whose state partition comes with the cache made (image/build.sh, keep_first_start)."""
    rig = Rig()
    try:
        times, cpus = [], []
        for n in range(starts):
            times.append(rig.start(quota, new=n == 0))
            cpus.append(rig.ready_cpu_s)
            rig.stop()
        image_first = rig.start(quota, new=True)
        rig.stop()
        return statistics.median(times), statistics.median(cpus), times[0], image_first
    finally:
        rig.close()


def _ready_figures(name: str, quota: Quota | None, starts: int) -> list[tuple]:
    wall, cpu, first, image_first = _ready(quota, starts)
    tag, key = ("full speed", "") if quota is None else ("under the quota", f"{name}_")
    prefix = "" if quota is None else f"[{name}] "
    return [(f"{prefix}exec -> READY, {tag} (median of {starts} starts)", wall, "s",
             f"{key}ready_s"),
            (f"{prefix}  the daemon's CPU up to READY (median; its CPU clock)", cpu, "s",
             f"{key}ready_cpu_s"),
            (f"{prefix}  the first of them, a new game with nothing kept from a start before",
             first, "s", f"{key}ready_first_s"),
            (f"{prefix}  then a new game with everything kept (the image's first start)",
             image_first, "s", f"{key}ready_image_first_s")]


def _full(trials: int) -> list[tuple]:
    rig = Rig()
    phone = Phone(rig)
    try:
        rig.start()
        f = run_trials(rig, trials, seed=1)
        out = _latencies("wall", f)
        out.append(("[wall] daemon CPU per accepted tap (tap, rest, lift, answers; "
                    f"{f.accepted} accepted, {f.new_games} new games)",
                    f.cpu_s / max(1, f.accepted) * 1000, "ms", "daemon_cpu_ms_per_tap"))
        daemon_rss, daemon_pss = memory_mib(rig.pid)
        web_rss, web_pss = memory_mib(phone.web.pid)
        out += [("daemon RSS after the run", daemon_rss, "MiB", "daemon_rss_mib"),
                ("daemon PSS after the run", daemon_pss, "MiB", "daemon_pss_mib"),
                ("page (tabletap web) RSS after the run", web_rss, "MiB", "web_rss_mib"),
                ("page (tabletap web) PSS after the run", web_pss, "MiB", "web_pss_mib")]
        phone.stop()
        daemon, emulator = idle_cpu(rig, IDLE_SECONDS)
        # The same CPU with the idle table's rate over the run's time taken off: what the taps
        # cost on top of the renewals, the Pico's pings and the watchdog that an empty table
        # pays too (docs/BENCHMARKS.md; the goal is judged on the whole figure above).
        above = (f.cpu_s - daemon / 100 * f.wall_s) / max(1, f.accepted) * 1000
        out += [("[wall] daemon CPU per accepted tap above the idle table's rate", above, "ms",
                 "daemon_cpu_ms_per_tap_above_idle"),
                (f"daemon idle CPU, its own process ({IDLE_SECONDS:g} s, empty field)", daemon,
                 "%", "daemon_idle_cpu_percent"),
                ("PN532 emulator's idle CPU over the same time (apart)", emulator, "%",
                 "emulator_idle_cpu_percent"),
                (f"daemon CPU, one piece resting on the reader ({RESTING_SECONDS:g} s)",
                 resting_cpu(rig, RESTING_SECONDS), "%", "daemon_resting_cpu_percent")]
        return out
    finally:
        phone.stop()
        rig.close()


def _limited(name: str, share: float, trials: int) -> list[tuple]:
    with _quota(name, share) as quota:
        assert quota is not None
        # Whether the quota bites on this machine at all (a cgroup made but not enforced
        # would report full-speed figures under this speed's name): about 1 / share.
        slowed = stretch(quota)
        if not bites(share, slowed):
            print(f"  warning: the quota of a {name} slowed a spinning child only {slowed:.2f}"
                  f" times (about {1 / share:g} expected): its figures are not a {name}'s")
        out = [(f"[{name}] a CPU-bound child under the quota: wall seconds per CPU second",
                slowed, "x", f"{name}_quota_stretch")]
        if name == "tenth":
            out += _ready_figures(name, quota, 3)
        rig = Rig()
        try:
            rig.start(quota)
            f = run_trials(rig, trials, seed=2)
            out += _latencies(name, f)
            out.append((f"[{name}] daemon CPU per accepted tap", f.cpu_s / max(1, f.accepted)
                        * 1000, "ms", f"{name}_cpu_ms_per_tap"))
        finally:
            rig.close()
        return out


def run() -> list[tuple]:
    out: list[tuple] = [*_ready_figures("wall", None, STARTS), *_full(TRIALS)]
    try:
        out.append(("exec -> READY in instructions (callgrind; repeatable, not time)",
                    ready_instructions() / 1e6, "M", "ready_instructions_m"))
    except NoValgrind as exc:
        print(f"  {exc}: no instruction count of the start")
    for name, share in SPEEDS[1:]:
        assert share is not None
        try:
            out += _limited(name, share, TRIALS)
        except QuotaUnavailable as exc:
            print(f"  {exc}: no figures at a {name} of a core")
    return out
