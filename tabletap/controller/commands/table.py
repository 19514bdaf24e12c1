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

from tabletap.controller.commands.common import add_config_argument, ask_daemon, config_or_exit


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("new", help="start a new game at the running table")
    add_config_argument(p)
    p.add_argument("game", help="magic-keys, oversiege, kingdomino, ...")
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


def parse_options(items: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--option {item!r}: expected KEY=VALUE")
        options[key] = yaml.safe_load(value)
    return options


def new(args: argparse.Namespace) -> int:
    config = config_or_exit(args)
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    try:
        options = parse_options(args.option)
    except (ValueError, yaml.YAMLError) as exc:
        print(f"tabletap: {exc}", file=sys.stderr)
        return 2
    request: dict[str, Any] = {"game": args.game, "players": players}
    if args.option:
        request["options"] = options
    return _answer(ask_daemon(config, {"new": request}))


def _simple(args: argparse.Namespace, kind: str) -> int:
    return _answer(ask_daemon(config_or_exit(args), {kind: True}))


def _answer(reply: dict[str, Any]) -> int:
    """Print what the table said; exit 0 accepted, 1 refused by the table, 2 not understood."""
    if not reply.get("ok"):
        print(f"tabletap: {reply.get('error')}", file=sys.stderr)
        return 2
    for text in reply.get("events", []):
        print(text)
    if reply.get("accepted") is False:
        print(f"refused ({reply.get('rejected')}): {reply.get('message')}")
        return 1
    return 0
