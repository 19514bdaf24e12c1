"""`python tests/bench/gc_watch.py TABLETAP ARGS...`: `tabletap` saying each collection.

A prefix for the bench's rig (bench/live/rig.py), for tests/bench/test_start_collector.py. It
writes a line to stderr when `tabletap.controller.cli.main` is entered, and one at the start of
every collection of Python's cyclic garbage collector (`gc.callbacks`), with how many objects
were frozen by then (`gc.get_freeze_count`). Nothing else of the daemon is changed: the console
script is run as it is, with `main` wrapped only to mark the moment it begins.
"""

from __future__ import annotations

import functools
import gc
import runpy
import sys
from typing import Any

from tabletap.controller import cli


def _said(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        print(f"gc-watch: collection generation={info['generation']} "
              f"frozen={gc.get_freeze_count()}", file=sys.stderr, flush=True)


def _marked(main: Any) -> Any:
    @functools.wraps(main)
    def entered(*args: Any, **kwargs: Any) -> Any:
        print("gc-watch: main entered", file=sys.stderr, flush=True)
        return main(*args, **kwargs)
    return entered


gc.callbacks.append(_said)
cli.main = _marked(cli.main)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
