"""Property tests: random legal play on the stand-in pack with 2 to 5 heroes.

What must hold after every action, whatever the heroes do (issue 11, "Tests"): items are
conserved (every hero's eight and the five magic items, wherever they are), there is at most one
winner, every listed legal action is accepted, rejected actions change nothing, and replaying the
actions' JSON (the journal) from the start gives the same state.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletap.controller.rules.base import Rejection
from tabletap.games.key_to_the_kingdom.rules import ENGINE as E
from tabletap.games.key_to_the_kingdom.rules.actions import Move, Use
from tabletap.games.key_to_the_kingdom.rules.selfplay import purposeful_action

HEROES = ["knight", "wizard", "ranger", "rogue", "paladin"]
MAX_ACTIONS = 400


def _invariants(state, players):
    items = state.items
    assert len(items) == 8 * len(players) + 5
    assert all(owner is None or owner in players for owner, _ in items.values())
    assert len(E.winners(state)) <= 1
    assert all(sum(1 for k, w in state.keys.items() if w == h and k.startswith(c)) <= 1
               for h in players for c in ("red", "green", "blue"))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(heroes=st.integers(2, 5), seed=st.integers(0, 10**6), digital=st.booleans(),
       purposeful=st.booleans())
def test_random_legal_play(heroes, seed, digital, purposeful):
    players = HEROES[:heroes]
    options = {"digital_events": digital}
    state = E.new_game(players, seed, options, {})
    rng = random.Random(seed)
    journal = []
    for _ in range(MAX_ACTIONS):
        if E.is_over(state):
            break
        legal = E.legal_actions(state)
        assert legal, f"no legal action in phase {state.phase}"
        action = purposeful_action(state, rng) if purposeful else rng.choice(legal)
        outcome = E.apply(state, action)
        before = E.state_to_json(state)
        for bad in (Move("nowhere"), Use("nobody/nothing")):
            try:
                E.apply(state, bad)
            except Rejection:
                pass
        assert E.state_to_json(state) == before  # rejections and applies leave it alone
        journal.append(E.action_to_json(outcome.action))
        state = outcome.state
        _invariants(state, players)
    replayed = E.new_game(players, seed, options, {})
    for entry in journal:
        replayed = E.apply(replayed, E.action_from_json(entry)).state
    assert E.state_to_json(replayed) == E.state_to_json(state)
    assert E.state_to_json(E.state_from_json(E.state_to_json(state))) == E.state_to_json(state)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(heroes=st.integers(2, 5), seed=st.integers(0, 10**6))
def test_every_listed_action_is_accepted(heroes, seed):
    state = E.new_game(HEROES[:heroes], seed, {}, {})
    rng = random.Random(seed)
    for _ in range(120):
        if E.is_over(state):
            break
        legal = E.legal_actions(state)
        for action in legal:
            E.apply(state, action)  # raises if the list lies
        state = E.apply(state, rng.choice(legal)).state


def test_purposeful_games_end_with_one_winner():
    for seed, heroes in ((1, 2), (2, 3), (5, 5)):
        state = E.new_game(HEROES[:heroes], seed, {}, {})
        rng = random.Random(seed)
        for _ in range(3000):
            if E.is_over(state):
                break
            state = E.apply(state, purposeful_action(state, rng)).state
        assert E.is_over(state) and len(E.winners(state)) == 1
        assert len(state.key_colours(E.winners(state)[0])) == 3


def test_a_complete_game_replays_from_the_real_journal(tmp_path):
    """The journal on disk (one entry per accepted action, the drawn rolls in it) gives back
    the same finished game, for each table size."""
    from tabletap.controller.state.journal import GameHeader, Journal

    for heroes, seed in ((2, 11), (3, 12), (5, 13)):
        players = HEROES[:heroes]
        journal = Journal.in_dir(tmp_path / f"j{heroes}")
        journal.start(GameHeader("key-to-the-kingdom", players, seed,
                                 {"digital_events": True}, {}))
        state = E.new_game(players, seed, {"digital_events": True}, {})
        rng = random.Random(seed)
        n = 0
        while not E.is_over(state):
            outcome = E.apply(state, purposeful_action(state, rng))
            n += 1
            journal.append(n, E.action_to_json(outcome.action))
            state = outcome.state
        replayed = journal.replay()
        assert replayed.actions == n
        assert E.state_to_json(replayed.state) == E.state_to_json(state)
        assert E.winners(replayed.state) == E.winners(state)
