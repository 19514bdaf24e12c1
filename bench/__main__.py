"""Run every benchmark module listed below and print its figures.

Each module has `run() -> list[tuple[str, float, str]]` (figure, value, unit). Add a module by
adding its name here.
"""

from __future__ import annotations

import importlib
import sys

MODULES: list[str] = ["core", "oversiege", "kingdomino", "serial", "nfc", "gpio", "voice", "kttk"]
MODULES += ["web"]  # the phone page (tabletap.web), on its own line for merging


def main(argv: list[str]) -> int:
    wanted = argv or MODULES
    for name in wanted:
        print(f"== {name}", flush=True)
        module = importlib.import_module(f"bench.{name}")
        for figure, value, unit in module.run():
            print(f"  {figure:<55} {value:>12.3f} {unit}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
