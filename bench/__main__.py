"""Run every benchmark module listed below and print its figures.

Each module has `run() -> list[tuple[str, float, str]]` (figure, value, unit). Add a module by
adding its name here; a game's own module is its spec's `bench` (tabletap/games/<game>/bench.py)
and runs by the game's name. A figure with a fourth element, its key (a name, or a (name,
sub-key) pair for a keyed object such as games_per_cpu_s), is also written to bench.json at the
repository root: one JSON object with stable keys, for machines and for comparing runs. A run of
some modules only updates their keys and keeps the others.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any

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
    figures = _load_previous()
    for name in wanted:
        print(f"== {name}", flush=True)
        module = importlib.import_module(games.get(name) or f"bench.{name}")
        for figure, value, unit, *key in module.run():
            print(f"  {figure:<55} {value:>12.3f} {unit}", flush=True)
            if key:
                _record(figures, key[0], value)
        JSON_FILE.write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n",
                             encoding="utf-8")
    print(f"figures with keys written to {JSON_FILE.name}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
