"""Every action the engine accepts now, for tests, hints, the page and self-play.

Chance is left unresolved (`Roll()`, the daemon draws). Choices of several items (a nap, a
refresh) are listed as every set of the largest size allowed: choosing fewer is legal too, but
never better, and listing every smaller set would swamp self-play.
"""

from __future__ import annotations

from itertools import combinations

from tabletap.controller.rules.base import Rejection
from tabletap.games.key_to_the_kingdom.rules import board
from tabletap.games.key_to_the_kingdom.rules.actions import (
    Action,
    Assign,
    Castle,
    Courtyard,
    Draw,
    Exhaust,
    Move,
    Nap,
    Refresh,
    Resolve,
    Roll,
    Shortcut,
    Steal,
    Sweep,
    TakeKey,
    TakeMagic,
    Use,
)
from tabletap.games.key_to_the_kingdom.rules.pack import MAGIC_ITEMS
from tabletap.games.key_to_the_kingdom.rules.play import Play, check_use
from tabletap.games.key_to_the_kingdom.rules.state import (
    COMPANION_PREFIX,
    MAGIC_PREFIX,
    Ask,
    CountAsk,
    KeyAsk,
    KttkState,
    Phase,
    Purpose,
)


def _sets(pool: list[str], size: int) -> list[tuple[str, ...]]:
    return list(combinations(pool, min(size, len(pool))))


def _uses(state: KttkState, hero: str) -> list[Action]:
    roll = state.roll
    assert roll is not None
    used = dict(roll.uses)
    play = Play(state)
    out: list[Action] = []
    items = [i for i in state.owned(hero) if i in used or not state.items[i][1]]
    comps = [f"{COMPANION_PREFIX}{n}" for n in state.companions[hero]
             if state.pack.card(n).bonus]
    for item in items + comps:
        values = ((state.pack.card(int(item[len(COMPANION_PREFIX):])).bonus,)
                  if item.startswith(COMPANION_PREFIX) else state.item_value(item))
        kind = "" if item.startswith(COMPANION_PREFIX) else state.item_kind(item)
        extras: list[dict[str, str]] = [{}]
        if item not in used and kind == "kind-of-evil-knife":
            extras = [{"target": t} for t in play.steal_options(hero)] or [{}]
        if item not in used and kind == "coffee-beans":
            extras = [{"refresh": t} for t in state.exhausted(hero) if t != item] or [{}]
        for sign in (1, -1):
            for amount in values:
                for extra in extras:
                    out.append(Use(item, sign, amount if len(values) > 1 else None, **extra))
    return out


def _rolls(state: KttkState, hero: str) -> list[Action]:
    """Digital dice: one roll, drawn by the engine. Physical dice: each face may be entered."""
    if not state.physical_dice:
        return [Roll()]
    faces = state.pack.demon_faces if state.demon == hero else state.pack.hero_faces
    return [Roll(f) for f in sorted(set(faces))]


def legal_actions(state: KttkState) -> list[Action]:
    if state.over:
        return []
    phase = state.phase
    out: list[Action] = []
    if phase == Phase.FIRST_ROLL:
        return _rolls(state, state.first_due[0])
    if phase == Phase.TURN:
        hero = state.current
        out += [Castle()] if state.in_courtyard(hero) else _rolls(state, hero)
        out += [Nap(s) for s in _sets(state.exhausted(hero), state.pack.heroes[hero].nap)]
        return out
    if phase == Phase.ADVENTURE or phase == Phase.CASTLE:
        out += _rolls(state, state.ask_of(Ask).hero)
        if Play(state).shortcut_help() is not None:
            out.append(Shortcut())
        return out
    if phase == Phase.CHALLENGE:
        return _rolls(state, state.ask_of(Ask).hero)
    if phase == Phase.ROLL:
        assert state.roll is not None
        hero = state.ask_of(Ask).hero
        if state.roll.purpose == Purpose.MOVE:
            reach = board.destinations(state, hero, state.roll.result)
            out += [Move(s) for s in reach] or [Move(state.positions[hero])]
        else:
            out.append(Resolve())
        for use in _uses(state, hero):
            try:
                check_use(state, use)
            except Rejection:
                continue
            out.append(use)
        return out
    if phase == Phase.REFRESH:
        ask = state.ask_of(CountAsk)
        return [Refresh(s) for s in _sets(state.exhausted(ask.hero), ask.count)]
    if phase == Phase.EXHAUST:
        ask = state.ask_of(CountAsk)
        return [Exhaust(s) for s in _sets(state.available(ask.hero), ask.count)]
    if phase == Phase.EVENT:
        return [Draw(n) for n in state.deck]
    if phase == Phase.DEMON_DIE:
        return [Assign(h) for h in state.players if h != state.demon]
    if phase == Phase.MAGIC:
        return [TakeMagic(m) for m in MAGIC_ITEMS if state.items[MAGIC_PREFIX + m][0] is None]
    if phase == Phase.STEAL:
        return [Steal(i) for i in Play(state).steal_options(state.ask_of(Ask).hero)]
    if phase == Phase.SWEEP:
        return [Sweep(h) for h in state.players if not state.in_courtyard(h)]
    if phase == Phase.KEY:
        colour = state.ask_of(KeyAsk).colour
        return [TakeKey(k) for k, who in state.keys.items()
                if who is None and k.startswith(colour + "/")]
    if phase == Phase.COURTYARD:
        return [Courtyard(s) for s in Play(state).free_courtyard()]
    return out
