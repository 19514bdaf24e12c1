"""Property tests: random legal play in two-player, free-for-all and bridge-style games.

What must hold after every play, whatever the players do (issue 5, "Tests"): cards are conserved
in every deck, there is at most one winner or winning team, rejected plays change nothing, and
replaying the journal (the actions' JSON) from the start gives the same state.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletap.controller.rules.base import Rejection
from tabletap.controller.selfplay.play import chooser
from tabletap.games.oversiege.rules import ENGINE as E
from tabletap.games.oversiege.rules import OversiegeState
from tabletap.games.oversiege.rules.state import draw_count

# The random player picks a kind of play by weight (attacks and keys favoured so that games
# reach their end: selfplay.play.OVERSIEGE_WEIGHTS), then a legal play of that kind.
random_play = chooser("oversiege", "random")
MAX_PLAYS = 400

TABLES = st.sampled_from([
    (["red", "blue"], {}),
    (["red", "blue", "green"], {}),
    (["red", "blue", "green", "yellow"], {}),
    (["red", "blue", "green", "yellow"], {"teams": [["red", "green"], ["blue", "yellow"]]}),
    (["a", "b", "c"], {"teams": [["a"], ["b", "c"]]}),
    (["red", "blue", "green"], {"first_crown_wins": True}),
])


def choose(state: OversiegeState, rng: random.Random):
    """A random legal play: a kind by weight, then one of its legal plays (self-play's random
    policy, on the engine's legal_actions: the fast path; test_oversiege_legal_actions checks
    it lists exactly what apply accepts)."""
    legal = E.legal_actions(state)
    assert legal, "no legal play at all"
    action = random_play(E, state, legal, rng)
    return action, E.apply(state, action)


def check_invariants(state: OversiegeState) -> None:
    for player, side in state.sides.items():
        in_play = side.in_play()
        assert side.hand + side.deck + len(side.discard) + len(in_play) == E.cards.deck_size
        assert side.hand >= 2
        assert len(side.armaments) <= 2
        known = side.discard + in_play
        assert len(known) == len(set(known))
        assert all(c.split("/")[1] == player for c in known)
        assert set(side.destroyed) <= {"tower/1", "tower/2", "tower/3", "tower/4", "entrance"}
    if state.winners:
        assert state.winners in state.teams  # one whole team, never two
        if not state.first_crown_wins:
            assert all(not state.in_game(p) for p in state.players if p not in state.winners)
        assert E.current_player(state) is None
    else:
        assert state.in_game(state.current)
        alive = [t for t in state.teams if any(state.in_game(p) for p in t)]
        assert len(alive) >= 2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=TABLES, seed=st.integers(0, 2**32 - 1))
def test_random_legal_play(table, seed):
    players, options = table
    rng = random.Random(seed)
    state = E.new_game(players, seed, options, {})
    start = E.state_to_json(state)
    journal = []
    for _ in range(MAX_PLAYS):
        if E.is_over(state):
            break
        before = E.state_to_json(state)
        action, out = choose(state, rng)
        assert E.state_to_json(state) == before  # the engine never mutates its input
        journal.append(E.action_to_json(out.action))
        state = out.state
        check_invariants(state)
        assert E.state_to_json(E.state_from_json(E.state_to_json(state))) == E.state_to_json(state)
        wins = [e for e in out.events if e.kind == "win"]
        assert len(wins) <= 1 and (not wins or wins[0].data["winners"] == E.winners(state))
    # replaying the journal gives the same state
    replay = E.state_from_json(start)
    for data in journal:
        replay = E.apply(replay, E.action_from_json(data)).state
    assert E.state_to_json(replay) == E.state_to_json(state)


@settings(max_examples=15, deadline=None)
@given(table=TABLES, seed=st.integers(0, 2**32 - 1), plays=st.integers(0, 60))
def test_rejected_plays_change_nothing_and_legal_actions_agree(table, seed, plays):
    """Every candidate play is either in legal_actions and accepted, or rejected with a code
    and a sentence, leaving the state as it was."""
    players, options = table
    rng = random.Random(seed)
    state = E.new_game(players, seed, options, {})
    for _ in range(plays):
        if E.is_over(state):
            break
        state = choose(state, rng)[1].state
    legal = E.legal_actions(state)
    before = E.state_to_json(state)
    for action in rng.sample(E._candidates(state), k=min(60, len(E._candidates(state)))):
        try:
            E.apply(state, action)
        except Rejection as rejection:
            assert action not in legal
            assert rejection.code and rejection.message
        else:
            assert action in legal
        assert E.state_to_json(state) == before


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_two_player_games_reach_an_end(seed):
    """Random play that favours attacks and keys ends with one winner, or in the one dead end
    the rulebook leaves with the placeholder icons (TURNS: a castle draws what its blue icons
    show, none when all down): nobody draws, and the two cards each player keeps hold no play
    (the key discarded, or a blockade keeping it out), so only end-turn is left. A key kept
    with nothing drawn is played (TURNS, the following turn), so it never stalls a game."""
    rng = random.Random(seed)
    state = E.new_game(["red", "blue"], seed, {}, {})
    for _ in range(MAX_PLAYS * 3):
        if E.is_over(state):
            break
        state = choose(state, rng)[1].state
    if E.is_over(state):
        assert len(E.winners(state)) == 1
        return
    assert all(draw_count(side, E.cards) == 0 for side in state.sides.values())
    assert [a.kind for a in E.legal_actions(state)] == ["end-turn"]
