"""`tabletap content check PACK`: is a Key to the Kingdom content pack playable and whole?

PACK is a shipped pack's name (`default`) or the folder of a maker's own pack. Problems that
stop the game from loading it are printed with file, line and key (exit 2); a pack that loads
but has unreachable or inconsistent content gets one line per finding (exit 1); a clean pack
says so (exit 0).
"""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("content", help="check a Key to the Kingdom content pack")
    inner = p.add_subparsers(dest="content_command", required=True)
    c = inner.add_parser("check", help="validate a pack and report what is unreachable or "
                         "inconsistent")
    c.add_argument("pack", metavar="PACK", help="a shipped pack's name or your pack's folder")
    c.set_defaults(func=check)


def check(args: argparse.Namespace) -> int:
    from tabletap.controller.rules.key_to_the_kingdom.check import check_pack
    from tabletap.controller.rules.key_to_the_kingdom.pack import PackError, load_pack

    try:
        pack = load_pack(args.pack)
    except PackError as exc:
        print(f"tabletap: {exc}", file=sys.stderr)
        return 2
    findings = check_pack(pack)
    for finding in findings:
        print(finding)
    counts = (f"{len(pack.lands)} lands, {sum(len(s) for s in pack.lands.values())} spaces, "
              f"{len(pack.adventures)} adventures, {len(pack.whirlpools)} whirlpools, "
              f"{len(pack.cards)} event cards, {len(pack.heroes)} heroes")
    guesses = sum(1 for s in pack.status.values() if s == "guess")
    if findings:
        print(f"{pack.name}: {len(findings)} problem(s) ({counts})")
        return 1
    print(f"{pack.name}: playable and whole ({counts}; {guesses} of {len(pack.status)} "
          "entries are guesses)")
    return 0
