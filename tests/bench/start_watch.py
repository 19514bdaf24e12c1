"""`python tests/bench/start_watch.py TABLETAP ARGS...`: `tabletap` saying what its start does.

A prefix for the bench's rig (bench/live/rig.py), for tests/bench/test_start_collector.py and
test_start_classes.py. It writes a line to stderr:
- when `tabletap.controller.cli.main` is entered, and as it sends READY (`Notifier.ready`);
- at the start of every collection of Python's cyclic garbage collector (`gc.callbacks`), with
  how many objects were frozen by then (`gc.get_freeze_count`);
- for every dataclass made (`dataclasses._process_class`, where a dataclass compiles its
  methods).
Nothing else of the daemon is changed: the console script is run as it is, with `main`, `ready`
and that one function of `dataclasses` wrapped only to say when they run.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import importlib
import runpy
import sys
from collections.abc import Callable
from typing import Any


def _said(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        print(f"start-watch: collection generation={info['generation']} "
              f"frozen={gc.get_freeze_count()}", file=sys.stderr, flush=True)


def _saying(line: Callable[..., str], function: Any) -> Any:
    """`function`, writing `line(*args)` each time it is called, before it runs."""
    @functools.wraps(function)
    def said(*args: Any, **kwargs: Any) -> Any:
        print(line(*args), file=sys.stderr, flush=True)
        return function(*args, **kwargs)
    return said


# watching before tabletap is imported, so that no dataclass of its goes unsaid
gc.callbacks.append(_said)
dataclasses._process_class = _saying(
    lambda cls, *_: f"start-watch: dataclass {cls.__module__}.{cls.__qualname__}",
    dataclasses._process_class)
cli = importlib.import_module("tabletap.controller.cli")
cli.main = _saying(lambda *_: "start-watch: main entered", cli.main)
service = importlib.import_module("tabletap.controller.table.service")
service.Notifier.ready = _saying(lambda *_: "start-watch: ready", service.Notifier.ready)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
