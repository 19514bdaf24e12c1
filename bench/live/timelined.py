"""`python bench/live/timelined.py TABLETAP ARGS...`: `tabletap` stamping the steps of a tap.

Run by bench/live/timeline.py as the daemon's prefix (rig.py). Each step in STEPS is wrapped so
that the monotonic clock (the machine's, which the bench's own stamps share) is noted as the
step begins or ends, with the thread; on SIGUSR1 the stamps so far are written to
$TIMELINE_OUT as a JSON list of [seconds, step]. Nothing else of the daemon changes, and a
stamp costs a clock read and a list append.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

# (module, function, when: "in" or "out", step's name; a step is only stamped when `keep`
# accepts the call's arguments and result, e.g. the Pico link's commands, not its pings)
STEPS: list[tuple[str, str, str, str]] = [
    ("tabletap.hw.pn532.reader", "Pn532Reader._armed_result", "out", "listed"),
    ("tabletap.hw.pn532.reader", "Pn532Reader._read_ndef", "out", "ndef"),
    ("tabletap.controller.table.identity", "Identifier.identify", "out", "identified"),
    ("tabletap.controller.table.session", "TableSession.handle", "in", "rules"),
    ("tabletap.controller.state.journal", "Journal.append", "in", "journal"),
    ("tabletap.controller.state.durable", "DurableRecord.advance", "in", "fsynced"),
    ("tabletap.controller.state.durable", "DurableRecord.advance", "out", "recorded"),
    ("tabletap.hw.serial_link.link", "BoardLink.submit", "in", "queued"),
    ("tabletap.hw.serial_link.link", "BoardLink._send", "in", "sent"),
    ("tabletap.controller.table.session", "TableSession.tell", "in", "told"),
]


def _keep(step: str, args: tuple[Any, ...], result: Any) -> bool:
    if step == "listed":
        return bool(result)  # the armed listing answered (None: still waiting)
    if step == "queued":
        return args[1].get("op") == "latch"
    if step == "sent":
        return args[1] == "cmd"
    return True


stamps: list[tuple[float, str]] = []


def _wrap(module: str, qualname: str, when: str, step: str) -> None:
    owner: Any = importlib.import_module(module)
    *path, name = qualname.split(".")
    for part in path:
        owner = getattr(owner, part)
    fn: Callable[..., Any] = getattr(owner, name)

    @functools.wraps(fn)
    def stamped(*args: Any, **kwargs: Any) -> Any:
        if when == "in" and _keep(step, args, None):
            stamps.append((time.monotonic(), step))
        result = fn(*args, **kwargs)
        if when == "out" and _keep(step, args, result):
            stamps.append((time.monotonic(), step))
        return result

    setattr(owner, name, stamped)


def _write(*_: object) -> None:
    with open(os.environ["TIMELINE_OUT"], "w", encoding="utf-8") as out:
        json.dump(stamps, out)


def main() -> int:
    signal.signal(signal.SIGUSR1, _write)
    for module, qualname, when, step in STEPS:
        _wrap(module, qualname, when, step)
    sys.argv = sys.argv[1:]  # as if `tabletap ...` had been run
    from tabletap.controller.cli import main as tabletap

    return tabletap()


if __name__ == "__main__":
    raise SystemExit(main())
