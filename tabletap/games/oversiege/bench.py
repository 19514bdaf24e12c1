"""Figures for the Oversiege engine: how fast a play is judged, and how long listing every legal
play takes as tables grow (legal_actions tries each candidate, so it is the slow path)."""

from __future__ import annotations

import statistics
import time

from tabletap.games.oversiege.rules import ENGINE


def _apply_us(repeats: int = 3000) -> float:
    """One accepted attack, from the table's point of view (interpret is negligible)."""
    engine = ENGINE
    state = engine.new_game(["red", "blue"], 0, {}, {})
    state = engine.apply(state, engine.action_from_json(
        {"action": "armament", "card": "oversiege/red/catapult/1"})).state
    attack = engine.action_from_json({"action": "attack", "card": "oversiege/red/stone/1",
                                      "targets": ["oversiege/blue/tower/1"]})
    started = time.perf_counter()
    for _ in range(repeats):
        engine.apply(state, attack)
    return (time.perf_counter() - started) / repeats * 1e6


def _legal_actions_ms(players: int, plays: int = 40) -> float:
    """Median legal_actions time over a game's first plays (armaments placed, castles hit)."""
    engine = ENGINE
    names = [f"p{i}" for i in range(players)]
    state = engine.new_game(names, 0, {}, {})
    times = []
    for i in range(plays):
        started = time.perf_counter()
        legal = engine.legal_actions(state)
        times.append((time.perf_counter() - started) * 1000)
        preferred = [a for a in legal if a.kind in ("attack", "armament", "key")] or legal
        state = engine.apply(state, preferred[(i * 7919) % len(preferred)]).state
        if engine.is_over(state):
            break
    return statistics.median(times)


def run() -> list[tuple[str, float, str]]:
    return [
        ("Oversiege apply (an attack)", _apply_us(), "us"),
        ("Oversiege legal_actions, 2 players, median", _legal_actions_ms(2), "ms"),
        ("Oversiege legal_actions, 4 players, median", _legal_actions_ms(4), "ms"),
        ("Oversiege legal_actions, 10 players, median", _legal_actions_ms(10), "ms"),
    ]
