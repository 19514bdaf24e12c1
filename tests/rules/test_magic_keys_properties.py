"""Magic Keys property tests: random legal play never breaks the game's invariants.

Checked after every action, in both dice modes with 2-4 players: the 42 gems are conserved
(Components: "42 gems of memory"); every coloured key is in exactly one place (forest, tower,
in front of one player, or the pond) and only true keys reach the tower, only fake keys a player
or the pond; at most one winner, who has the gems required ("The End of the Game"), and nothing is
accepted after the win; the state's JSON round-trips; and the journal - the resolved actions
through their JSON form - replays to the very same state.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletap.controller.rules.base import Rejection
from tabletap.controller.selfplay.play import play_game
from tabletap.games.magic_keys.rules import ENGINE, EndTurn, Move, Pond, Roll, TryKey

TRACK = ENGINE.track
FACES = (1, 2, 3, 4, "moon", "moon")
CODES = {
    "game-over", "key-already-used", "fake-key-already-revealed", "pond-needs-fake-key",
    "not-your-fake-key", "fake-key-already-in-pond", "unknown-key", "physical-dice", "bad-roll",
    "choose-die-first", "must-roll-first", "no-such-die", "no-dice-left", "dice-left",
    "not-on-key-space", "space-has-no-key",
}
KEY_NAMES = [*TRACK.keys, "gold", "purple/6", "red/1"]
ANY_ACTION = st.one_of(
    st.builds(TryKey, st.sampled_from(KEY_NAMES)),
    st.builds(Pond, st.sampled_from(KEY_NAMES)),
    st.just(EndTurn()),
    st.just(Roll(None)),
    st.builds(Roll, st.lists(st.sampled_from(FACES), min_size=0, max_size=4).map(tuple)),
    st.builds(Move, st.integers(0, 5)),
)
SLOW = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def check_invariants(state) -> None:
    data = ENGINE.state_to_json(state)
    assert ENGINE.state_from_json(json.loads(json.dumps(data))) == state
    scores = ENGINE.scores(state)
    assert sum(scores.values()) + state.chest == TRACK.chest_gems
    assert state.chest >= 0 and min(scores.values()) >= 0
    assert set(state.places) == set(TRACK.keys)  # each key listed once, with one place
    for key, place in state.places.items():
        if place == "tower":
            assert key not in state.fake_keys
        elif place != "forest":
            assert key in state.fake_keys
    needed = TRACK.gems_required[len(state.players)]
    winners = ENGINE.winners(state)
    assert len(winners) <= 1
    assert [p for p, g in scores.items() if g >= needed] == winners
    # what the state keeps ready for the legal moves is what its places say
    places = state.places
    assert places.forest == tuple(k for k, p in places.items() if p == "forest")
    assert places.tries == tuple(TryKey(k) for k in places.forest)
    for player in state.players:
        assert state.held_by(player) == [k for k, p in places.items() if p == f"held:{player}"]
    if state.dice_mode == "digital":
        assert 0 <= state.pawn <= TRACK.gold_position
        assert 0 <= state.dice <= 3 and len(state.showing) <= state.dice
        assert all(1 <= n <= 4 for n in state.showing)


def listed(action) -> object:
    """An action as legal_actions lists it: rolls with the chance left unresolved."""
    return Roll(None) if isinstance(action, Roll) else action


def random_game(data: st.DataObject, mode: str):
    players = ["ana", "ben", "cleo", "dan"][: data.draw(st.integers(2, 4), label="players")]
    seed = data.draw(st.integers(0, 2**32), label="seed")
    return ENGINE.new_game(players, seed, {"dice": mode}, {})


def play_randomly(data: st.DataObject, mode: str, steps: int):
    """Draw legal actions (sometimes a forced roll); return the start and resolved actions."""
    start = random_game(data, mode)
    state, journal = start, []
    for _ in range(steps):
        if ENGINE.is_over(state):
            break
        legal = ENGINE.legal_actions(state)
        assert legal, "a game that is not over always has a legal action"
        action = data.draw(st.sampled_from(legal), label="action")
        if isinstance(action, Roll) and data.draw(st.booleans(), label="force"):
            faces = data.draw(
                st.lists(st.sampled_from(FACES), min_size=state.dice, max_size=state.dice)
            )
            action = Roll(tuple(faces))
        before = ENGINE.state_to_json(state)
        result = ENGINE.apply(state, action)
        assert ENGINE.state_to_json(state) == before  # never mutated
        for event in result.events:
            assert event.text
            if event.kind == "turn":
                assert event.data["player"] == ENGINE.current_player(result.state)
        state = result.state
        journal.append(ENGINE.action_to_json(result.action))
        check_invariants(state)
    return start, state, journal


@SLOW
@given(st.data(), st.sampled_from(["physical", "digital"]))
def test_random_legal_play_keeps_the_invariants_and_replays(data, mode):
    start, state, journal = play_randomly(data, mode, 250)
    replayed = start
    for entry in journal:
        replayed = ENGINE.apply(replayed, ENGINE.action_from_json(json.loads(json.dumps(entry))))
        replayed = replayed.state
    assert ENGINE.state_to_json(replayed) == ENGINE.state_to_json(state)
    if ENGINE.is_over(state):
        assert ENGINE.legal_actions(state) == []
        for action in (TryKey("gold"), EndTurn(), Roll(None), Move(1)):
            try:
                ENGINE.apply(state, action)
            except Rejection as exc:
                assert exc.code == "game-over"
            else:
                raise AssertionError(f"{action} accepted after the win")


@SLOW
@given(st.data(), st.sampled_from(["physical", "digital"]))
def test_legal_actions_are_exactly_what_apply_accepts(data, mode):
    """Every listed action is accepted; any other action is either listed once its roll is
    unresolved, or refused with a known code and no change."""
    _, state, _ = play_randomly(data, mode, data.draw(st.integers(0, 60), label="steps"))
    legal = ENGINE.legal_actions(state)
    for action in legal:
        ENGINE.apply(state, action)
    for action in data.draw(st.lists(ANY_ACTION, min_size=1, max_size=25), label="tries"):
        before = ENGINE.state_to_json(state)
        try:
            ENGINE.apply(state, action)
        except Rejection as exc:
            assert exc.code in CODES
            assert exc.message
            assert ENGINE.state_to_json(state) == before
        else:
            assert listed(action) in legal, f"{action} accepted but not listed in {legal}"


@pytest.mark.parametrize("mode", ["physical", "digital"])
def test_many_complete_games_end_with_one_rightful_winner(mode):
    """"As soon as a player acquires the required number of gems, the game immediately ends,
    and the player wins." Complete games through the self-play fast path (the engine's contract
    only), 2-4 players: every game ends, with one winner holding at least the gems required,
    nobody else that many, and no more gems handed out than the "42 gems of memory"."""
    for seed in range(400):
        players = ["ana", "ben", "cleo", "dan"][: 2 + seed % 3]
        record = play_game("magic-keys", players, seed, "random", {"dice": mode})
        needed = TRACK.gems_required[len(players)]
        assert record.finished and len(record.winners) == 1
        assert record.scores[record.winners[0]] >= needed
        assert all(g < needed for p, g in record.scores.items() if p not in record.winners)
        assert sum(record.scores.values()) <= TRACK.chest_gems
