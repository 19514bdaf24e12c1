"""`tabletap content check PACK` for Key to the Kingdom: is a content pack playable and whole?

Problems that stop the game from loading it are printed with file, line and key (exit 2); a pack
that loads but has unreachable or inconsistent content gets one line per finding (exit 1); a
clean pack says so (exit 0).
"""

from __future__ import annotations

import sys


def check(ref: str) -> int:
    from tabletap.games.key_to_the_kingdom.rules.check import check_pack
    from tabletap.games.key_to_the_kingdom.rules.pack import PackError, load_pack

    try:
        pack = load_pack(ref)
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
