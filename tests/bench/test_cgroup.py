"""bench.live.cgroup: the quota that stands a tenth of a core in for a Pi Zero 2 W must bite.

A cgroup made but not enforced would put full-speed figures under the tenth's keys, so the
bench reports `stretch` beside each speed and this checks it on this machine's own cgroups
(root only; cgroup v2 was checked in the image's trixie under qemu: docs/BENCHMARKS.md)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.live import cgroup
from bench.live.cgroup import Quota, QuotaUnavailable, bites, stretch


@pytest.fixture
def tenth() -> Iterator[Quota]:
    if os.geteuid() != 0:
        pytest.skip("a CPU quota needs root")
    try:
        quota = Quota.make("tabletap-test-tenth", 0.10)
    except QuotaUnavailable as exc:
        pytest.skip(str(exc))
    yield quota
    quota.remove()


def _throttled(quota: Quota) -> int:
    """The periods in which the cgroup ran out of its quota (cpu.stat, v1 and v2 alike)."""
    fields = (quota.path / "cpu.stat").read_text().split()
    return int(dict(zip(fields[::2], fields[1::2], strict=True))["nr_throttled"])


def test_a_child_spinning_under_a_tenth_is_throttled_to_about_a_tenth(tenth: Quota) -> None:
    before = _throttled(tenth)
    slowed = stretch(tenth, cpu=0.1)
    # The kernel gives the cgroup 1 ms of each 10 ms period: the child, which only computes,
    # is stopped in nearly every period, and takes about ten wall seconds per CPU second.
    # More on a loaded machine, never much less (one period's overrun at most).
    assert _throttled(tenth) - before >= 50
    assert slowed >= 6 and bites(0.10, slowed)


def test_a_quota_that_left_the_child_at_full_speed_is_not_called_a_tenth() -> None:
    # what `bench live` warns of, and `python3 bench/live/cgroup.py` exits 1 on: a cgroup
    # made but not enforced (the figures under its name would be full speed's)
    assert not bites(0.10, 1.0) and not bites(0.25, 1.9)
    assert bites(0.10, 9.6) and bites(0.25, 3.9)


def test_the_quota_is_removed_once_its_child_is_gone(tenth: Quota) -> None:
    stretch(tenth, cpu=0.01)
    tenth.remove()
    assert not tenth.path.exists()


def test_a_user_without_root_is_told_the_quota_needs_it() -> None:
    # bench/live/cgroup.py runs alone (stdlib only), so the system's Python runs it as nobody
    system_python = Path("/usr/bin/python3")
    if os.geteuid() != 0 or not system_python.exists():
        pytest.skip("runs the check as another user: needs root and /usr/bin/python3")
    script = Path(cgroup.__file__)
    done = subprocess.run([str(system_python), str(script)], user=65534, group=65534,
                          capture_output=True, text=True, timeout=60, cwd="/")
    if "Permission denied" in done.stderr and str(script) in done.stderr:
        pytest.skip(f"nobody cannot read {script}")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "a CPU quota needs root: sudo make bench" in done.stdout
