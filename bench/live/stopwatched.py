"""`python bench/live/stopwatched.py TABLETAP ARGS...`: `tabletap` with stopwatches on its loop.

Run by bench/live/stopwatch.py as the daemon's prefix (rig.py). Each function in PARTS is
wrapped so that its callers' thread CPU (`time.thread_time()`) is added up with its calls; on
SIGUSR1 the totals so far, with the main thread's own CPU, are appended to the JSON list in
$STOPWATCH_OUT. The cyclic collector's own time is counted too, by generation (`gc.callbacks`).
Nothing else of the daemon changes.
"""

from __future__ import annotations

import functools
import gc
import importlib
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

PARTS = [
    ("tabletap.controller.table.daemon", "Daemon.tick"),
    ("tabletap.controller.table.daemon", "SupervisedReader.poll"),
    ("tabletap.controller.table.daemon", "Daemon._presence"),
    ("tabletap.controller.table.daemon", "Daemon.pause"),
    ("tabletap.controller.table.daemon", "Daemon.idle"),
    ("tabletap.controller.table.session", "TableSession.tick"),
    ("tabletap.controller.table.session", "TableSession.handle"),
    ("tabletap.controller.table.session", "TableSession.tell"),
    ("tabletap.controller.control_socket.server", "ControlServer.serve_pending"),
    ("tabletap.controller.control_socket.server", "ControlServer.answer"),
    ("tabletap.controller.control_socket.server", "ControlServer._parked"),
    ("tabletap.controller.control_socket.server", "ControlServer._read"),
    ("tabletap.controller.control_socket.server", "ControlServer._write"),
    ("tabletap.controller.control_socket.page", "WebSide.snapshot"),
    ("tabletap.controller.control_socket.page", "WebSide.current_counter"),
    ("tabletap.controller.control_socket.page", "WebSide.tick"),
    ("tabletap.controller.table.waiter", "LoopWaiter.wait"),
    ("tabletap.controller.table.waiter", "LoopWaiter._watch"),
    ("tabletap.hw.pn532.reader", "Pn532Reader.poll"),
    ("tabletap.hw.pn532.reader", "Pn532Reader._call"),
    ("tabletap.hw.pn532.reader", "Pn532Reader._send"),
    ("tabletap.hw.pn532.reader", "Pn532Reader._response"),
    ("tabletap.hw.pn532.reader", "Pn532Reader._relist"),
    ("tabletap.hw.pn532.reader", "Pn532Reader._armed_result"),
    ("tabletap.hw.pn532.reader", "Pn532Reader._arm_listing"),
    ("tabletap.controller.state.journal", "Journal.append"),
    ("tabletap.controller.state.durable", "DurableRecord.advance"),
    ("tabletap.controller.table.identity", "Identifier.identify"),
    ("logging", "Handler.handle"),
    ("tabletap.hw.serial_link.link", "BoardLink.submit"),
    ("tabletap.hw.serial_link.link", "BoardLink._service"),
]

totals: dict[str, list[float]] = {}
snapshots: list[dict[str, Any]] = []


def _wrap(module: str, qualname: str) -> None:
    owner: Any = importlib.import_module(module)
    *path, name = qualname.split(".")
    for part in path:
        owner = getattr(owner, part)
    fn: Callable[..., Any] = getattr(owner, name)
    entry = totals.setdefault(qualname, [0, 0.0])

    @functools.wraps(fn)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            entry[0] += 1
            entry[1] += time.thread_time() - started

    setattr(owner, name, timed)


_gc_started: list[float] = [0.0]


def _gc_timed(phase: str, info: dict[str, int]) -> None:
    """The cyclic collector's own time, by generation: it runs inside whatever part allocated
    last, so the parts above include it; this says how much of them it is."""
    if phase == "start":
        _gc_started[0] = time.thread_time()
        return
    entry = totals.setdefault(f"gc, generation {info['generation']}", [0, 0.0])
    entry[0] += 1
    entry[1] += time.thread_time() - _gc_started[0]


def _snapshot(*_: object) -> None:
    snapshots.append({"main": time.thread_time(),
                      "parts": {k: list(v) for k, v in totals.items()}})
    with open(os.environ["STOPWATCH_OUT"], "w", encoding="utf-8") as out:
        json.dump(snapshots, out)


def main() -> int:
    signal.signal(signal.SIGUSR1, _snapshot)
    for module, qualname in PARTS:
        _wrap(module, qualname)
    gc.callbacks.append(_gc_timed)
    sys.argv = sys.argv[1:]  # as if `tabletap ...` had been run
    from tabletap.controller.cli import main as tabletap

    return tabletap()


if __name__ == "__main__":
    raise SystemExit(main())
