"""`tabletap web`: the table's page on a phone (docs/WEB.md); `tabletap web pairings`: the
browsers paired with the parent card, and `--revoke ID` to unpair one.

The page lives in `tabletap.web`, a layer above the controller, so its command registers through
the `tabletap.commands` entry point (as the simulator's does): the controller never imports the
page. `tabletap --help` loads this module to list the command, so everything else is imported
when the command runs, and the daemon's own commands never load a web stack.
"""

from __future__ import annotations

import argparse
import sys
import time

from tabletap.controller.settings.path import add_config_argument


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("web", help="serve the table's page for phones (web: in the config)")
    add_config_argument(p)  # the same file the daemon reads
    p.add_argument("what", nargs="?", choices=["pairings"],
                   help="pairings: list the paired browsers instead of serving the page")
    p.add_argument("--revoke", metavar="ID", help="with pairings: unpair this browser")
    p.set_defaults(func=web)


def web(args: argparse.Namespace) -> int:
    from tabletap.web.settings import read_settings

    settings = read_settings(args)  # checked in a child: the config model stays out of the page
    if args.what == "pairings":
        return pairings(args, settings.state_dir)
    if args.revoke:
        print("tabletap: --revoke goes with `tabletap web pairings`", file=sys.stderr)
        return 2
    from tabletap.controller.table.service import setup_logging
    from tabletap.web import server

    setup_logging(settings.log_level)
    try:
        server.serve(settings)
    except server.NotEnabled as exc:
        # Not an error: a box whose maker never turned the page on. Exit 0, so its unit ends
        # quietly instead of standing "failed" in `systemctl --failed`.
        where = args.config or "the config"
        print(f"tabletap: {exc} ({where}); nothing to serve", file=sys.stderr)
        return 0
    except OSError as exc:
        print(f"tabletap: the page cannot listen on {settings.bind}:{settings.port} "
              f"({exc.strerror or exc})", file=sys.stderr)
        return 2
    return 0


def pairings(args: argparse.Namespace, state_dir: str) -> int:
    from tabletap.controller.control_socket.server import request, socket_path

    path = socket_path(state_dir)
    payload: dict[str, object] = {"revoke": args.revoke} if args.revoke else {"pairings": True}
    try:
        reply = request(path, payload)
    except OSError as exc:
        print(f"tabletap: no table is running at {path} ({exc.strerror or exc}); pairings are "
              "listed and revoked through the running daemon", file=sys.stderr)
        return 2
    if not reply.get("ok"):
        print(f"tabletap: {reply.get('error')}", file=sys.stderr)
        return 1
    if args.revoke:
        gone = reply["revoked"]
        print(f"revoked {gone['id']} ({gone['label']}): that browser can no longer change "
              "anything")
        return 0
    rows = reply.get("pairings", [])
    if not rows:
        print("no browser is paired")
    for p in rows:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(p["created"]))
        print(f"{p['id']}  {when}  {p['label']}  (confirmed with {p['card']})")
    return 0
