"""legal_actions is generated without applying every candidate (checks judged once per card,
notes kept on shared sides): it must list exactly the candidates `apply` accepts, in the same
order, in every kind of table, all along random games."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletap.controller.rules.base import Rejection
from tabletap.controller.selfplay.play import chooser
from tabletap.games.oversiege.rules import ENGINE as E
from tabletap.games.oversiege.rules import OversiegeState

TABLES = st.sampled_from([
    (["red", "blue"], {}),
    (["red", "blue", "green", "yellow", "pink"], {}),
    (["red", "blue", "green", "yellow"], {"teams": [["red", "green"], ["blue", "yellow"]]}),
    (["a", "b", "c"], {"teams": [["a"], ["b", "c"]]}),
    (["red", "blue", "green"], {"first_crown_wins": True}),
])


def accepted(state: OversiegeState) -> list:
    """The slow, obvious answer: every candidate apply accepts."""
    out = []
    for action in E._candidates(state):
        try:
            E.apply(state, action)
        except Rejection:
            continue
        out.append(action)
    return out


@settings(max_examples=12, deadline=None)
@given(table=TABLES, seed=st.integers(0, 2**32 - 1), policy=st.sampled_from(["random", "greedy"]))
def test_legal_actions_are_what_apply_accepts(table, seed, policy):
    players, options = table
    choose = chooser("oversiege", policy)
    rng = random.Random(seed)
    state = E.new_game(players, seed, options, {})
    for step in range(300):
        if E.is_over(state):
            break
        legal = E.legal_actions(state)
        if step % 4 == 0:
            assert legal == accepted(state)
        state = E.apply(state, choose(E, state, legal, rng)).state
