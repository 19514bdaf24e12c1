"""Every registered game fills every slot of its spec (controller.games.spec) that a table, the
page, self-play and the tools need, and what it fills in works: a spec with a missing undo
sentence, a seat rule that seats nobody or a page view that is not there fails here, naming the
game and the slot.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
from importlib import resources

import pytest

from tabletap.controller.games import registry
from tabletap.controller.games.base import GameTable
from tabletap.controller.games.spec import GameSpec
from tabletap.controller.language.tree import spelled
from tabletap.controller.language.words import Words
from tabletap.controller.selfplay.play import play_game, seat_names
from tabletap.controller.spoken.words import piece_words
from tabletap.controller.table.takeback import GENERIC, chance_reason

GAMES = registry.games()
ids = [g.name for g in GAMES]


def test_the_shipped_games_are_found_by_entry_point():
    assert {"magic-keys", "oversiege", "kingdomino", "key-to-the-kingdom"} <= set(
        registry.game_names())


@pytest.mark.parametrize("spec", GAMES, ids=ids)
def test_the_spec_is_whole(spec: GameSpec):
    assert isinstance(spec, GameSpec)
    assert spec.title and spec.title != spec.name, "a title as a person says it"
    assert 1 <= spec.players.least <= spec.players.most
    assert spec.seating.how and spec.seating.how[0].islower(), "a sentence's second half"
    for option in spec.options:
        assert option.help.endswith("."), f"{option.name}: its sentence"
        assert not option.choices or option.default in option.choices, option.name
    engine = spec.engine()
    assert getattr(engine, "name", spec.name) == spec.name
    table = spec.table()
    assert isinstance(table, GameTable) and table.game == spec.name
    assert table.piece_prefix() == spec.piece_prefix
    assert set(spec.selfplay.policies) >= {"random", "greedy"}
    assert (spec.docs.startswith("docs/") or spec.docs.startswith("examples/")) \
        and spec.docs.endswith(".md")
    for module in (spec.bench, spec.scenarios):
        if module is not None:
            importlib.import_module(module)
    script = resources.files(registry.package_of(spec.name)).joinpath(spec.page.script)
    assert script.is_file(), f"{spec.name}: the page view {spec.page.script} is missing"
    if spec.page.style is not None:
        assert resources.files(registry.package_of(spec.name)).joinpath(spec.page.style).is_file()
    # the factories name real things (they import only when called)
    players = seat_names(spec.name, max(spec.players.least, 2))
    state = engine.new_game(players, 1, dict(spec.selfplay.options), {})
    if spec.page.extras is not None:
        json.dumps(spelled(spec.page.extras(engine, state), Words("de")))  # what the page gets
    if spec.score_file is not None:
        spec.score_file.add_arguments(argparse.ArgumentParser())
    if spec.content is not None:
        assert callable(spec.content.check)


@pytest.mark.parametrize("spec", GAMES, ids=ids)
def test_every_piece_is_the_game_s_and_said_in_words(spec: GameSpec):
    pieces = spec.pieces(())
    assert pieces and len(set(pieces)) == len(pieces)
    for piece in pieces:
        assert piece.split("/", 1)[0] == spec.piece_prefix, piece
        words = piece_words(piece)
        assert "/" not in words and spec.piece_prefix not in words.split(), (piece, words)


@pytest.mark.parametrize("spec", GAMES, ids=ids)
def test_a_piece_of_the_game_seats_a_player_or_a_button_does(spec: GameSpec):
    seated = {spec.seating.seat_of(p) for p in spec.pieces(())} - {None}
    assert seated or spec.seating.by_button, f"{spec.name}: nobody can join at the table"
    assert spec.seating.seat_of("admin/1") is None


@pytest.mark.parametrize("spec", GAMES, ids=ids)
def test_every_action_of_a_played_game_has_its_undo_sentence(spec: GameSpec):
    """The undo says what to put back for every kind of action a game makes (the missing
    sentence of one game fell back to a generic one before games were plugins). Kinds that
    leave nothing on the table to put back (an end of turn) may say nothing; chance is never
    taken back."""
    engine = registry.engine_for(spec.name)
    kinds: dict[str, str] = {}
    for seed in range(6):
        rng = random.Random(seed)
        players = seat_names(spec.name, max(spec.players.least, 2))
        state = engine.new_game(players, seed, dict(spec.selfplay.options), {})
        choose = spec.selfplay.policies["random"]
        for _ in range(400):
            if engine.is_over(state):
                break
            action = choose(engine, state, engine.legal_actions(state), rng)
            if spec.selfplay.resolve is not None:
                action = spec.selfplay.resolve(state, action, rng)
            outcome = engine.apply(state, action)
            data = engine.action_to_json(outcome.action)
            kind = str(data.get("type") or data.get("action"))
            if chance_reason(data) is None:
                kinds.setdefault(kind, spec.put_back(data, state))
            state = outcome.state
    assert kinds
    for kind, sentence in kinds.items():
        assert sentence != GENERIC, f"{spec.name} {kind}: the generic sentence"
    assert any(kinds.values()), f"{spec.name}: no action says what to put back"


@pytest.mark.parametrize("spec", GAMES, ids=ids)
def test_self_play_finishes_a_game(spec: GameSpec):
    players = seat_names(spec.name, spec.players.least if spec.players.least > 1 else 2)
    record = play_game(spec.name, players, 3, "greedy")
    assert record.finished and record.actions > 0
