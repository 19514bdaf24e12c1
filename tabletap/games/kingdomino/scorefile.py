"""`tabletap score kingdomino FILE [--json]`: score a finished kingdom from a kingdom file
(the spec's `score_file`, run by controller.commands.score).

The file format is docs/CONTRACTS.md's ("Kingdom files"). The scoring is the engine's own
(games.kingdomino.rules.scoring), so what this prints is what the table would count. An
impossible kingdom is an error naming the file and line, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from tabletap.controller.loading.source import SourceError, read_text
from tabletap.games.kingdomino.rules.kingdom_file import (
    KingdomFile,
    KingdomFileError,
    parse_kingdom,
)
from tabletap.games.kingdomino.rules.scoring import Breakdown, score_kingdom, variant_bonuses
from tabletap.games.kingdomino.rules.treasures import QUARTERS, SKULL


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Kingdomino's own flags of `tabletap score`."""
    p.add_argument("--middle-kingdom", action="store_true",
                   help="kingdomino: add the Middle Kingdom variant's 10 points if the castle "
                   "is centred")
    p.add_argument("--harmony", action="store_true",
                   help="kingdomino: add the Harmony variant's 5 points if the kingdom is "
                   "complete")


def score_file(kingdom: KingdomFile, middle_kingdom: bool, harmony: bool) -> Breakdown:
    bonuses = variant_bonuses(kingdom.cells, kingdom.size, middle_kingdom, harmony)
    return score_kingdom(kingdom.cells, kingdom.gems, bonuses)


def _quarter_text(value: object) -> str:
    return "skull" if value == SKULL else f"+{value}"


def render_text(b: Breakdown) -> str:
    lines = []
    for i, t in enumerate(b.territories):
        total = t.crowns + t.gem_crowns
        crowns = f"{total} crown{'' if total == 1 else 's'}"
        if t.gem_crowns:
            crowns += f" ({t.gem_crowns} from gems)"
        r, c = t.cells[0]
        squares = f"{t.squares:>2} square{'s' if t.squares > 1 else ' '}"
        line = (f"territory {i:>2} at {r},{c}  {t.terrain:<9} {squares} × {crowns:<22} "
                f"= {t.points:>3}")
        if t.skulls:
            line += "  (a skull points at it)"
        lines.append(line)
    for g in b.gems:
        parts = ", ".join(
            f"{name} {_quarter_text(v)} -> territory {target}"
            for name, v, target in zip(QUARTERS, g.gem.quarters, g.targets, strict=True)
        )
        lines.append(f"gem {g.gem.kind} at corner {g.gem.corner[0]} {g.gem.corner[1]}: {parts}")
    for name, points in b.bonuses.items():
        lines.append(f"bonus {name.replace('_', ' ')}: +{points}")
    lines.append(f"score {b.score}")
    if b.immediate_victory:
        lines.append("five different gem types: an immediate victory")
    return "\n".join(lines)


def score(args: argparse.Namespace) -> int:
    try:  # bounded: a kingdom file is a few lines, never /dev/zero or a photo
        text = read_text(args.file, max_bytes=64 * 1024)
    except SourceError as exc:
        print(f"tabletap: {exc}", file=sys.stderr)
        return 2
    try:
        kingdom = parse_kingdom(text)
    except KingdomFileError as exc:
        where = f"{args.file}:{exc.line}" if exc.line else args.file
        print(f"tabletap: {where}: {exc.message}", file=sys.stderr)
        return 2
    breakdown = score_file(kingdom, args.middle_kingdom, args.harmony)
    if args.json:
        print(json.dumps(breakdown.to_json(), indent=2))
    else:
        print(render_text(breakdown))
    return 0
