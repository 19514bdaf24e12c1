"""Real `tabletap run --sim` processes for the reliability tests (and the soak harness)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

TABLETAP = [sys.executable, "-m", "tabletap.controller.cli"]
ROOT = Path(__file__).resolve().parents[2]


def magic_keys_config(tmp_path: Path, seed: int = 11) -> Path:
    from tests.core.helpers import FAKES

    cfg = tmp_path / "table.yaml"
    cfg.write_text(
        f"state_dir: {tmp_path / 'state'}\ngame: magic-keys\nplayers: [ana, ben, cleo]\n"
        f"seed: {seed}\nsetup: {{fake_keys: {json.dumps(FAKES)}}}\n"
    )
    return cfg


def start(cfg: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*TABLETAP, "run", "--sim", "--config", str(cfg), *extra],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=ROOT,
    )


def wait_ready(proc: subprocess.Popen[str], timeout: float = 30.0) -> list[str]:
    """Read the daemon's console until it says it is ready; the lines read so far."""
    assert proc.stdout is not None
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"the daemon ended before it was ready: {seen}")
        seen.append(line)
        if line.startswith("simulated table ready"):
            return seen
    raise AssertionError(f"the daemon was not ready in {timeout} s")


def send(proc: subprocess.Popen[str], line: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TABLETAP, *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=timeout)
