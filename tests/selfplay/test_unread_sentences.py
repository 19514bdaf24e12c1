"""Games nobody listens to build no sentences; a sentence read later is the one the move made.

`Event` takes its sentence as a callable so that self-play, the property tests and `make
bench`'s games per CPU-second never pay for it (controller/rules/base.py). Kingdomino built
eight of its events' sentences at once (the line out of the box, each domino tapped, each gem,
each discard): about 37 messages a two-player game, each a `Said` with its parameters, which the
collector then traces. Its games per CPU-second fell below those of the tree issue 23 was filed
on: 14.24 M instructions a game of `kingdomino/2` against 9a59140's 13.91 M (`python -m
bench.games_compare 9a59140 --instructions 20`); with the sentences built when read, 13.89 M
against 13.90 M (the same command, a run later).
Oversiege built a refusal for every piece id it read, raised or not.
"""

from __future__ import annotations

import random

import pytest

from tabletap.controller.language import said
from tabletap.controller.selfplay.play import VARIANTS, chooser, play_game, seat_names
from tabletap.games.kingdomino.rules import ENGINE
from tabletap.games.kingdomino.rules.treasures import token_kind


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_game_nobody_reads_builds_no_sentence(
        variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game, players, options = VARIANTS[variant]
    names = seat_names(game, players)
    play_game(game, names, 0, "random", options)  # the first game's imports and caches
    built: list[dict] = []
    real = said._frozen

    def counting(params: dict) -> tuple:
        built.append(params)
        return real(params)

    monkeypatch.setattr(said, "_frozen", counting)  # every message passes here (Domain.msg*)
    actions = sum(play_game(game, names, seed, "random", options).actions
                  for seed in range(1, 4))
    assert actions > 0
    assert built == []


def test_kingdominos_sentences_say_the_move_that_made_them() -> None:
    """The deferred sentences hold the values of their own move, not of a later state (a
    closure over a state that the next move changes would say the wrong domino or gem)."""
    choose = chooser("kingdomino", "random")
    rng = random.Random(3)
    state = ENGINE.new_game(["ana", "ben"], 3, {"treasures": True}, {})
    events = []
    while not ENGINE.is_over(state):
        outcome = ENGINE.apply(state, choose(ENGINE, state, ENGINE.legal_actions(state), rng))
        events.extend(outcome.events)  # read only at the end, after every later move
        state = outcome.state
    kinds = {e.kind for e in events}
    assert {"confirmed", "line", "revealed", "treasure-found", "treasure"} <= kinds
    for e in events:
        text = e.text
        assert "%(" not in text and text.strip()
        if e.kind == "confirmed":
            assert text == f"Domino {e.data['domino']} is on the table."
        elif e.kind == "line":
            assert all(str(n) in text for n in e.data["dominoes"])
            assert text.startswith("From the box: ")
        elif e.kind in ("revealed", "treasure"):
            assert token_kind(e.data["token"]) in text
        elif e.kind in ("treasure-found", "discarded"):
            assert text.startswith(e.data["player"])
