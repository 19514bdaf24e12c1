"""`python -m bench.games_compare REV [--rounds N] [--block S] [--variant V ...] [--cpu N]
[--instructions N]`: the engines of commit REV and of the working tree, random complete games per
CPU-second (`bench games`), the two taking turns in one sitting.

Why: issue 23 asks that random games per CPU-second be "not lower than now", and this machine's
speed moves by two to four times within minutes, CPU time too: `bench games` run twice in one
hour moved by up to 43 % on the same code (docs/BENCHMARKS.md). Two runs an hour apart are then
no comparison, for the same reason a game's own bench times its scorers by turns.
Here each side is a worker process that keeps its engines loaded and plays seeded random games
(`controller.selfplay.play_game`, the `random` policy, as `bench games`) when asked. The two are
asked in turns, REV first in one round and the tree first in the next, so a slow spell falls on
both, and in a round both play the same games (the same seeds, about `--block` CPU seconds of
them), so a round's ratio compares the same work. A side's rate is its games over its own
blocks' CPU time.

REV is installed the way a box installs it, into a virtual environment of its own (`pip install`
of its worktree: its own dependencies, e.g. pydantic before 2026-12-04, and its own games'
entry points); the tree runs in the bench's venv, as `bench games` does. Each worker plays one
game of a variant, untimed, before its blocks (the imports and caches a long run pays once),
then five that time a game and size the blocks. Both workers run on one core (`--cpu`, by
default the lowest this process may use), so neither side has a core of its own. Variants in
one tree only are named and skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from bench.live.instructions import NoValgrind, count_of
from bench.worktree import worktree

ROUNDS = 10  # blocks of each side per variant
BLOCK = 0.3  # CPU seconds a block: ten rounds give each side 3 s, `bench games`' budget
FIRST_SEED = 6  # the timed games' first seed (0-5 time a game: block_size)

WORKER = """
import json, sys, time
from tabletap.controller.selfplay.play import VARIANTS, play_game, seat_names
print(json.dumps({"variants": list(VARIANTS)}), flush=True)
for line in sys.stdin:
    variant, first, count = line.split()
    if variant not in VARIANTS:
        print(json.dumps({"error": f"no variant {variant!r} in this tree"}), flush=True)
        continue
    game, players, options = VARIANTS[variant]
    names = seat_names(game, players)
    started, out = time.process_time(), None
    for seed in range(int(first), int(first) + int(count)):
        if not play_game(game, names, seed, "random", options).finished:
            out = {"error": f"{variant} seed {seed}: the game did not end"}
            break
    print(json.dumps(out or {"cpu_s": time.process_time() - started}), flush=True)
