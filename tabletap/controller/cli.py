"""The `tabletap` command line: one parser, sub-commands in controller.commands."""

from __future__ import annotations

import argparse
import importlib
import sys
from importlib.metadata import entry_points, version

from tabletap.controller.commands import COMMANDS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tabletap",
        description="Companion controller for augmented physical board games.",
    )
    parser.add_argument("--version", action="version", version=f"tabletap {version('tabletap')}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"tabletap.controller.commands.{name}").register(sub)
    # Commands that live above controller (the simulator's) register through entry points,
    # so controller never imports sim.
    for ep in sorted(entry_points(group="tabletap.commands"), key=lambda e: e.name):
        ep.load()(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
