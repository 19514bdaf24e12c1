"""`tabletap sim run FILE...`: run scenario files; exit 0 all held, 1 a failure, 2 malformed."""

from __future__ import annotations

import argparse
import logging
import sys
import time


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("sim", help="the simulator: run scenario files")
    sim_sub = parser.add_subparsers(dest="sim_command", metavar="SIM_COMMAND")
    sim_sub.required = True
    run = sim_sub.add_parser("run", help="run scenario files through the daemon on simulated "
                             "hardware; exit 0 only if every expectation held")
    run.add_argument("files", nargs="+", metavar="FILE")
    run.add_argument("--play-by-play", action="store_true",
                     help="narrate the game as it is played")
    run.add_argument("-v", "--verbose", action="store_true",
                     help="also show the daemon's log (rejections, reader faults)")
    run.add_argument("--replace-live-game", action="store_true",
                     help="let a scenario whose config names a state_dir archive the unfinished "
                          "game it holds (refused otherwise; never while a daemon plays it)")
    run.set_defaults(func=run_files)


def run_files(args: argparse.Namespace) -> int:
    # Rejections are the point of many scenarios: log them only when asked. The level is put
    # back after: the tests run the command in-process, where a level left at CRITICAL took
    # every later test's `tabletap.*` records (tests/scenario/test_runner.py).
    ours = logging.getLogger("tabletap")
    before = ours.level
    ours.setLevel(logging.INFO if args.verbose else logging.CRITICAL)
    try:
        return _run_each(args)
    finally:
        ours.setLevel(before)


def _run_each(args: argparse.Namespace) -> int:
    # Imported here: `tabletap --help` loads this module to list the command.
    from tabletap.controller.loading.source import SourceError
    from tabletap.controller.state.journal import JournalError
    from tabletap.sim.scenario.model import load
    from tabletap.sim.scenario.runner import ScenarioRun

    worst = 0
    passed = failed = malformed = 0
    for path in args.files:
        started = time.perf_counter()
        narrate = print if args.play_by_play else (lambda text: None)
        try:
            scenario = load(path)
            if args.play_by_play:
                who = ", ".join(scenario.players) or "nobody yet (set up at the table)"
                print(f"== {path}: {scenario.game} with {who}")
                if scenario.description:
                    print(scenario.description.strip())
            failure = ScenarioRun(scenario, narrate, args.replace_live_game).run()
        except (SourceError, JournalError) as exc:
            print(f"ERROR {exc}", file=sys.stderr)
            malformed += 1
            worst = 2
            continue
        took = time.perf_counter() - started
        if failure:
            print(f"FAIL {failure.describe(path)}")
            failed += 1
            worst = max(worst, 1)
        else:
            print(f"PASS {path} ({len(scenario.steps)} steps, {took:.2f} s)")
            passed += 1
    if malformed:
        print(f"{malformed} malformed scenario{'s' if malformed > 1 else ''} (not run)")
    print(f"scenarios: {passed} passed, {failed} failed")
    return worst
