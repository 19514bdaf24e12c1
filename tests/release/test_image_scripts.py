"""Every shell script of the image recipe passes shellcheck (the recipe's scripts and the box's
own, found by their `#!` line, so a new one is checked without being listed here)."""

from __future__ import annotations

import subprocess

from tests.release.tools import IMAGE, REPO, tool


def shell_scripts() -> list[str]:
    found = []
    for path in sorted(IMAGE.rglob("*")):
        if not path.is_file() or path.suffix in {".py", ".yaml", ".md", ".txt"}:
            continue
        head = path.read_bytes()[:64]
        if head.startswith((b"#!/bin/bash", b"#!/bin/sh", b"#!/usr/bin/env bash")) \
                or path.name == "layout.sh":
            found.append(str(path))
    return found


def test_every_image_script_passes_shellcheck():
    scripts = shell_scripts()
    assert any(s.endswith("build.sh") for s in scripts) and any(
        s.endswith("firstboot") for s in scripts)
    out = subprocess.run([tool("shellcheck"), "-x", *scripts], cwd=REPO, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stdout