"""


class WorkerError(RuntimeError):
    """A worker could not play what it was asked (its own words), or died."""


class Side(Protocol):
    """One side of the comparison: plays the `count` seeded games of `variant` from seed
    `first` on and says how much CPU time they took."""

    name: str

    def play(self, variant: str, first: int, count: int) -> float: ...


class Worker:
    """A Python process with one environment's engines loaded, answering one line per request.
    It runs isolated (`-I`): no PYTHONPATH, no current folder on its path, so it plays the
    package `python` has installed (the bench's venv has the tree's, editable) and nothing
    else."""

    def __init__(self, name: str, python: str, cpu: int | None = None) -> None:
        self.name = name
        self.proc = subprocess.Popen([python, "-I", "-c", WORKER], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if cpu is not None:
            os.sched_setaffinity(self.proc.pid, {cpu})
        self.variants: list[str] = self._answer()["variants"]

    def _answer(self) -> dict:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            assert self.proc.stderr is not None
            raise WorkerError(f"{self.name}'s worker ended ({self.proc.returncode}): "
                              f"{self.proc.stderr.read().strip()[-2000:]}")
        answer = json.loads(line)
        if "error" in answer:
            raise WorkerError(f"{self.name}: {answer['error']}")
        return answer

    def play(self, variant: str, first: int, count: int) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{variant} {first} {count}\n")
        self.proc.stdin.flush()
        return float(self._answer()["cpu_s"])

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@dataclass
class Rates:
    """Each side's games per CPU-second over its blocks, the games a block held, and the
    tree's rate over REV's round by round (how much a single round's ratio strays)."""

    rates: dict[str, float]
    per_block: int
    round_ratios: list[float] = field(default_factory=list)


def block_size(sides: Sequence[Side], variant: str, block: float) -> int:
    """The games in a block of about `block` CPU seconds: each side plays seed 0 once untimed
    (the imports and caches a long run pays once), then seeds 1-5, which time a game."""
    for side in sides:
        side.play(variant, 0, 1)
    per_game = statistics.mean(side.play(variant, 1, 5) for side in sides) / 5
    return max(1, round(block / per_game))


def by_turns(sides: Sequence[Side], variant: str, rounds: int = ROUNDS,
             block: float = BLOCK, first: int = FIRST_SEED) -> Rates:
    """`rounds` blocks of about `block` CPU seconds of `variant` for each side, the sides
    taking turns with the first place passed on each round. In a round every side plays the
    same seeded games (the next ones each round, from seed `first`), so a round's ratio
    compares the same games; a side's rate is its games over its own blocks' CPU time. The
    round ratios are the last side's rate over the first's."""
    per_block = block_size(sides, variant, block)
    spent = {s.name: 0.0 for s in sides}
    ratios = []
    for n in range(rounds):
        seed = first + n * per_block
        this_round: dict[str, float] = {}
        for k in range(len(sides)):
            side = sides[(n + k) % len(sides)]
            this_round[side.name] = side.play(variant, seed, per_block)
            spent[side.name] += this_round[side.name]
        ratios.append(this_round[sides[0].name] / this_round[sides[-1].name])
    return Rates({name: rounds * per_block / cpu for name, cpu in spent.items()}, per_block,
                 ratios)


def instructions(python: str, variant: str, games: int, folder: Path) -> int:
    """Instructions (callgrind) of a worker that plays `variant`'s seed 0, then `games` games
    from FIRST_SEED on, and ends; with `games` 0 what every count holds besides the games
    (the start, the imports, the untimed first game)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise NoValgrind("valgrind is not installed (apt-get install valgrind)")
    out = folder / f"callgrind.{os.getpid()}.{time.monotonic_ns()}"
    asked = f"{variant} 0 1\n" + (f"{variant} {FIRST_SEED} {games}\n" if games else "")
    # `-I` leaves the string hashes random; two counts of one tree still agreed within 0.01 %
    done = subprocess.run([valgrind, "--tool=callgrind", f"--callgrind-out-file={out}",
                           "--dump-instr=no", python, "-I", "-c", WORKER], input=asked,
                          capture_output=True, text=True)
    if done.returncode or '"error"' in done.stdout:
        raise WorkerError(f"{python} under callgrind ({done.returncode}): "
                          f"{(done.stdout + done.stderr).strip()[-2000:]}")
    return count_of(out.read_text(encoding="utf-8", errors="replace"))


def instructions_a_game(pythons: dict[str, str], variant: str, games: int,
                        folder: Path) -> dict[str, float]:
    """Each side's instructions a game of `variant`: the count with `games` games less the
    count without, over `games`; the sides counted at once, one beside the other (a count
    does not depend on what else runs)."""
    with ThreadPoolExecutor(max_workers=2 * len(pythons)) as pool:
        runs = {(name, n): pool.submit(instructions, python, variant, n, folder)
                for name, python in pythons.items() for n in (0, games)}
        return {name: (runs[name, games].result() - runs[name, 0].result()) / games
                for name in pythons}


def install(code: Path, into: Path) -> str:
    """A virtual environment at `into` with the package at `code` installed (not editable),
    as a box installs it; its interpreter's path."""
    print(f"installing {code} into a venv of its own ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", str(into)], check=True)
    python = str(into / "bin" / "python")
    done = subprocess.run([python, "-m", "pip", "install", "-q", "--no-warn-script-location",
                           str(code)], capture_output=True, text=True)
    if done.returncode:
        raise WorkerError(f"pip could not install {code} ({done.returncode}): "
                          f"{done.stderr.strip()[-2000:]}")
    return python


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.games_compare", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rev", help="the commit whose engines to compare the working tree's with")
    parser.add_argument("--rounds", type=int, default=ROUNDS,
                        help=f"blocks of each side per variant (default {ROUNDS})")
    parser.add_argument("--block", type=float, default=BLOCK,
                        help=f"CPU seconds a block (default {BLOCK})")
    parser.add_argument("--variant", action="append", default=[], metavar="V",
                        help="a variant to compare, as `bench games` keys them (again for more; "
                             "default: every variant both trees have)")
    parser.add_argument("--cpu", type=int, default=min(os.sched_getaffinity(0)),
                        help="the core both workers run on (default: the lowest allowed)")
    parser.add_argument("--instructions", type=int, default=0, metavar="N",
                        help="also count each side's instructions a game over N games of each "
                             "variant under callgrind (the same for the same code, whatever "
                             "the machine's hour; about fifty times slower than the games)")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.block <= 0 or args.instructions < 0:
        parser.error("--rounds must be at least 1, --block above 0, --instructions 0 or more")
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind (apt-get install valgrind)")
    with worktree(args.rev) as code, tempfile.TemporaryDirectory() as tmp:
        python = install(code, Path(tmp) / "venv")
        sides = [Worker(args.rev, python, cpu=args.cpu),
                 Worker("tree", sys.executable, cpu=args.cpu)]
        try:
            both = [v for v in sides[1].variants if v in sides[0].variants]
            for name, side in ((s.name, s) for s in sides):
                alone = sorted(set(side.variants) - set(both))
                if alone:
                    print(f"only in {name}, not compared: {', '.join(alone)}")
            unknown = [v for v in args.variant if v not in both]
            if unknown:
                parser.error(f"not a variant of both trees: {', '.join(unknown)} "
                             f"(both have: {', '.join(both)})")
            print(f"{'variant':<22}{args.rev:>12}{'tree':>12}{'tree / rev':>12}"
                  f"{'rounds: min-max, median':>26}{'games a block':>15}")
            for variant in args.variant or both:
                r = by_turns(sides, variant, args.rounds, args.block)
                ratio = r.rates["tree"] / r.rates[args.rev]
                spread = (f"{min(r.round_ratios):.3f}-{max(r.round_ratios):.3f}, "
                          f"{statistics.median(r.round_ratios):.3f}")
                print(f"{variant:<22}{r.rates[args.rev]:>12.1f}{r.rates['tree']:>12.1f}"
                      f"{ratio:>12.3f}{spread:>26}{r.per_block:>15}", flush=True)
        finally:
            for side in sides:
                side.close()
        if args.instructions:
            print(f"instructions a game, {args.instructions} games each (callgrind; "
                  "millions; the variants one after the other, each a minute or more) ...",
                  flush=True)
            print(f"{'variant':<22}{args.rev:>12}{'tree':>12}{'tree / rev':>12}")
            for variant in args.variant or both:
                count = instructions_a_game({args.rev: python, "tree": sys.executable},
                                            variant, args.instructions, Path(tmp))
                print(f"{variant:<22}{count[args.rev] / 1e6:>12.3f}"
                      f"{count['tree'] / 1e6:>12.3f}"
                      f"{count['tree'] / count[args.rev]:>12.4f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
