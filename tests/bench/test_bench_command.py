"""`python -m bench`: a name that is no benchmark module is a usage error with the list of
names, before any module runs or bench.json is written; before, it was an ImportError's
traceback (`python -m bench --help` too)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=60)


def test_an_unknown_module_is_a_usage_error_naming_the_modules() -> None:
    json_file = ROOT / "bench.json"
    before = json_file.stat().st_mtime_ns if json_file.exists() else None
    done = _bench("core", "nope")
    assert done.returncode == 2
    assert "no benchmark module called 'nope'" in done.stderr
    assert "live" in done.stderr and "kingdomino" in done.stderr  # the names to choose from
    assert "Traceback" not in done.stderr and "== core" not in done.stdout  # nothing ran
    assert (json_file.stat().st_mtime_ns if json_file.exists() else None) == before


def test_help_lists_the_modules() -> None:
    done = _bench("--help")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "MODULE" in done.stdout and "oversiege" in done.stdout
