"""`bench serial`'s Pico figures: the firmware's framing timed under real MicroPython.

Like tests/firmware/test_micropython.py, a missing Node or npm package skips here and fails
where `make test` sets TABLETAP_REQUIRE_MICROPYTHON=1.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bench import serial as bench_serial
from tests.firmware.test_micropython import _need

PROTOCOL = Path(bench_serial.__file__).resolve().parent.parent / "tabletap/firmware/protocol.py"


@pytest.fixture(autouse=True)
def _micropython() -> None:
    _need(shutil.which("node") is not None, "node is not installed")
    _need(bench_serial.MICROPYTHON.is_dir(),
          "run `npm ci` (make test does) to install MicroPython for Node")


def test_the_firmware_framing_is_timed_under_micropython() -> None:
    figures = bench_serial.pico_framing()
    assert figures is not None
    assert figures["lights_bytes"] > 60  # a real command, not an empty frame
    for key in ("feed_lights_us", "feed_latch_us", "encode_ack_us"):
        assert 0 < figures[key] < 100_000


def test_a_decoder_that_loses_frames_gets_no_figure(tmp_path: Path) -> None:
    """The script checks that the protocol it times decodes the commands it sends: a broken one
    is an error, never a fast figure."""
    broken = tmp_path / "protocol.py"
    broken.write_text(PROTOCOL.read_text(encoding="utf-8").replace(
        "frames.append(frame)", "pass"), encoding="utf-8")
    with pytest.raises(subprocess.CalledProcessError):
        bench_serial.pico_framing(broken)
