"""The bench's instruction count (bench/live/instructions.py) reads what callgrind wrote."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from bench.live.instructions import count_of


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_the_count_is_the_one_valgrind_reports(tmp_path):
    out = tmp_path / "callgrind.out"
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c",
         "pass"], capture_output=True, text=True, check=True, timeout=110)
    collected = re.search(r"Collected : (\d+)", run.stderr)
    assert collected is not None
    assert count_of(out.read_text(encoding="utf-8")) == int(collected.group(1)) > 1_000_000


def test_a_dump_without_a_total_is_an_error():
    with pytest.raises(ValueError, match="no summary or totals"):
        count_of("version: 1\ncreator: callgrind-3.19.0\nevents: Ir\n")
