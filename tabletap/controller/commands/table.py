"""`tabletap new`, `tabletap abandon`, `tabletap undo`: what the family does with game cards
and buttons, from a shell.

They ask the running daemon over its control socket (requests.py) and never start a daemon of
their own: two processes writing one journal is how a game gets corrupted.
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
    p = sub.add_parser("new", help="start a new game at the running table")
    add_config_argument(p)
    p.add_argument("game", help="the game's name, as its game card names it")
    p.add_argument("--players", required=True,
                   help="comma-separated seats in turn order, e.g. ana,ben,cleo")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. dice=digital (repeatable; default: the config's "
                   "game_options for the game)")
    p.set_defaults(func=new)
    p = sub.add_parser("abandon", help="abandon the game under way (it is archived)")
    add_config_argument(p)
    p.set_defaults(func=lambda args: _simple(args, "abandon"))
    p = sub.add_parser("undo", help="take back the last action of the current turn")
    add_config_argument(p)
    p.set_defaults(func=lambda args: _simple(args, "undo"))


def new(args: argparse.Namespace) -> int:
    config = config_or_exit(args)
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    try:
        options = key_values(args.option)
    except (ValueError, yaml.YAMLError) as exc:
        print(f"tabletap: {exc}", file=sys.stderr)
        return 2
    request: dict[str, Any] = {"game": args.game, "players": players}
    if args.option:
        request["options"] = options
    return print_reply(ask_daemon(config, {"new": request}))


def _simple(args: argparse.Namespace, kind: str) -> int:
    return print_reply(ask_daemon(config_or_exit(args), {kind: True}))
