"""`tabletap do ACTION [KEY=VALUE...]`: an action entered by hand at a running table.

`tabletap do place domino=12 at=[2,3] facing=east` sends `{action: place, domino: 12, at: [2, 3],
facing: east}` to the daemon, exactly like a scenario's `do:` step. Values are read as YAML.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import yaml

from tabletap.controller.commands.common import (
    add_config_argument,
    ask_daemon,
    config_or_exit,
    key_values,
    print_reply,
)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("do", help="enter an action by hand at the running table")
    add_config_argument(p)
    p.add_argument("action", help="the action, e.g. claim, place, discard, orient, move")
    p.add_argument("fields", nargs="*", metavar="KEY=VALUE")
    p.set_defaults(func=do)


def parse_fields(action: str, fields: list[str]) -> dict[str, Any]:
    return {"action": action, **key_values(fields)}


def do(args: argparse.Namespace) -> int:
    config = config_or_exit(args)
    try:
        data = parse_fields(args.action, args.fields)
    except (ValueError, yaml.YAMLError) as exc:
        print(f"tabletap: {exc}", file=sys.stderr)
        return 2
    try:
        reply = ask_daemon(config, {"do": data})
    except TypeError as exc:  # a value YAML read as something JSON cannot carry (a date)
        print(f"tabletap: {exc}; quote the value", file=sys.stderr)
        return 2
    return print_reply(reply)
