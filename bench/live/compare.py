"""`python -m bench.live.compare REV [--runs N] [--trials N] [--idle S]`: the real daemon of
commit REV and of the working tree, measured alternately in one sitting.

This machine varies from one run to the next by more than most changes move a figure (docs/
BENCHMARKS.md): two runs of `bench live` an hour apart are no comparison. Here the two daemons
take turns (REV, tree, REV, tree, ...), each on a fresh rig at full speed: `run_trials` (the
taps, lifts, CPU per accepted tap of `bench live`) then `idle_cpu`. REV's daemon runs from a
`git worktree` put first on the daemon's PYTHONPATH (`BENCH_DAEMON_PYTHONPATH`, rig.py); the
emulators, the bench and the installed entry points are the tree's, the same for both sides.
Full speed only: a quota changes both sides alike. `--together` starts the two sides of a run at
once, one beside the other (each has a core of this two-core machine; their emulators share
them), so a pair sees the same minute of a machine whose speed moves by two to four times
within minutes: the ratio of a pair's CPU per tap is then the figure to read, not the
latencies, which the other side disturbs. `--phone`: a phone watches the page during
the trials, as in `bench live`'s full run (the page is each side's own: rig.web runs it on
the same PYTHONPATH as the daemon). `--page`: the page runs and no phone watches it.
`--rev-python CMD`: REV's daemon runs under another interpreter, e.g. the Python of the image's
Debian in a chroot (docs/BENCHMARKS.md, "The kernel's share, the Pi's own Python, the
collector"); with REV the tree's own HEAD the two sides differ by the interpreter alone.
`--rev-tree DIR`: REV's daemon runs from DIR, a tree made some other way (a copy of the tree
with some modules compiled to C, say: docs/BENCHMARKS.md, "The loop, the reader and the link
compiled to C"), and REV is only its label; no worktree is made. Each
run also reports the kernel's share of the CPU per tap (`sys_ms_per_tap`, the system time in
/proc).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from contextlib import nullcontext
from pathlib import Path

from bench.worktree import ROOT, worktree

ONE_RUN = """
import json, statistics, sys
from bench.live import pct
from bench.live.phone import Phone
from bench.live.rig import Rig
from bench.live.trials import idle_cpu, run_trials
rig = Rig()
phone = Phone(rig, watching=sys.argv[3] == "phone") if sys.argv[3] != "none" else None
try:
    rig.start(new=True)
    f = run_trials(rig, int(sys.argv[1]), seed=1)
    if phone is not None:
        phone.stop()
    daemon, _ = idle_cpu(rig, float(sys.argv[2]))
finally:
    if phone is not None:
        phone.stop()
    rig.close()
ms = lambda v, q: pct(v, q) * 1000
print(json.dumps({"cpu_ms_per_tap": f.cpu_s / max(1, f.accepted) * 1000,
                  "sys_ms_per_tap": f.sys_s / max(1, f.accepted) * 1000,
                  "first_p50": ms(f.first_chest, 0.5), "first_p99": ms(f.first_chest, 0.99),
                  "again_p50": ms(f.again_chest, 0.5), "again_p99": ms(f.again_chest, 0.99),
                  "lift_p99": ms(f.lift, 0.99), "idle_percent": daemon}))
