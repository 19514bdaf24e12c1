"""`tabletap firmware flash`: the mpremote command it runs, checked with a stand-in mpremote."""

from __future__ import annotations

import argparse
import ast
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tabletap.controller.cli import main

ROOT = Path(__file__).resolve().parents[2]
MODULES = ["board.py", "clock.py", "inputs.py", "patterns.py", "protocol.py", "servo.py"]


def test_dry_run_prints_the_exact_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["firmware", "flash", "--port", "/dev/ttyACM7", "--dry-run"]) == 0
    words = capsys.readouterr().out.split()
    board = str(ROOT / "tabletap/firmware/board.py")
    assert words[1:6] == ["connect", "/dev/ttyACM7", "fs", "cp", board]
    copied = [Path(w).name for w in words[5:-3]]
    assert copied == MODULES + ["main.py"]  # main.py last; never the package's __init__.py
    assert words[-3:] == [":", "+", "reset"]


def test_the_port_comes_from_the_config_or_mpremote_finds_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.yaml"
    config.write_text("backend: serial\nserial:\n  port: /dev/serial/by-id/usb-MicroPython-1\n")
    assert main(["firmware", "flash", "--config", str(config), "--dry-run"]) == 0
    assert " connect /dev/serial/by-id/usb-MicroPython-1 " in capsys.readouterr().out
    assert main(["firmware", "flash", "--dry-run"]) == 0
    assert " connect auto " in capsys.readouterr().out


def fake_mpremote(folder: Path, exit_code: int) -> Path:
    """A stand-in for the external tool: records its arguments and the files it was given."""
    log = folder / "calls.txt"
    script = folder / "mpremote"
    script.write_text(f"""#!{sys.executable}
import sys, pathlib
args = sys.argv[1:]
log = pathlib.Path({str(log)!r})
log.write_text(log.read_text() + repr(args) + "\\n" if log.exists() else repr(args) + "\\n")
for a in args:
    if a.endswith(".py"):
        compile(pathlib.Path(a).read_text(), a, "exec")  # the files exist and are Python
sys.exit({exit_code})
""")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return log


def run_cli(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")
    cli = [sys.executable, "-m", "tabletap.controller.cli"]
    return subprocess.run([*cli, *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=60)


def test_flash_runs_mpremote_once_with_every_file(tmp_path: Path) -> None:
    log = fake_mpremote(tmp_path, 0)
    done = run_cli(tmp_path, "firmware", "flash", "--port", "/dev/ttyACM0")
    assert done.returncode == 0, done.stderr
    (call,) = log.read_text().splitlines()
    args = ast.literal_eval(call)
    assert args[:4] == ["connect", "/dev/ttyACM0", "fs", "cp"]
    assert [Path(a).name for a in args[4:-3]] == MODULES + ["main.py"]
    assert "flashed 7 files to /dev/ttyACM0" in done.stdout


def test_a_failed_flash_says_what_to_check(tmp_path: Path) -> None:
    fake_mpremote(tmp_path, 1)
    done = run_cli(tmp_path, "firmware", "flash", "--port", "/dev/ttyACM0")
    assert done.returncode == 1
    assert "mpremote failed (exit 1)" in done.stderr and "is the port free" in done.stderr


def test_the_flash_waits_for_the_table_to_stop(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/CONTRACTS.md, "Processes": the running daemon holds the Pico's port, and mpremote's
    bytes would land in its link; the flash refuses and says to stop the table first. A dry
    run only prints the command, and a config that cannot be read stops no flash."""
    from tabletap.controller.state.lock import state_lock

    config = tmp_path / "table.yaml"
    config.write_text(f"state_dir: {tmp_path / 'state'}\nbackend: serial\n"
                      "serial:\n  port: /dev/tabletap-no-pico\n")
    with state_lock(tmp_path / "state"):
        code = main(["firmware", "flash", "--config", str(config)])
        err = capsys.readouterr().err
        assert code == 1
        assert f"the table is running (pid {os.getpid()})" in err and "systemctl stop" in err
        assert main(["firmware", "flash", "--config", str(config), "--dry-run"]) == 0
        from tabletap.controller.commands.firmware import flash_blocked

        broken = tmp_path / "broken.yaml"
        broken.write_text(f"state_dir: {tmp_path / 'state'}\nbackend: [\n")
        assert flash_blocked(argparse.Namespace(config=str(broken))) is None
        assert flash_blocked(argparse.Namespace(config=str(config))) is not None
