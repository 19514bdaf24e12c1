"""Run every benchmark module listed below and print its figures.

Each module has `run() -> list[tuple[str, float, str]]` (figure, value, unit). Add a module by
adding its name here; a game's own module is its spec's `bench` (tabletap/games/<game>/bench.py)
and runs by the game's name. A figure with a fourth element, its key (a name, or a (name,
sub-key) pair for a keyed object such as games_per_cpu_s), is also written to bench.json at the
repository root: one JSON object with stable keys, for machines and for comparing runs. A run of
every module writes the file afresh; a run of some modules replaces their keys (those they wrote
last time, as `_runs` records with the tree and the time) and keeps the others, so no figure of an
earlier run is left under a module that did not make it this time. The run ends with issue 23's
goals judged on the figures it made (bench/goals.py).
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from bench.goals import report

MODULES: list[str] = ["core", "serial", "nfc", "gpio", "games", "startup", "voice", "live"]
MODULES += ["web"]  # the phone page (tabletap.web), on its own line for merging


def game_modules() -> dict[str, str]:
    """Each installed game's own figures (its spec's `bench` module), by game name: `python -m
    bench <game>` runs one."""
    from tabletap.controller.games import registry

    return {spec.name: spec.bench for spec in registry.games() if spec.bench}


JSON_FILE = Path(__file__).resolve().parent.parent / "bench.json"


def _record(figures: dict[str, Any], key: str | tuple[str, str], value: float) -> None:
    if isinstance(key, tuple):
        figures.setdefault(key[0], {})[key[1]] = round(value, 4)
    else:
        figures[key] = round(value, 4)


def _load_previous() -> dict[str, Any]:
    try:
        data = json.loads(JSON_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _without(previous: dict[str, Any], modules: list[str]) -> dict[str, Any]:
    """`previous` less the keys the given modules wrote in their last run (`_runs`), so that a
    figure a module cannot make this time (no espeak-ng, no root) is absent, not an old value."""
    figures = dict(previous)
    runs = previous.get("_runs")
    runs = figures["_runs"] = dict(runs) if isinstance(runs, dict) else {}
    for name in modules:
        last = runs.pop(name, None)
        for key in last.get("keys", []) if isinstance(last, dict) else []:
            figures.pop(key, None)
    return figures


def _tree() -> str | None:
    """The commit the figures were made on, `+changes` when tracked files differ from it."""
    root = JSON_FILE.parent
    try:
        rev = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=10, check=True).stdout
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return rev.strip() + ("+changes" if dirty.strip() else "")


def main(argv: list[str]) -> int:
    games = game_modules()
    parser = argparse.ArgumentParser(
        prog="python -m bench", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    known = [*MODULES, *games]
    parser.add_argument("modules", nargs="*", metavar="MODULE",
                        help="the modules to run (all when none is given): " + ", ".join(known))
    wanted = parser.parse_args(argv).modules or known
    # checked here, not by `choices`, which refuses an empty list with nargs="*" on Python 3.11;
    # a name that is no module is then this error, not an ImportError's traceback
    unknown = [name for name in wanted if name not in known]
    if unknown:
        parser.error(f"no benchmark module called {', '.join(map(repr, unknown))} "
                     f"(choose from {', '.join(known)})")
    # every module run: the file afresh; some: their old keys dropped, the others' kept
    figures = _without(_load_previous() if wanted != known else {}, wanted)
    ran: dict[str, ModuleType] = {}
    tree = _tree()
    for name in wanted:
        print(f"== {name}", flush=True)
        module = ran[name] = importlib.import_module(games.get(name) or f"bench.{name}")
        keys: set[str] = set()
        for figure, value, unit, *key in module.run():
            print(f"  {figure:<55} {value:>12.3f} {unit}", flush=True)
            if key:
                _record(figures, key[0], value)
                keys.add(key[0][0] if isinstance(key[0], tuple) else key[0])
        figures["_runs"][name] = {"keys": sorted(keys), "tree": tree,
                                  "finished": datetime.now(UTC).isoformat(timespec="seconds")}
        JSON_FILE.write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n",
                             encoding="utf-8")
    print(f"figures with keys written to {JSON_FILE.name}", flush=True)
    # judged on this run's figures alone: the keys its modules wrote, as `_runs` records them
    made = {key: figures[key] for name in ran for key in figures["_runs"][name]["keys"]}
    judged = report(made, ran)
    if judged:
        print("== goals, on this run's figures (docs/BENCHMARKS.md)", flush=True)
        print("\n".join(judged), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
