"""Moving through the kingdom and folding its lands: the geometry, apart from the turn logic.

"Move your figure the exact number of spaces as your result. ... You can choose any direction
when you start moving, but you may not backtrack once you start. Only count open spaces (those
without other figures), skipping over spaces with other figures." Adventures and whirlpools stop
a move when entered, without an exact count. Voids cannot be moved onto, so a move skips them
like an occupied space (our reading; docs/games/key-to-the-kingdom.md).
"""

from __future__ import annotations

from tabletap.games.key_to_the_kingdom.rules.state import KttkState

PLACEABLE = ("boring", "start", "refresh", "event", "demon-die", "genie")


def stops(state: KttkState, hero: str, space: str) -> bool:
    """Whether entering `space` ends the move at once. A key adventure whose colour the hero
    already holds cannot be started, so it does not stop them (decision)."""
    kind = state.pack.spaces[space].kind
    if kind == "whirlpool":
        return True
    if kind != "adventure":
        return False
    adventure = state.pack.adventures.get(state.pack.adventure_at.get(space, ""))
    if adventure is None:
        return False
    return adventure.kind == "minor" or adventure.colour not in state.key_colours(hero)


def destinations(state: KttkState, hero: str, result: int) -> list[str]:
    """Every space a move of `result` can end on, in board order. A result of 0 ends where the
    hero stands; an empty list means no direction allows the full count."""
    here = state.positions[hero]
    if result == 0:
        return [here]
    pack = state.pack
    others = {p for h, p in state.positions.items() if h != hero}
    found: set[str] = set()

    def walk(node: str, left: int, seen: frozenset[str]) -> None:
        for nxt in pack.neighbours[node]:
            if nxt in seen or not state.shown(nxt):
                continue
            if nxt in others or pack.spaces[nxt].kind == "void":
                walk(nxt, left, seen | {nxt})  # skipped: not counted, cannot end here
                continue
            if left == 1 or stops(state, hero, nxt):
                found.add(nxt)
                continue
            walk(nxt, left - 1, seen | {nxt})

    walk(here, result, frozenset({here}))
    order = {sid: i for i, sid in enumerate(pack.spaces)}
    return sorted(found, key=order.__getitem__)


def landing_for_displaced(state: KttkState, land: str, taken: set[str]) -> str:
    """Where a hero goes when their land folds away: a free void of the land now showing in
    its place; with none free, the land's first free space where nothing starts (decision:
    the rulebook is silent on a void with no free space); failing that, the start."""
    pack = state.pack
    spaces = pack.lands[land]
    for sid in spaces:
        if pack.spaces[sid].kind == "void" and sid not in taken:
            return sid
    for sid in spaces:
        if pack.spaces[sid].kind in PLACEABLE and sid not in taken:
            return sid
    return pack.start
