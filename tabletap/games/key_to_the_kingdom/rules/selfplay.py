"""Self-play: a uniform random player and a purposeful one, for tests, benchmarks and the
generated scenarios.

Random legal play wanders for a thousand actions before anyone wins, which is what the property
tests and the benchmark want (every corner gets visited). The purposeful player heads for the
key adventures it still needs (or, with the whole key, a whirlpool), spends items to pass steps
and naps when tired, so a complete game is short enough to read as a scenario.
"""

from __future__ import annotations

import random
from collections import deque

from tabletap.games.key_to_the_kingdom.rules import board
from tabletap.games.key_to_the_kingdom.rules.actions import (
    Action,
    Move,
    Nap,
    Resolve,
    Roll,
    Shortcut,
    Use,
)
from tabletap.games.key_to_the_kingdom.rules.legal import legal_actions
from tabletap.games.key_to_the_kingdom.rules.state import KttkState, Phase, Purpose


def random_action(state: KttkState, rng: random.Random) -> Action:
    return rng.choice(legal_actions(state))


def _goals(state: KttkState, hero: str) -> set[str]:
    pack = state.pack
    held = state.key_colours(hero)
    if len(held) == 3:
        return {w.space for w in pack.whirlpools.values() if state.shown(w.space)}
    goals = {a.start for a in pack.adventures.values()
             if a.kind == "key" and a.colour not in held and state.shown(a.start)}
    if len(goals) < 3 - len(held):  # a needed adventure is folded away: find a whirlpool
        goals |= {w.space for w in pack.whirlpools.values() if state.shown(w.space)}
    return goals


def distance(state: KttkState, start: str, goals: set[str]) -> int:
    if start in goals:
        return 0
    seen, queue = {start}, deque([(start, 0)])
    while queue:
        node, d = queue.popleft()
        for nxt in state.pack.neighbours[node]:
            if nxt in seen or not state.shown(nxt):
                continue
            if nxt in goals:
                return d + 1
            seen.add(nxt)
            queue.append((nxt, d + 1))
    return 99


def purposeful_action(state: KttkState, rng: random.Random) -> Action:
    legal = legal_actions(state)
    phase = state.phase
    hero = state.deciding
    if phase == Phase.TURN:
        tired = state.exhausted(state.current)
        naps = [a for a in legal if isinstance(a, Nap)]
        if len(tired) >= 5 and naps:
            return naps[0]
        return legal[0]
    if phase == Phase.ADVENTURE or phase == Phase.CASTLE:
        return next((a for a in legal if isinstance(a, Shortcut)), legal[0])
    if phase == Phase.ROLL and state.roll is not None:
        if state.roll.purpose == Purpose.MOVE:
            return _move(state, hero, legal, rng)
        return _pass(state, legal)
    return rng.choice(legal)


def _move(state: KttkState, hero: str, legal: list[Action], rng: random.Random) -> Action:
    goals = _goals(state, hero)
    moves = [a for a in legal if isinstance(a, Move)]

    def score(to: str) -> int:
        return distance(state, to, goals)

    best = min(moves, key=lambda m: score(m.to))
    if score(best.to) > 0 and not state.roll.uses:  # type: ignore[union-attr]
        # try one plain item to land right on a goal
        for use in (a for a in legal if isinstance(a, Use) and a.target is None
                    and a.refresh is None):
            after = state.roll.result + use.sign * (use.amount or max(  # type: ignore[union-attr]
                state.item_value(use.item) if not use.item.startswith("event/") else (1,)))
            if after < 0:
                continue
            if any(s in goals for s in board.destinations(state, hero, after)):
                return use
    return best


def _pass(state: KttkState, legal: list[Action]) -> Action:
    """Use the smallest item that turns a failure into a success; otherwise take the roll."""
    from tabletap.games.key_to_the_kingdom.rules.play import Play

    roll = state.roll
    assert roll is not None
    target = Play(state).roll_target()
    if roll.result >= target:
        return Resolve()
    uses = [a for a in legal if isinstance(a, Use) and a.sign == 1]
    good = [u for u in uses if u.item not in dict(roll.uses)
            and roll.result + (u.amount or max(_values(state, u.item))) >= target]
    if good:
        return min(good, key=lambda u: u.amount or max(_values(state, u.item)))
    return Resolve()


def _values(state: KttkState, item: str) -> tuple[int, ...]:
    if item.startswith("event/"):
        return (state.pack.card(int(item.split("/")[1])).bonus,)
    return state.item_value(item)


def play_out(state: KttkState, rng: random.Random, purposeful: bool = True,
             limit: int = 20000) -> tuple[KttkState, list[tuple[Action, Action]]]:
    """Play until someone wins (or `limit` actions); returns the end state and every
    (chosen, resolved) action pair."""
    from tabletap.games.key_to_the_kingdom.rules.play import apply_action

    chooser = purposeful_action if purposeful else random_action
    history: list[tuple[Action, Action]] = []
    while not state.over and len(history) < limit:
        action = chooser(state, rng)
        state, resolved, _ = apply_action(state, action)
        history.append((action, resolved))
    return state, history


__all__ = ["Roll", "play_out", "purposeful_action", "random_action"]
