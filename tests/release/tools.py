"""The host tools the release checks run (shellcheck, systemd-analyze): skipped with a notice
on a machine without them, required in CI (`make test` installs them when it runs as root)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
IMAGE = REPO / "image"
UNITS = REPO / "tabletap" / "hw" / "systemd"
IMAGE_UNITS = IMAGE / "rootfs" / "usr" / "lib" / "systemd" / "system"


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is missing (apt-get install {name})")
        pytest.skip(f"{name} is not installed (apt-get install {name})")
    return path
