"""Every action the engine accepts now, for tests, hints, the page and self-play.

Chance is left unresolved (`Roll()`, the daemon draws). Choices of several items (a nap, a
refresh) are listed as every set of the largest size allowed: choosing fewer is legal too, but
never better, and listing every smaller set would swamp self-play.
"""

from __future__ import annotations

from collections.abc import Callable
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
    listed = _BY_PHASE.get(state.phase)
    return [] if listed is None else listed(state)


# -- each phase's actions ---------------------------------------------------------------------
# A table keyed by phase rather than a chain of phase tests: legal_actions is self-play's inner
# loop, and each test of a StrEnum member is an attribute lookup on the class (slow on 3.11).


def _first_roll(state: KttkState) -> list[Action]:
    return _rolls(state, state.first_due[0])


def _turn(state: KttkState) -> list[Action]:
    hero = state.current
    out: list[Action] = [Castle()] if state.in_courtyard(hero) else _rolls(state, hero)
    return out + [Nap(s) for s in _sets(state.exhausted(hero), state.pack.heroes[hero].nap)]


def _step(state: KttkState) -> list[Action]:
    """An adventure step or a castle token: roll, or pass it by a shortcut."""
    out = _rolls(state, state.ask_of(Ask).hero)
    if Play(state).shortcut_help() is not None:
        out.append(Shortcut())
    return out


def _challenge(state: KttkState) -> list[Action]:
    return _rolls(state, state.ask_of(Ask).hero)


def _roll(state: KttkState) -> list[Action]:
    roll, ask = state.roll, state.ask
    assert roll is not None and ask is not None
    hero = ask.hero
    out: list[Action] = []
    if roll.purpose == Purpose.MOVE:
        reach = board.destinations(state, hero, roll.result)
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


def _refresh(state: KttkState) -> list[Action]:
    ask = state.ask_of(CountAsk)
    return [Refresh(s) for s in _sets(state.exhausted(ask.hero), ask.count)]


def _exhaust(state: KttkState) -> list[Action]:
    ask = state.ask_of(CountAsk)
    return [Exhaust(s) for s in _sets(state.available(ask.hero), ask.count)]


def _event(state: KttkState) -> list[Action]:
    return [Draw(n) for n in state.deck]


def _demon_die(state: KttkState) -> list[Action]:
    return [Assign(h) for h in state.players if h != state.demon]


def _magic(state: KttkState) -> list[Action]:
    return [TakeMagic(m) for m in MAGIC_ITEMS if state.items[MAGIC_PREFIX + m][0] is None]


def _steal(state: KttkState) -> list[Action]:
    return [Steal(i) for i in Play(state).steal_options(state.ask_of(Ask).hero)]


def _sweep(state: KttkState) -> list[Action]:
    return [Sweep(h) for h in state.players if not state.in_courtyard(h)]


def _key(state: KttkState) -> list[Action]:
    colour = state.ask_of(KeyAsk).colour
    return [TakeKey(k) for k, who in state.keys.items()
            if who is None and k.startswith(colour + "/")]


def _courtyard(state: KttkState) -> list[Action]:
    return [Courtyard(s) for s in Play(state).free_courtyard()]


_BY_PHASE: dict[Phase, Callable[[KttkState], list[Action]]] = {
    Phase.FIRST_ROLL: _first_roll, Phase.TURN: _turn, Phase.ADVENTURE: _step,
    Phase.CASTLE: _step, Phase.CHALLENGE: _challenge, Phase.ROLL: _roll,
    Phase.REFRESH: _refresh, Phase.EXHAUST: _exhaust, Phase.EVENT: _event,
    Phase.DEMON_DIE: _demon_die, Phase.MAGIC: _magic, Phase.STEAL: _steal,
    Phase.SWEEP: _sweep, Phase.KEY: _key, Phase.COURTYARD: _courtyard,
}  # busy and over: nothing
