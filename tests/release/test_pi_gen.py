"""The pi-gen stage, checked statically: its package archive cannot be reached from our build
machines. The files pi-gen looks for are there and every shell script passes shellcheck."""

from __future__ import annotations

import os
import subprocess

from tests.release.tools import IMAGE, REPO, tool

STAGE = IMAGE / "pi-gen" / "stage-tabletap"


def test_stage_has_what_pi_gen_runs():
    # pi-gen runs a stage's prerun.sh, then per sub-stage NN-packages, NN-run.sh (executable),
    # and exports an image where EXPORT_IMAGE exists.
    assert os.access(STAGE / "prerun.sh", os.X_OK)
    assert "copy_previous" in (STAGE / "prerun.sh").read_text()
    assert (STAGE / "EXPORT_IMAGE").is_file()
    sub = STAGE / "00-tabletap"
    assert (sub / "00-packages").read_text().split()
    assert os.access(sub / "01-run.sh", os.X_OK)
    for name in ["firstboot", "alert", "tabletap-firstboot.service", "tabletap-alert.service"]:
        assert (sub / "files" / name).resolve().is_file(), f"files/{name} is a broken link"
    config = (IMAGE / "pi-gen" / "config").read_text()
    assert "stage-tabletap" in config and "ENABLE_SSH=0" in config
    assert "FIRST_USER_PASS" not in config


def test_every_image_script_passes_shellcheck():
    shellcheck = tool("shellcheck")
    scripts = [
        STAGE / "prerun.sh", STAGE / "00-tabletap" / "01-run.sh",
        IMAGE / "build.sh", IMAGE / "assemble.sh", IMAGE / "host-tools.sh", IMAGE / "layout.sh",
        IMAGE / "hook-setup.sh", IMAGE / "hook-essential.sh",
        IMAGE / "rootfs" / "usr" / "lib" / "tabletap" / "firstboot",
        IMAGE / "rootfs" / "usr" / "lib" / "tabletap" / "alert",
    ]
    out = subprocess.run([shellcheck, "-x", *map(str, scripts)], cwd=REPO,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout
