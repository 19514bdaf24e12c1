"""The daemon's start counted in instructions: `tabletap run` under valgrind's callgrind, its
count dumped the moment it says READY=1 (`callgrind_control --dump`).

Why beside the wall-clock figures: this machine's speed moves by two to four times within
minutes (the same `import yaml` took 12.6 ms and 47 ms a quarter of an hour apart, with nothing
else running here), so a start-up cut of ten or twenty per cent cannot be seen in `ready_s`
or `tenth_ready_s` from one run to the next. The count is the same for the same code, inputs
and interpreter, whatever else the machine does; it is not time (an instruction of the
interpreter's loop and one of a C library's cost differently), so it compares trees, not
machines. The start at a tenth of a core is CPU-bound (its wall time is about ten times its
CPU time), so what cuts this count cuts `tenth_ready_s` in proportion.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from bench.live.rig import Rig

# Under callgrind the daemon runs some fifty times slower: its start takes tens of seconds.
READY_TIMEOUT = 600


class NoValgrind(RuntimeError):
    """valgrind (with callgrind_control) is not installed here."""


def count_of(dump: str) -> int:
    """The instructions (Ir) a callgrind dump holds: its `summary:` line, else `totals:`."""
    for key in ("summary", "totals"):
        found = re.search(rf"^{key}:\s+(\d+)", dump, re.MULTILINE)
        if found:
            return int(found.group(1))
    raise ValueError("no summary or totals line in the callgrind dump")


def _tools() -> tuple[str, str]:
    valgrind, control = shutil.which("valgrind"), shutil.which("callgrind_control")
    if valgrind is None or control is None:
        raise NoValgrind("valgrind is not installed (apt-get install valgrind)")
    return valgrind, control


def counted_start(rig: Rig, new: bool) -> int:
    """Instructions of one start of `rig`'s daemon (`--new` or resuming), exec to READY=1; the
    daemon is stopped after."""
    valgrind, control = _tools()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        rig.start(new=new, ready_timeout=READY_TIMEOUT,
                  prefix=[valgrind, "--tool=callgrind", f"--callgrind-out-file={out}",
                          "--dump-instr=no"])
        subprocess.run([control, "--dump", str(rig.pid)], check=True,
                       capture_output=True, timeout=READY_TIMEOUT)
        dumps = _wait_for_dump(out)
        rig.stop()
        return count_of(dumps[0].read_text(encoding="utf-8", errors="replace"))


def ready_instructions() -> int:
    """Instructions of a resuming `tabletap run` from exec to READY=1 (a first start makes the
    game and the bytecode cache, then a second start is counted)."""
    _tools()
    rig = Rig()
    try:
        rig.start(new=True)
        rig.stop()
        print("  counting a start's instructions under callgrind (10-30 s)...", flush=True)
        return counted_start(rig, new=False)
    finally:
        rig.close()


def _wait_for_dump(out: Path, limit: float = 60) -> list[Path]:
    """The dump callgrind_control asked for (`<out>.1`), once it is written whole."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        dumps = sorted(out.parent.glob(out.name + ".*"))
        if dumps and "totals:" in dumps[0].read_text(encoding="utf-8", errors="replace"):
            return dumps
        time.sleep(0.2)
    raise TimeoutError(f"callgrind wrote no dump at READY within {limit:g} s")
