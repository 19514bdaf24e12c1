"""Memory played by the engine alone, through tabletap's self-play (controller.selfplay): whole
games end, a seed gives one game, and the greedy player remembers without peeking."""

from __future__ import annotations

import random

import pytest
from tabletap_memory.rules import ENGINE, Flip, MemoryState
from tabletap_memory.selfplay import greedy, uniform

from tabletap.controller.selfplay.play import play_game, seat_names


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("players", [1, 2, 3, 6])
@pytest.mark.parametrize("deck", ["default", "small"])
def test_complete_games_end(policy: str, players: int, deck: str) -> None:
    """Every game ends with every pair found, the pairs adding up to the deck's."""
    pairs = 12 if deck == "default" else 6
    for seed in range(5):
        record = play_game("memory", seat_names("memory", players), seed, policy,
                           {"deck": deck})
        assert record.finished, (policy, players, deck, seed)
        assert sum(record.scores.values()) == pairs
        best = max(record.scores.values())
        assert record.winners == [p for p in record.players if record.scores[p] == best]
        assert record.actions >= 2 * pairs


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_the_same_seed_gives_the_same_game(policy: str) -> None:
    """"It must be deterministic from the rng given": the same seed, the same record."""
    players = seat_names("memory", 3)
    first = [play_game("memory", players, seed, policy).to_json() for seed in range(8)]
    again = [play_game("memory", players, seed, policy).to_json() for seed in range(8)]
    assert first == again
    assert len({str(r) for r in first}) > 1  # and different seeds differ


def _greedy(state: MemoryState, seed: int = 0) -> Flip:
    return greedy(ENGINE, state, ENGINE.legal_actions(state), random.Random(seed))


def _play(state: MemoryState, *cards: str) -> MemoryState:
    for card in cards:
        state = ENGINE.apply(state, Flip(card)).state
    return state


def test_greedy_takes_a_pair_it_has_seen() -> None:
    """A perfect memory: "pick a known pair if one is known"."""
    state = _play(ENGINE.new_game(["ana", "ben"], 0, {}, {}), "owl/a", "fox/a",  # ana misses
                  "cat/a", "owl/b")  # ben misses, and now both owls have been seen
    assert ENGINE.current_player(state) == "ana"
    for seed in range(10):
        assert _greedy(state, seed).card in ("owl/a", "owl/b")
    state = _play(state, "owl/b")
    assert _greedy(state) == Flip("owl/a")


def test_greedy_turns_the_partner_it_remembers() -> None:
    """The second card: the partner of the card face up, when it was seen before."""
    state = _play(ENGINE.new_game(["ana", "ben"], 0, {}, {}), "owl/a", "fox/a", "fox/b")
    assert ENGINE.current_player(state) == "ben" and state.turned == "fox/b"
    assert _greedy(state) == Flip("fox/a")


def test_greedy_turns_an_unseen_card_when_nothing_is_known() -> None:
    """With no pair known it turns over a card nobody has seen, never one already seen (that
    would show what everyone knows), and cannot tell unseen cards apart."""
    state = _play(ENGINE.new_game(["ana", "ben"], 0, {}, {}), "owl/a", "fox/a", "cat/a")
    seen = {"owl/a", "fox/a", "cat/a"}
    picks = {_greedy(state, seed).card for seed in range(200)}
    assert picks.isdisjoint(seen)
    assert len(picks) > 10  # spread over the unseen cards, not a picture's favourite


def test_greedy_does_not_peek() -> None:
    """The choice among unseen cards depends on the draw alone, not on what they show: with
    the unseen cards listed the other way round, the same draw picks the card at the same
    place, counted from the other end."""
    state = _play(ENGINE.new_game(["ana", "ben"], 0, {}, {}), "owl/a", "fox/a")
    legal = ENGINE.legal_actions(state)
    unseen = [a for a in legal if a.card not in state.seen]
    reordered = unseen[::-1] + [a for a in legal if a.card in state.seen]
    for seed in range(20):
        first = greedy(ENGINE, state, legal, random.Random(seed))
        second = greedy(ENGINE, state, reordered, random.Random(seed))
        # the same draw picks the same place among the unseen cards, whatever lies there
        assert unseen.index(first) == len(unseen) - 1 - unseen.index(second)


def test_greedy_beats_random_play() -> None:
    """A perfect memory wins far more than a random player: seat one greedy, seat two
    random, over seeded games (chance would be a half)."""
    wins = 0
    games = 60
    for seed in range(games):
        rng = random.Random(seed)
        state = ENGINE.new_game(["memory", "random"], seed, {}, {})
        while not ENGINE.is_over(state):
            legal = ENGINE.legal_actions(state)
            policy = greedy if ENGINE.current_player(state) == "memory" else uniform
            state = ENGINE.apply(state, policy(ENGINE, state, legal, rng)).state
        wins += ENGINE.winners(state) == ["memory"]
    assert wins > games * 0.8
