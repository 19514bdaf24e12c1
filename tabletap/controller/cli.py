"""The `tabletap` command line: one parser, sub-commands in controller.commands.

Only the command on the command line is imported and registered in full; the others appear as
one-line entries (commands.SUMMARIES), enough for `tabletap --help` and for argparse to name
them. Commands that live above controller (the simulator's) register through entry points, so
controller never imports sim; those are looked up only when the command is not a built-in.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from tabletap import __version__
from tabletap.controller import collector
from tabletap.controller.commands import COMMANDS, SUMMARIES, module_of


def _command_in(argv: list[str]) -> str | None:
    """The sub-command named on the command line (the top level has no options but -h)."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser for `argv`; with None, every command registered in full (slow, complete)."""
    parser = argparse.ArgumentParser(
        prog="tabletap",
        description="Companion controller for augmented physical board games.",
    )
    parser.add_argument("--version", action="version", version=f"tabletap {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    wanted = None if argv is None else _command_in(argv)
    wanted_module = module_of(wanted) if wanted in COMMANDS else None
    for module in dict.fromkeys(module_of(name) for name in COMMANDS):
        if argv is None or module == wanted_module:
            importlib.import_module(f"tabletap.controller.commands.{module}").register(sub)
    for name in COMMANDS:
        if argv is not None and module_of(name) != wanted_module:
            sub.add_parser(name, help=SUMMARIES[name], add_help=False)
    if argv is None or wanted not in COMMANDS:
        from importlib.metadata import entry_points

        for ep in sorted(entry_points(group="tabletap.commands"), key=lambda e: e.name):
            ep.load()(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    # Imports and the parser make long-lived objects, not garbage (controller/collector.py);
    # the daemon holds the collector on to its READY (`settles_collector`) and settles it then.
    collector.hold()
    try:
        parser = build_parser(argv)
        args = parser.parse_args(argv)
        if not getattr(args, "settles_collector", False):
            collector.release()
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    finally:
        collector.release()  # a start that failed before READY, a usage error, --help


if __name__ == "__main__":
    sys.exit(main())
