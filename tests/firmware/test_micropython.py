"""The firmware under real MicroPython 1.27 (WebAssembly, on Node.js), and compiled by mpy-cross.

`make test` installs the npm package first and sets TABLETAP_REQUIRE_MICROPYTHON=1, so there a
missing Node or package is a failure; a bare `pytest` on a machine without them skips.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tabletap.firmware import protocol

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "tabletap" / "firmware"
PACKAGE = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
REQUIRED = os.environ.get("TABLETAP_REQUIRE_MICROPYTHON") == "1"


def firmware_modules() -> list[Path]:
    return sorted(p for p in FIRMWARE.glob("*.py") if p.name != "__init__.py")


def _need(ok: bool, why: str) -> None:
    if not ok:
        if REQUIRED:
            pytest.fail(why)
        pytest.skip(why)


@pytest.fixture(scope="module")
def micropython_output() -> str:
    _need(shutil.which("node") is not None, "node is not installed")
    _need(PACKAGE.is_dir(), "run `npm ci` (make test does) to install MicroPython for Node")
    proc = subprocess.run(["node", str(ROOT / "tests/firmware/micropython/run.mjs"), str(ROOT)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout


def test_firmware_checks_pass_under_micropython(micropython_output: str) -> None:
    assert micropython_output.rstrip().endswith("ALL OK micropython"), micropython_output[-2000:]


def test_micropython_frames_decode_on_the_host(micropython_output: str) -> None:
    """Both ends run the same protocol module; frames MicroPython built decode in CPython."""
    frames = [bytes.fromhex(line.split()[1]) for line in micropython_output.splitlines()
              if line.startswith("FRAME ")]
    assert len(frames) == 5
    decoded = protocol.Decoder().feed(b"".join(frames))
    assert decoded == [
        ("hello", 0, {"host": 123456}),
        ("cmd", 7, {"op": "latch", "open": True, "h": 1, "b": 2}),
        ("cmd", 8, {"op": "show", "pattern": "turn", "colour": "blue", "h": 1, "b": 2}),
        ("ack", 8, {"ok": False, "err": "unknown pattern x"}),
        ("evt", 3, {"b": 99, "name": "end-turn", "kind": "hold"}),
    ]


@pytest.mark.parametrize("module", firmware_modules(), ids=lambda p: p.name)
def test_mpy_cross_compiles(module: Path, tmp_path: Path) -> None:
    mpy_cross = shutil.which("mpy-cross") or str(Path(sys.executable).parent / "mpy-cross")
    _need(Path(mpy_cross).exists(), "mpy-cross is not installed (pip install -e '.[dev]')")
    out = tmp_path / (module.stem + ".mpy")
    proc = subprocess.run([mpy_cross, "-o", str(out), str(module)], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert out.stat().st_size > 0
