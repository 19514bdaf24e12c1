"""Random legal Kingdomino games: what must hold after every action, whatever is played."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletap.controller.rules.base import Rejection
from tabletap.games.kingdomino.rules import ENGINE, KingdominoState
from tabletap.games.kingdomino.rules.actions import Action
from tabletap.games.kingdomino.rules.dominoes import CASTLE
from tabletap.games.kingdomino.rules.kingdom import bounds, is_treasure_corner
from tabletap.games.kingdomino.rules.kingdom_file import parse_kingdom
from tabletap.games.kingdomino.rules.scoring import score_kingdom, tie_key
from tabletap.games.kingdomino.rules.setup import domino_count
from tabletap.games.kingdomino.rules.treasures import all_tokens

GAMES = st.sampled_from([
    (["a", "b"], {}),
    (["a", "b", "c"], {}),
    (["a", "b", "c", "d"], {}),
    (["a", "b"], {"mighty_duel": True, "middle_kingdom": True, "harmony": True}),
    (["a", "b", "c"], {"treasures": False, "harmony": True}),
])


def _check_invariants(s: KingdominoState, cross_check: bool = False) -> None:
    # Dominoes are conserved: each of the game's dominoes is in exactly one place.
    where = list(s.deck) + [x.domino for x in s.line] + [x.domino for x in s.next_line]
    for k in s.kingdoms.values():
        where += k.placed + k.discards
    assert len(where) == len(set(where))
    if not s.results:  # (a Dynasty's later games draw afresh)
        assert len(where) == domino_count(len(s.players), s.options["mighty_duel"])
    # Kingdoms are legal: one castle at the origin, within size×size, two squares per domino.
    for k in s.kingdoms.values():
        assert k.cells[(0, 0)].terrain == CASTLE
        assert sum(1 for sq in k.cells.values() if sq.terrain == CASTLE) == 1
        rmin, rmax, cmin, cmax = bounds(k.cells)
        assert rmax - rmin < s.size and cmax - cmin < s.size
        assert len(k.cells) == 1 + 2 * len(k.placed)
        reached, todo = {(0, 0)}, [(0, 0)]
        while todo:  # every square joined to the castle
            r, c = todo.pop()
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if n in k.cells and n not in reached:
                    reached.add(n)
                    todo.append(n)
        assert reached == set(k.cells)
        for g in k.gems:
            assert is_treasure_corner(k.cells, g.corner)
    # Treasure tokens are conserved.
    if s.options["treasures"]:
        tokens = list(s.face_up) + list(s.bag) + [
            g.token for k in s.kingdoms.values() for g in k.gems
        ]
        assert sorted(tokens) == sorted(all_tokens())
        assert len(s.face_up) + s.reveals <= 2
    # The score is the sum over territories (and the same as the kingdom file's).
    for p, k in s.kingdoms.items():
        b = ENGINE.breakdown(s, p)
        assert b.score == sum(t.points for t in b.territories) + sum(b.bonuses.values())
        assert ENGINE.tie_key(s, p) == tie_key([b])  # what winners() reads, kept or scored
        if not cross_check:
            continue
        from_file = parse_kingdom(ENGINE.public_view(s)["kingdoms"][p]["file"])
        assert score_kingdom(from_file.cells, from_file.gems).score == score_kingdom(
            k.cells, k.gems).score


@settings(max_examples=30, deadline=None)
@given(game=GAMES, seed=st.integers(0, 2**31), choices=st.integers(0, 2**31))
def test_random_legal_games(game: tuple[list[str], dict], seed: int, choices: int) -> None:
    players, options = game
    start = ENGINE.new_game(players, seed, options, {})
    rng = random.Random(choices)
    s = start
    journal: list[dict] = []
    steps = 0
    while not ENGINE.is_over(s):
        legal = ENGINE.legal_actions(s)
        assert legal, "a game that is not over always has a legal action"
        action = rng.choice(legal)
        before = ENGINE.state_to_json(s)
        if steps % 7 == 0:  # an illegal move now and then: refused, state untouched
            # TURN ORDER: a king claims a domino of the new line; one still in the box (or
            # already played) is never claimable, whatever step the game is at.
            on_table = {slot.domino for slot in (*s.line, *s.next_line)}
            bad = Action("claim", domino=next(n for n in range(48, 0, -1) if n not in on_table))
            assert bad not in legal
            with pytest.raises(Rejection):
                ENGINE.apply(s, bad)
            assert ENGINE.state_to_json(s) == before
        out = ENGINE.apply(s, action)
        assert ENGINE.state_to_json(s) == before  # apply never mutates its input
        journal.append(ENGINE.action_to_json(out.action))
        s = out.state
        data = ENGINE.state_to_json(s)
        assert ENGINE.state_to_json(ENGINE.state_from_json(data)) == data
        _check_invariants(s, cross_check=steps % 10 == 0)
        steps += 1
    _check_invariants(s, cross_check=True)
    assert ENGINE.winners(s)
    # Replaying the journal gives the same state.
    r = ENGINE.new_game(players, seed, options, {})
    for entry in journal:
        r = ENGINE.apply(r, ENGINE.action_from_json(entry)).state
    assert ENGINE.state_to_json(r) == ENGINE.state_to_json(s)


def _placements_by_trying(cells, size: int, domino) -> list:
    """The obvious answer: every square near the kingdom, every facing, check_placement."""
    from tabletap.games.kingdomino.rules.kingdom import FACINGS, Placement, check_placement
    rmin, rmax, cmin, cmax = bounds(cells)
    out = []
    for r in range(rmax - size, rmin + size + 1):
        for c in range(cmax - size, cmin + size + 1):
            for facing in FACINGS:
                placement = Placement(domino.number, (r, c), facing)
                try:
                    check_placement(cells, size, domino, placement)
                except Rejection:
                    continue
                out.append(placement)
    return out


@settings(max_examples=10, deadline=None)
@given(game=GAMES, seed=st.integers(0, 2**31), domino=st.integers(1, 48))
def test_legal_placements_are_what_check_placement_allows(game, seed, domino) -> None:
    """legal_placements is generated from the squares a half can connect through, not by
    trying the whole window: it must list exactly what check_placement allows, in order."""
    from tabletap.games.kingdomino.rules.dominoes import dominoes
    from tabletap.games.kingdomino.rules.kingdom import legal_placements
    players, options = game
    s = ENGINE.new_game(players, seed, options, {})
    rng = random.Random(seed)
    step = 0
    while not ENGINE.is_over(s):
        if step % 4 == 0:
            for k in s.kingdoms.values():
                d = dominoes()[domino]
                assert legal_placements(k.cells, s.size, d) == _placements_by_trying(
                    k.cells, s.size, d)
        s = ENGINE.apply(s, rng.choice(ENGINE.legal_actions(s))).state
        step += 1


@settings(max_examples=10, deadline=None)
@given(game=GAMES, seed=st.integers(0, 2**31))
def test_kept_territories_score_like_the_flood_fill(game, seed) -> None:
    """Each kingdom keeps its territories square by square (regions.Regions) and the engine's
    scores() sums them: after every action they must give score_kingdom's points, and the
    scores the breakdown's (bonuses and a Dynasty's earlier games included)."""
    from tabletap.games.kingdomino.rules.regions import Regions
    players, options = game
    s = ENGINE.new_game(players, seed, {**options, "dynasty": seed % 3 == 0}, {})
    rng = random.Random(seed)
    while not ENGINE.is_over(s):
        s = ENGINE.apply(s, rng.choice(ENGINE.legal_actions(s))).state
        scores = ENGINE.scores(s)
        for p, k in s.kingdoms.items():
            assert k.points() == score_kingdom(k.cells, k.gems).score
            assert k.points() == Regions.of(k.cells).points(k.gems)
            assert scores[p] == sum(r[p][0] for r in s.results) + ENGINE.breakdown(s, p).score


@settings(max_examples=5, deadline=None)
@given(game=GAMES, seed=st.integers(0, 2**31))
def test_board_placements_are_the_dicts(game, seed) -> None:
    """Kingdoms keep their squares as bits (kingdom board) for legal_actions and apply: what
    the bits list must be what placement_spots lists from the dict, and apply must accept
    exactly the placements check_placement allows (every square and facing near the kingdom,
    the refusals with check_placement's own reason)."""
    from tabletap.games.kingdomino.rules.dominoes import dominoes
    from tabletap.games.kingdomino.rules.kingdom import (
        FACINGS,
        Placement,
        check_placement,
        placement_spots,
    )
    players, options = game
    s = ENGINE.new_game(players, seed, options, {})
    rng = random.Random(seed)
    while not ENGINE.is_over(s):
        legal = ENGINE.legal_actions(s)
        if s.step == "place" and not s.unconfirmed and not s.reveals:
            player, number = ENGINE._acting(s), ENGINE._acting_domino(s)
            d, k = dominoes()[number], s.kingdoms[ENGINE._acting(s)]
            assert s.spots(player, d) == placement_spots(k.cells, s.size, d)
            rmin, rmax, cmin, cmax = bounds(k.cells)
            for r in range(rmax - s.size, rmin + s.size + 1):
                for c in range(cmax - s.size, cmin + s.size + 1):
                    for facing in FACINGS:
                        action = Action("place", domino=number, at=(r, c), facing=facing)
                        try:
                            check_placement(k.cells, s.size, d, Placement(number, (r, c), facing))
                            expected = None
                        except Rejection as refused:
                            expected = refused.code
                        try:
                            ENGINE.apply(s, action)
                            got = None
                        except Rejection as refused:
                            got = refused.code
                        assert got == expected, (r, c, facing)
                        assert (expected is None) == (action in legal)
        s = ENGINE.apply(s, rng.choice(legal)).state
