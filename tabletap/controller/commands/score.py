"""`tabletap score GAME FILE [--json]`: score a finished position written in a file.

A game that has such files gives its spec a `score_file` (controller.games.spec): its own flags
and how to score; this command only finds it by name. The file formats are in
docs/CONTRACTS.md.
"""

from __future__ import annotations

import argparse

from tabletap.controller.games import registry


def _scorers() -> dict[str, registry.GameSpec]:
    return {spec.name: spec for spec in registry.games() if spec.score_file is not None}


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    scorers = _scorers()
    p = sub.add_parser("score", help="score a finished position written in a file (a kingdom "
                       "file, say)")
    what = "; ".join(f"{n}: {s.score_file.what}" for n, s in scorers.items()  # type: ignore[union-attr]
                     ) or "no installed game has position files"
    p.add_argument("game", choices=sorted(scorers), help=f"the game ({what})")
    p.add_argument("file", metavar="FILE", help="the position's file (docs/CONTRACTS.md)")
    p.add_argument("--json", action="store_true", help="print the breakdown as JSON")
    for spec in scorers.values():
        assert spec.score_file is not None
        spec.score_file.add_arguments(p)
    p.set_defaults(func=score)


def score(args: argparse.Namespace) -> int:
    spec = registry.game(args.game)
    assert spec.score_file is not None
    return spec.score_file.run(args)
