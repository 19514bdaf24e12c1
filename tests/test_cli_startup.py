"""The command line loads only the command it runs (start-up time, issue 12)."""

from __future__ import annotations

import argparse
import subprocess
import sys

from tabletap.controller.cli import build_parser
from tabletap.controller.commands import COMMANDS, SUMMARIES


def _helps(parser: argparse.ArgumentParser) -> dict[str, str]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {a.dest: a.help for a in sub._choices_actions}  # type: ignore[misc]


def test_summaries_are_the_commands_own_help_lines():
    full = _helps(build_parser())
    assert {name: full[name] for name in COMMANDS} == SUMMARIES
    assert "sim" in full  # the simulator's command, through its entry point


def test_help_lists_every_command_without_importing_them():
    code = (
        "import sys\n"
        "from tabletap.controller.cli import build_parser\n"
        "helps = build_parser(['--help'])\n"
        "loaded = [m for m in sys.modules if m.startswith('tabletap.controller.commands.')\n"
        "          or m.startswith(('tabletap.controller.rules.', 'msgspec', 'yaml'))]\n"
        "print(loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_a_command_gets_its_full_parser():
    args = build_parser(["score", "kingdomino", "k.txt", "--json"]).parse_args(
        ["score", "kingdomino", "k.txt", "--json"])
    assert args.json and args.file == "k.txt" and callable(args.func)
    args = build_parser(["sim", "run", "a.yaml"]).parse_args(["sim", "run", "a.yaml"])
    assert args.files == ["a.yaml"]
