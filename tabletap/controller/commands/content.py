"""`tabletap content check PACK [--game GAME]`: is a content pack playable and whole?

A game whose content lives in packs gives its spec a `content` check (controller.games.spec);
PACK is a shipped pack's name (`default`) or the folder of a maker's own pack. Problems that
stop the game from loading it are printed with file, line and key (exit 2); a pack that loads
but has unreachable or inconsistent content gets one line per finding (exit 1); a clean pack
says so (exit 0). With one such game installed, --game may be left out.
"""

from __future__ import annotations

import argparse
import sys

from tabletap.controller.games import registry


def _checkers() -> list[str]:
    return [spec.name for spec in registry.games() if spec.content is not None]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    games = _checkers()
    p = sub.add_parser("content", help="check a game's content pack")
    inner = p.add_subparsers(dest="content_command", required=True)
    c = inner.add_parser("check", help="validate a pack and report what is unreachable or "
                         "inconsistent")
    c.add_argument("pack", metavar="PACK", help="a shipped pack's name or your pack's folder")
    c.add_argument("--game", choices=games, help="the game the pack is for (needed only when "
                   "more than one installed game has packs: " + (
                       ", ".join(games) or "none is installed") + ")")
    c.set_defaults(func=check)


def check(args: argparse.Namespace) -> int:
    games = _checkers()
    game = args.game or (games[0] if len(games) == 1 else None)
    if game is None:
        print(f"tabletap: content check: say which game the pack is for (--game "
              f"{'|'.join(games) or 'GAME'})", file=sys.stderr)
        return 2
    content = registry.game(game).content
    assert content is not None
    return content.check(args.pack)