"""


def start_run(code: Path, trials: int, idle: float, page: str = "none",
              python: str = "") -> subprocess.Popen[str]:
    """One run of `code`'s daemon; `page`: "phone" (the page, a phone watching it), "page"
    (the page alone) or "none"; `python`: the command that runs the daemon (rig.py's
    BENCH_DAEMON_PREFIX), when not the bench's own interpreter."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_DAEMON_PYTHONPATH": str(code)}
    if python:
        env["BENCH_DAEMON_PREFIX"] = python
    return subprocess.Popen([sys.executable, "-c", ONE_RUN, str(trials), str(idle), page],
                            env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def result(run: subprocess.Popen[str]) -> dict[str, float]:
    out, err = run.communicate()
    if run.returncode:
        raise RuntimeError(f"a run failed ({run.returncode}): {err.strip()[-2000:]}")
    return json.loads(out.strip().splitlines()[-1])


def one_run(code: Path, trials: int, idle: float, page: str = "none",
            python: str = "") -> dict[str, float]:
    return result(start_run(code, trials, idle, page, python))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.live.compare", description=__doc__)
    parser.add_argument("rev", help="the commit to compare the working tree with (e.g. HEAD~1)")
    parser.add_argument("--runs", type=int, default=2, help="runs of each side (default 2)")
    parser.add_argument("--trials", type=int, default=100, help="trials of each kind a run")
    parser.add_argument("--idle", type=float, default=30.0, help="idle seconds a run")
    watch = parser.add_mutually_exclusive_group()
    watch.add_argument("--phone", dest="page", action="store_const", const="phone",
                       default="none",
                       help="a phone watches the page during the trials (each side's own "
                            "`tabletap web`), as in `bench live`'s full run")
    watch.add_argument("--page", dest="page", action="store_const", const="page",
                       help="the page runs and no phone watches it, as on a family's box for "
                            "most of an evening")
    parser.add_argument("--together", action="store_true",
                        help="each run starts both sides at once, one beside the other, so "
                             "both see the same minute of this machine; compare their CPU per "
                             "tap by the ratio of each pair (the latencies are disturbed)")
    parser.add_argument("--rev-python", default="", metavar="CMD",
                        help="run REV's daemon (not its page) with this interpreter command, "
                             "e.g. \"chroot /srv/trixie /opt/venv/bin/python\" for the Python "
                             "the image ships (docs/BENCHMARKS.md has the chroot); with REV the "
                             "tree's HEAD, the two sides differ by the interpreter alone")
    parser.add_argument("--rev-tree", type=Path, default=None, metavar="DIR",
                        help="run REV's side from this folder (a tree holding `tabletap/`, "
                             "made some other way) instead of a worktree of commit REV; REV "
                             "is then only the side's label")
    args = parser.parse_args(argv)
    if args.rev_tree is not None:
        if not (args.rev_tree / "tabletap").is_dir():
            parser.error(f"--rev-tree: {args.rev_tree} holds no tabletap package")
        args.rev_tree = args.rev_tree.resolve()  # the runs start in ROOT, not where it was typed
    results: dict[str, list[dict[str, float]]] = {args.rev: [], "tree": []}
    rev_side = nullcontext(args.rev_tree) if args.rev_tree is not None else worktree(args.rev)
    with rev_side as rev_code:
        for n in range(args.runs):
            sides = ((args.rev, rev_code, args.rev_python), ("tree", ROOT, ""))
            if args.together:
                print(f"run {n + 1}/{args.runs}: both at once ...", flush=True)
                runs = [(side, start_run(code, args.trials, args.idle, args.page, python))
                        for side, code, python in sides]
                for side, run in runs:
                    results[side].append(result(run))
                    print(f"  {side}: " + ", ".join(f"{k} {v:.2f}" for k, v in
                                                   results[side][-1].items()), flush=True)
                continue
            for side, code, python in sides:
                print(f"run {n + 1}/{args.runs}: {side} ...", flush=True)
                results[side].append(one_run(code, args.trials, args.idle, args.page,
                                             python))
                print("  " + ", ".join(f"{k} {v:.2f}" for k, v in
                                       results[side][-1].items()), flush=True)
    print("medians:")
    for side, runs in results.items():
        print(f"  {side}: " + ", ".join(
            f"{k} {statistics.median(r[k] for r in runs):.2f}" for k in runs[0]))
    ratios = [t["cpu_ms_per_tap"] / r["cpu_ms_per_tap"]
              for r, t in zip(results[args.rev], results["tree"], strict=True)]
    print("CPU per tap, tree / " + args.rev + " run by run: "
          + ", ".join(f"{x:.3f}" for x in ratios)
          + f" (median {statistics.median(ratios):.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
