"""`tabletap web` on a box whose page is off: a sentence and exit 0, so the page's unit ends
quietly rather than standing "failed" on every box that never turns the page on."""

from __future__ import annotations

import subprocess
import sys


def test_a_page_that_is_off_exits_quietly(tmp_path):
    config = tmp_path / "table.yaml"
    config.write_text(f"backend: sim\nstate_dir: {tmp_path / 'state'}\n")
    done = subprocess.run([sys.executable, "-m", "tabletap.controller.cli", "web", "--config",
                           str(config)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "the page is off" in done.stderr and "nothing to serve" in done.stderr


def test_a_config_error_still_fails(tmp_path):
    config = tmp_path / "table.yaml"
    config.write_text("backend: sim\nweb: {enabled: true, port: not-a-port}\n")
    done = subprocess.run([sys.executable, "-m", "tabletap.controller.cli", "web", "--config",
                           str(config)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "port" in done.stderr
