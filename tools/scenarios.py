"""Write or check the generated scenarios of every installed game that has a generator (its
spec's `scenarios` module, controller.games.spec).

    .venv/bin/python tools/scenarios.py [--check] [GAME ...]   # every game, or those named
    .venv/bin/python tools/scenarios.py GAME --examples         # a generator's own flags

Run from the repository root: the generators write under scenarios/<game>/.
"""

from __future__ import annotations

import importlib
import sys

from tabletap.controller.games import registry


def main(argv: list[str]) -> int:
    named = [a for a in argv if not a.startswith("-")]
    flags = [a for a in argv if a.startswith("-")]
    unknown = [n for n in named if registry.find(n) is None]
    if unknown:
        print(f"tools/scenarios.py: no game called {unknown[0]!r}; installed: "
              f"{', '.join(registry.game_names())}", file=sys.stderr)
        return 2
    status = 0
    for spec in registry.games():
        if spec.scenarios is None or (named and spec.name not in named):
            continue
        print(f"== {spec.name}", flush=True)
        status = max(status, importlib.import_module(spec.scenarios).main(flags))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
