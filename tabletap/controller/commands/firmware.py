"""`tabletap firmware flash [--port P] [--dry-run]`: copy the Pico firmware with mpremote.

The firmware is the `firmware` package next to this tabletap (so it always speaks this host's
protocol version). mpremote is the standard MicroPython tool; it is run as a program, so the
controller imports no serial library. main.py is copied last: a flash cut short leaves the old
entry point, not a new one missing its modules.

A Pico already running this firmware ignores Ctrl-C and runs a watchdog, so mpremote could not
get its REPL; the flash therefore first asks it (the `repl` op, through the host's own link, run
as the program `python -m hw.serial_link.repl`) to reset into the REPL, and waits for it to come
back on USB. A board that does not answer is taken to be plain MicroPython.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

from tabletap.controller.commands.common import (
    STOP_FIRST,
    add_config_argument,
    config_or_exit,
    config_source,
    table_running,
)
from tabletap.controller.settings.config import load_config


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("firmware", help="the Pico's firmware (serial wiring)")
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True
    flash = verbs.add_parser(
        "flash", help="copy the firmware to a connected Pico with mpremote",
        description="Copy the firmware to a connected Pico with mpremote. A Pico running "
                    "tabletap's firmware is first asked to reset into MicroPython's REPL. "
                    f"If nothing works: {BOOTSEL}.")
    flash.add_argument("--port", help="the Pico's serial port (default: serial.port from the "
                                      "config, else mpremote finds it)")
    flash.add_argument("--dry-run", action="store_true",
                       help="print the mpremote command instead of running it")
    add_config_argument(flash)
    flash.set_defaults(func=flash_command)


BOOTSEL = ("hold the Pico's BOOTSEL button while plugging it in, copy the MicroPython UF2 "
           "(micropython.org/download/RPI_PICO) to the RPI-RP2 drive that appears, then run "
           "tabletap firmware flash again")
REPL_TIMEOUT_S = 30  # the whole hand-over: hello, the repl op, the board back on USB


def firmware_files() -> list[Path]:
    """The modules to copy, main.py last."""
    spec = find_spec("tabletap.firmware")  # finds the folder without running any of it
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the firmware folder is not installed with this tabletap")
    folder = Path(next(iter(spec.submodule_search_locations)))
    files = sorted(p for p in folder.glob("*.py") if p.name != "__init__.py")
    return sorted(files, key=lambda p: p.name == "main.py")


def mpremote_program() -> str | None:
    """mpremote on PATH, else the one installed beside this Python (a venv not activated)."""
    found = shutil.which("mpremote")
    if found:
        return found
    beside = Path(sys.executable).parent / "mpremote"
    return str(beside) if beside.exists() else None


def flash_argv(program: str, port: str, files: list[Path]) -> list[str]:
    return [program, "connect", port, "fs", "cp", *map(str, files), ":", "+", "reset"]


def repl_argv(port: str) -> list[str]:
    program = [sys.executable, "-m", "tabletap.hw.serial_link.repl"]
    return [*program, *([] if port == "auto" else [port])]


def request_repl(port: str) -> bool:
    """Ask a board running tabletap's firmware to reset into the REPL; False if it would not."""
    root = str(Path(__file__).resolve().parents[3])  # the folder holding the tabletap package
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (root, os.environ.get("PYTHONPATH")) if p))
    try:
        done = subprocess.run(repl_argv(port), check=False, env=env, timeout=REPL_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        print(f"tabletap: the board did not hand over its REPL within {REPL_TIMEOUT_S} s; "
              f"{BOOTSEL}", file=sys.stderr)
        return False
    return done.returncode == 0


def flash_blocked(args: argparse.Namespace) -> str | None:
    """Why the flash must wait, when the table's daemon runs: it holds the Pico's port, and
    mpremote's bytes would land in the middle of its link (docs/CONTRACTS.md, "Processes").
    None when no daemon holds the config's state folder, or the config cannot be read (then
    the flash goes on: a broken config must not stop a maker from mending the board)."""
    try:
        config = load_config(config_source(args))
    except Exception:  # noqa: BLE001 - any config trouble: nothing to ask
        return None
    running = table_running(config)
    if running is None:
        return None
    return f"{running} and talks to the Pico: flash with the table stopped; {STOP_FIRST}"


def flash_command(args: argparse.Namespace) -> int:
    if not args.dry_run and (why := flash_blocked(args)) is not None:
        print(f"tabletap: {why}", file=sys.stderr)
        return 1
    port = args.port
    if port is None:
        port = config_or_exit(args).serial.port if args.config else None
    port = port or "auto"
    files = firmware_files()
    program = mpremote_program()
    if program is None:
        if not args.dry_run:
            print("tabletap: mpremote is not installed; pip install mpremote", file=sys.stderr)
            return 2
        program = "mpremote"
    argv = flash_argv(program, port, files)
    print(shlex.join(argv))
    if args.dry_run:
        return 0
    if not request_repl(port):
        return 1
    done = subprocess.run(argv, check=False)
    if done.returncode != 0:
        print(f"tabletap: mpremote failed (exit {done.returncode}); is the Pico plugged in and "
              "running MicroPython, and is the port free (stop the tabletap service first)? "
              f"If it still fails: {BOOTSEL}", file=sys.stderr)
        return 1
    print(f"flashed {len(files)} files to {port}; the board has restarted")
    return 0
