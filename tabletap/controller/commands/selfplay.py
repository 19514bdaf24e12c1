"""`tabletap selfplay GAME --games N`: play many complete games with the engines alone and
report who wins by turn order (with 95 % intervals), how long games last, the scores, and the
game's own figures (how often each variant's bonus is earned, say).

Games run on every core (multiprocessing) with a progress bar; game i is seeded with S + i, so
a run is reproducible whatever --jobs is. The engines are the table's own, through the fast
path controller.selfplay.play shares with `make bench` and the property tests.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from tabletap.controller.games.registry import game_names

# Cheap to import: the engines, tqdm and matplotlib load only when the command runs.
POLICIES = ("random", "greedy")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("selfplay", help="play many games with the engines alone and report "
                       "win rates by turn order, game lengths and scores")
    p.add_argument("game", choices=game_names(), help="the game")
    p.add_argument("--games", type=int, default=1000, metavar="N",
                   help="how many games (default 1000)")
    p.add_argument("--players", type=int, default=2, metavar="K",
                   help="players at the table (default 2)")
    p.add_argument("--policy", choices=POLICIES, default="random",
                   help="how every seat chooses: random legal plays, or greedy "
                   "(the best-looking play now)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="J",
                   help="worker processes (default: every core)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="game i plays with seed S+i (default 0)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. dice=digital or harmony=true (repeatable)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--plot", metavar="FILE.png", help="also draw the report into a PNG")
    p.set_defaults(func=selfplay)


def parse_option(item: str) -> tuple[str, Any]:
    """KEY=VALUE with true/false and whole numbers read as such."""
    key, sep, value = item.partition("=")
    if not sep or not key:
        raise ValueError(f"--option {item!r}: expected KEY=VALUE")
    lowered = value.strip().lower()
    if lowered in ("true", "yes", "on"):
        return key, True
    if lowered in ("false", "no", "off"):
        return key, False
    try:
        return key, int(value)
    except ValueError:
        return key, value


def _play_chunk(job: tuple[str, list[str], list[int], str, dict[str, Any]]) -> list[Any]:
    from tabletap.controller.selfplay.play import play_game

    game, players, seeds, policy, options = job
    return [play_game(game, players, seed, policy, options) for seed in seeds]


def _worker_signals() -> None:
    """A worker dies on the SIGTERM its pool ends it with, whatever handler it inherited: a
    caller's handler (one that cleans up and exits) would have it unwind instead, flushing
    streams whose locks the fork may have copied held by another thread, and the pool's join
    would wait for it forever (tests/selfplay/test_selfplay.py)."""
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def play_many(
    game: str, players: list[str], seeds: list[int], policy: str, options: dict[str, Any],
    jobs: int, progress: bool = True,
) -> list[Any]:
    """Every game's record, in seed order."""
    from tqdm import tqdm

    size = max(1, min(50, len(seeds) // (jobs * 8) or 1))
    chunks = [(game, players, seeds[i:i + size], policy, options)
              for i in range(0, len(seeds), size)]
    records: list[Any] = []
    with tqdm(total=len(seeds), unit="game", disable=not progress, file=sys.stderr,
              desc=f"{game} self-play") as bar:
        if jobs <= 1:
            for chunk in chunks:
                done = _play_chunk(chunk)
                records += done
                bar.update(len(done))
        else:
            import multiprocessing

            with multiprocessing.get_context("fork").Pool(jobs, _worker_signals) as pool:
                for done in pool.imap_unordered(_play_chunk, chunks):
                    records += done
                    bar.update(len(done))
    return sorted(records, key=lambda r: r.seed)


def selfplay(args: argparse.Namespace) -> int:
    from tabletap.controller.games.registry import engine_for
    from tabletap.controller.rules.base import Rejection
    from tabletap.controller.selfplay.play import seat_names
    from tabletap.controller.selfplay.report import render_text, summarise

    if args.games < 1 or args.jobs < 1:
        print("tabletap: selfplay: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        options = dict(parse_option(item) for item in args.option)
    except ValueError as exc:
        print(f"tabletap: selfplay: {exc}", file=sys.stderr)
        return 2
    try:
        players = seat_names(args.game, args.players)
    except ValueError as exc:
        print(f"tabletap: selfplay: {exc}", file=sys.stderr)
        return 2
    try:  # a table the engine refuses is refused before any worker starts
        engine_for(args.game).new_game(list(players), args.seed, dict(options), {})
    except Rejection as exc:
        print(f"tabletap: selfplay: {exc.message}", file=sys.stderr)
        return 2
    seeds = list(range(args.seed, args.seed + args.games))
    records = play_many(args.game, players, seeds, args.policy, options,
                        min(args.jobs, args.games), progress=sys.stderr.isatty())
    summary = summarise(args.game, records, args.policy, options, args.seed)
    if args.plot:
        from tabletap.controller.selfplay.plot import plot

        try:
            plot(summary, args.plot)
        except ImportError:
            print("tabletap: selfplay: --plot needs matplotlib (pip install 'tabletap[plot]')",
                  file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"tabletap: selfplay: cannot write {args.plot}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(render_text(summary))
        if args.plot:
            print(f"plot written to {args.plot}")
    return 0
