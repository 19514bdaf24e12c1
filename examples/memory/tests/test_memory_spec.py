"""Memory's spec (`tabletap_memory.GAME`) fills every slot a table, the page, self-play and the
tools need, and is found by its entry point once the distribution is installed: the checks
tabletap makes of every game (tests/seam/test_specs.py), made here for this one game, so the
distribution can be tested on its own."""

from __future__ import annotations

import importlib
from importlib import resources

import pytest
import tabletap_memory
from tabletap_memory import GAME, bench

from tabletap.controller.games import registry
from tabletap.controller.games.base import GameTable
from tabletap.controller.games.spec import GameSpec
from tabletap.controller.language.said import Said
from tabletap.controller.language.words import Words
from tabletap.controller.rules.base import english
from tabletap.controller.spoken.words import piece_words
from tabletap.controller.table.takeback import GENERIC, put_back


def test_the_entry_point_finds_the_game() -> None:
    """`[project.entry-points."tabletap.games"] memory = "tabletap_memory:GAME"`."""
    assert registry.find("memory") is GAME
    assert registry.package_of("memory") == "tabletap_memory"
    assert registry.of_piece("memory/card/owl/a") is GAME
    assert registry.title("memory") == "Memory"


def test_the_spec_is_whole() -> None:
    assert isinstance(GAME, GameSpec)
    assert (GAME.name, GAME.title, GAME.piece_prefix) == ("memory", "Memory", "memory")
    assert (GAME.players.least, GAME.players.most) == (1, 6)  # a solo game is allowed
    assert [o.name for o in GAME.options] == ["deck"]
    deck = GAME.options[0]
    assert deck.default == "default" and deck.default in deck.choices
    assert deck.help.endswith(".")
    assert GAME.option_defaults() == {"deck": "default"}
    engine = GAME.engine()
    assert engine.name == "memory" and engine is GAME.engine()  # one engine per process
    table = GAME.table()
    assert isinstance(table, GameTable) and table.game == "memory"
    assert table.piece_prefix() == GAME.piece_prefix and table is not GAME.table()
    assert set(GAME.selfplay.policies) >= {"random", "greedy"}
    assert GAME.selfplay.seats(3) == ["seat1", "seat2", "seat3"]
    assert GAME.docs == "examples/memory/README.md"
    assert GAME.content is None and GAME.score_file is None and GAME.decks is None


def test_the_spec_s_words_are_messages_of_the_game_s_catalog() -> None:
    """Issue 20: the title, the option's sentence and labels and the seating sentence are
    msgids of the `memory` catalog (words.py), so the table and the page say them in the
    family's language."""
    deck = GAME.options[0]
    for text in (GAME.title, deck.help, *deck.labels, GAME.seating.how):
        assert Words("de").render(Said("memory", text)) != text or text == "Memory", text
    assert Words("de").render(Said("memory", GAME.seating.how)).startswith("drückt")


def test_the_engine_meets_the_engine_contract() -> None:
    """Every method of rules/base.py's Engine protocol, by name."""
    engine = GAME.engine()
    for method in ("new_game", "apply", "legal_actions", "state_to_json", "state_from_json",
                   "action_to_json", "action_from_json", "public_view", "scores",
                   "current_player", "winners", "is_over"):
        assert callable(getattr(engine, method)), method


def test_players_join_by_the_roll_button_and_no_card_seats_anyone() -> None:
    """"Seating: a player joins by a short press of the roll button ... and seat_of returns
    None for every piece (Memory has no personal pieces)."""
    assert GAME.seating.by_button
    assert GAME.seating.how == "press the roll button once for each player"
    assert all(GAME.seating.seat_of(p) is None for p in GAME.pieces(()))
    assert GAME.seating.seat_of("admin/1") is None


def test_every_card_is_the_game_s_and_said_in_words() -> None:
    """"pieces.py (all 24 ids; words: `card/owl/a` -> "owl card")"."""
    pieces = GAME.pieces(())
    assert len(pieces) == len(set(pieces)) == 24
    assert pieces[:2] == ["memory/card/owl/a", "memory/card/owl/b"]
    assert all(p.startswith("memory/card/") for p in pieces)
    # a Said of the game's catalog, the picture's name from the deck file (issue 20)
    assert english(GAME.piece_words(["card", "owl", "a"])) == "owl card"
    assert Words("de")(GAME.piece_words(["card", "owl", "a"])) == "Karte Eule"
    assert piece_words("memory/card/apple/b") == "apple card"  # as the controller says it
    assert english(GAME.piece_words(["card", "zebra", "a"])) == "a card that is in no deck"
    assert GAME.piece_words(["box"]) is None  # said plainly


def test_a_flip_taken_back_says_what_to_put_back() -> None:
    """put_back sentences, told apart by the state before the flip: a turn's first card goes
    face down again; the card that made a pair puts the pair back; after a miss the first card
    is face up again."""
    engine = GAME.engine()
    fresh = engine.new_game(["ana", "ben"], 0, {}, {})
    up = engine.apply(fresh, engine.action_from_json({"action": "flip", "card": "owl/a"})).state
    first = GAME.put_back({"action": "flip", "card": "owl/a"}, fresh)
    assert english(first) == "Turn the owl card face down again."
    assert Words("de")(first) == "Leg die Karte Eule wieder verdeckt hin."
    pair = GAME.put_back({"action": "flip", "card": "owl/b"}, up)
    assert english(pair).startswith("Put the owl pair back where it lay")
    miss = GAME.put_back({"action": "flip", "card": "fox/a"}, up)
    assert english(miss) == "Turn the owl card face up again; the fox card stays face down."
    assert put_back("memory", {"action": "shuffle"}) == GENERIC  # a newer journal's action
    # a card of no deck has no name: the controller's plain sentence, not its id
    assert put_back("memory", {"action": "flip", "card": "zebra/a"}, fresh) == GENERIC


def test_the_page_view_and_its_extras_are_there() -> None:
    script = resources.files(registry.package_of("memory")).joinpath(GAME.page.script)
    assert script.is_file()
    text = script.read_text(encoding="utf-8")
    assert "TT.views.memory" in text and "innerHTML" not in text
    engine = GAME.engine()
    assert GAME.page.extras is not None
    extras = GAME.page.extras(engine, engine.new_game(["ana"], 0, {}, {}))
    # every language the deck file spells, for the page's own language (a phone may differ)
    assert extras["names"]["owl"]["en"] == "owl" and extras["names"]["owl"]["de"] == "Eule"
    assert len(extras["names"]) == 12 and extras["title"]["en"].startswith("twelve animals")


def test_the_bench_gives_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """`bench` names a module with `run()` -> [(figure, value, unit)], like the shipped
    games' bench modules."""
    assert GAME.bench is not None
    assert importlib.import_module(GAME.bench) is bench
    monkeypatch.setattr(bench, "SECONDS", 0.05)
    figures = bench.run()
    assert figures and all(isinstance(f, str) and v > 0 and u for f, v, u in figures)


def test_a_soak_case_plays_two() -> None:
    assert [(c.label, c.players) for c in GAME.soak] == [("memory", ("ana", "ben"))]


def test_importing_the_spec_loads_no_engine() -> None:
    """The factories import lazily, so finding the games costs no engine import."""
    import subprocess
    import sys

    code = ("import sys, tabletap_memory; "
            "print(sorted(m for m in sys.modules if m.startswith('tabletap_memory.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "['tabletap_memory.pieces', 'tabletap_memory.selfplay', " \
        "'tabletap_memory.takeback', 'tabletap_memory.words']", out  # no rules, no deck read
    assert tabletap_memory.DECKS == ("default", "small")
