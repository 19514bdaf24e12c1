"""The page reads its settings in a child (web/settings.py): the config is checked as every
command checks it, and the YAML parser stays out of the page's process (issue 23's page RSS
goal). Real processes: a real table and `tabletap web`, its memory map read from /proc."""

from __future__ import annotations

import subprocess
from pathlib import Path

import yaml

from tests.web.table import ENV, TABLETAP, Table


def _mapped(pid: int) -> str:
    return Path(f"/proc/{pid}/maps").read_text()


def test_the_serving_page_holds_no_pyyaml(tmp_path: Path) -> None:
    table = Table(tmp_path)
    try:
        assert table.ask({"state": True})["ok"]  # the page is up (Table waited) and the daemon
        page, daemon = _mapped(table.web.pid), _mapped(table.daemon.pid)
        # PyYAML's libyaml binding is an extension module: mapped iff imported. The daemon
        # holds it (it reads the config itself), which shows the check can fail. (msgspec, the
        # config's checker, is in both: it is also the base of the values the page shows, the
        # games' specs and the table's sentences, and costs the page under 4 MiB.)
        assert "/_yaml.cpython" in daemon and "/_yaml.cpython" not in page
    finally:
        table.stop()


def test_a_bad_config_stops_the_page_with_the_file_line_and_key(tmp_path: Path) -> None:
    config = tmp_path / "table.yaml"
    config.write_text(yaml.safe_dump({"web": {"enabled": True}}) + "web_:\n  port: 80\n")
    done = subprocess.run([*TABLETAP, "web", "--config", str(config)], capture_output=True,
                          text=True, env=ENV, cwd=tmp_path, timeout=60)
    assert done.returncode == 2
    assert f"{config}:" in done.stderr and "web_" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_a_page_that_is_off_says_so_and_exits_0(tmp_path: Path) -> None:
    config = tmp_path / "table.yaml"
    config.write_text(yaml.safe_dump({"web": {"enabled": False}}))
    done = subprocess.run([*TABLETAP, "web", "--config", str(config)], capture_output=True,
                          text=True, env=ENV, cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "the page is off" in done.stderr
