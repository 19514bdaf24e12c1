"""Kingdomino says places as a child sees them, never as coordinates (issue 21's "no raw id" on
the page's top lines, ahead of issue 20's "Words a child understands": not `[0, 1]`, not
"column 0, row 1", which was also the wrong way round: positions are (row, col))."""

from __future__ import annotations

import random

from tabletap.controller.games import registry
from tabletap.controller.language.words import Words
from tabletap.controller.rules.base import english
from tabletap.controller.selfplay.play import chooser, seat_names
from tabletap.games.kingdomino.rules.places import placement_words, square_words


def test_a_square_is_said_from_the_castle_rows_down_columns_right():
    assert english(square_words((-2, 0))) == "two above the castle"
    assert english(square_words((1, -1))) == "one below and one to the left of the castle"
    assert english(square_words((0, 3))) == "three to the right of the castle"
    assert english(placement_words((0, -1), "north")) == \
        "one to the left of the castle, pointing up"


def test_a_square_is_said_in_german_as_a_whole_phrase():
    assert Words("de").render(square_words((0, 1))) == "ein Feld rechts von deiner Burg"


def test_no_sentence_of_a_whole_game_holds_a_coordinate():
    engine, spec = registry.engine_for("kingdomino"), registry.game("kingdomino")
    players = seat_names("kingdomino", 3)
    options = {**spec.selfplay.options, "treasures": True}
    state = engine.new_game(players, 7, options, {})
    rng, choose = random.Random(7), chooser("kingdomino", "random")
    said = []
    while not engine.is_over(state):
        action = choose(engine, state, engine.legal_actions(state), rng)
        if spec.selfplay.resolve is not None:
            action = spec.selfplay.resolve(state, action, rng)
        outcome = engine.apply(state, action)
        said += [ev.text for ev in outcome.events]
        state = outcome.state
    assert any("places the" in s and "domino" in s for s in said)
    assert any("treasure" in s for s in said)
    assert [s for s in said if "[" in s or "]" in s or "column" in s] == []
