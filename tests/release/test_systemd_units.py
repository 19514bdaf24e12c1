"""The units pass `systemd-analyze verify`, stay within the project's exposure bound of 2.0, and
do not restart a daemon whose config or wiring cannot start."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.release.tools import IMAGE_UNITS, UNITS, tool

EXPOSURE_BOUND = 2.0
DAEMONS = ["tabletap.service", "tabletap-web.service"]


def _root_with_units(tmp_path: Path) -> Path:
    """A folder laid out like the image's root: the host's system units, ours, the programs."""
    root = tmp_path / "root"
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    ours = root / "etc/systemd/system"
    ours.mkdir(parents=True)
    for unit in [*UNITS.glob("*.service"), *IMAGE_UNITS.glob("*.service")]:
        shutil.copy(unit, ours / unit.name)
    for program in ["opt/tabletap/venv/bin/tabletap", "usr/lib/tabletap/firstboot",
                    "usr/lib/tabletap/alert", "usr/lib/tabletap/grow-state"]:
        (root / program).parent.mkdir(parents=True, exist_ok=True)
        (root / program).write_text("#!/bin/sh\n")
        (root / program).chmod(0o755)
    return root


def test_units_pass_systemd_analyze_verify(tmp_path: Path):
    analyze = tool("systemd-analyze")
    root = _root_with_units(tmp_path)
    units = sorted(p.name for p in (root / "etc/systemd/system").glob("tabletap*.service"))
    assert units == ["tabletap-alert.service", "tabletap-firstboot.service",
                     "tabletap-grow-state.service", "tabletap-web.service", "tabletap.service"]
    out = subprocess.run([analyze, "verify", f"--root={root}",
                          *(f"etc/systemd/system/{u}" for u in units)],
                         cwd=root, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    ours = [line for line in out.stderr.splitlines() if "tabletap" in line]
    assert ours == [], "\n".join(ours)


@pytest.mark.parametrize("unit", DAEMONS)
def test_exposure_within_bound(unit: str):
    analyze = tool("systemd-analyze")
    out = subprocess.run([analyze, "security", "--offline=yes", "--no-pager",
                          str(UNITS / unit)], capture_output=True, text=True)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", out.stdout)
    assert found, out.stdout + out.stderr
    exposure = float(found.group(1))
    assert exposure <= EXPOSURE_BOUND
    # The unit's comment states the rating it gets, so a reader sees the same number.
    assert f"rates this unit {exposure}" in (UNITS / unit).read_text()


def _service(unit: str) -> dict[str, list[str]]:
    keys: dict[str, list[str]] = {}
    for line in (UNITS / unit).read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            keys.setdefault(key.strip(), []).append(value.strip())
    return keys


def test_daemon_is_notify_with_watchdog_and_no_restart_on_config_errors():
    keys = _service("tabletap.service")
    assert keys["Type"] == ["notify"]
    assert float(keys["WatchdogSec"][0]) > 0
    assert keys["Restart"] == ["on-failure"]
    # `tabletap run` exits 2 on a config error or wiring that cannot start (see
    # test_config_errors): that status is not restarted.
    assert keys["RestartPreventExitStatus"] == ["2"]
    assert keys["User"] == ["tabletap"]
    assert keys["OnFailure"] == ["tabletap-alert.service"]
