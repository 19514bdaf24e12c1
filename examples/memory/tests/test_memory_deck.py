"""Memory's decks: the shipped files load and say they are our own, and a malformed deck is
refused with the file, the line and the key (tabletap's bounded YAML loader)."""

from __future__ import annotations

import re

import pytest
from tabletap_memory import DECKS
from tabletap_memory.rules import (
    Deck,
    DeckError,
    MemoryEngine,
    deck_names,
    load_deck,
    parse_deck,
)
from tabletap_memory.rules import engine as engine_module

from tabletap.controller.rules.base import Rejection

DEFAULT_PICTURES = ("owl", "fox", "bear", "frog", "cat", "dog", "fish", "bird", "apple", "sun",
                    "moon", "star")


def test_the_default_deck_is_twelve_pairs_of_our_own() -> None:
    """"A default deck of 12 pairs ... each with a `name` to say"; "mark in the YAML that the
    deck is our own (not from any rulebook)"."""
    deck = load_deck("default")
    assert deck.pictures == DEFAULT_PICTURES and deck.pairs == 12
    assert deck.cards[:3] == ("owl/a", "owl/b", "fox/a") and len(deck.cards) == 24
    assert deck.ours is True and deck.say("owl").english() == "owl"


@pytest.mark.parametrize("name", DECKS)
def test_every_shipped_name_is_spelt_in_every_shipped_language(name: str) -> None:
    """Issue 20: the deck's names live in its file, one spelling per language, so a German
    family hears "Eule"; English is the fallback a file must have."""
    deck = load_deck(name)
    for named in (deck.title, *deck.names.values()):
        assert set(dict(named.names)) >= {"en", "de", "fr", "es", "ko"}, named
    assert dict(load_deck("default").names["owl"].names)["de"] == "Eule"


def test_every_shipped_deck_loads_and_the_option_offers_each() -> None:
    """The `deck` option's choices are exactly the deck files shipped; the small deck is made
    of the default deck's cards, so one set of tags serves both."""
    assert deck_names() == DECKS == ("default", "small")
    small = load_deck("small")
    assert small.pairs == 6 and set(small.cards) <= set(load_deck("default").cards)
    assert small.ours is True
    with pytest.raises(KeyError):
        load_deck("huge")


GOOD = """\
ours: true
title: two pictures
pictures:
  owl: {name: owl}
  sea-horse: {name: sea horse}
"""


def test_a_well_formed_deck_keeps_the_file_s_order_and_names() -> None:
    deck = parse_deck(GOOD, "mine.yaml", "mine")
    assert deck.name == "mine" and deck.title.english() == "two pictures"
    assert deck.pictures == ("owl", "sea-horse")
    assert deck.say("sea-horse").english() == "sea horse" and deck.say("zebra") is None


def test_a_name_may_be_spelt_per_language_and_must_have_english() -> None:
    deck = parse_deck(GOOD.replace("{name: owl}", "{name: {en: owl, de: Eule}}"), "mine.yaml")
    assert dict(deck.say("owl").names) == {"en": "owl", "de": "Eule"}
    assert deck.say("owl").source == "mine.yaml"
    assert deck.cards == ("owl/a", "owl/b", "sea-horse/a", "sea-horse/b")


@pytest.mark.parametrize(("text", "where"), [
    (GOOD.replace("ours: true\n", ""), "mine.yaml:1: ours: required key is missing"),
    (GOOD.replace("ours: true", "ours: maybe"), "mine.yaml:1: ours:"),
    (GOOD.replace("{name: sea horse}", "{}"), "mine.yaml:5: pictures.sea-horse.name: required"),
    (GOOD.replace("{name: sea horse}", "{name: 7}"), "mine.yaml:5: pictures.sea-horse.name:"),
    (GOOD.replace("{name: sea horse}", "{name: sea horse, colour: blue}"),
     "mine.yaml:5: pictures.sea-horse.colour: unknown key (a typo?)"),
    (GOOD.replace("sea-horse:", "Sea_Horse:"), "mine.yaml:5: pictures.Sea_Horse: a picture's id"),
    (GOOD.replace("{name: sea horse}", "{name: owl}"),
     "mine.yaml:5: pictures.sea-horse.name: 'owl' is already the name of owl"),
    (GOOD.replace("{name: sea horse}", "{name: sea/horse}"),
     "mine.yaml:5: pictures.sea-horse.name: a name is words to say"),
    (GOOD.replace("{name: sea horse}", "{name: {de: Seepferdchen}}"),
     "mine.yaml:5: pictures.sea-horse.name: a name needs its English spelling (en: ...)"),
    (GOOD.replace("{name: sea horse}", "{name: {en: sea horse, de: Eule}}").replace(
        "{name: owl}", "{name: {en: owl, de: Eule}}"),
     "mine.yaml:5: pictures.sea-horse.name.de: 'Eule' is already the name of owl"),
    (GOOD.replace("{name: sea horse}", "{name: {en: sea horse, Deutsch: Seepferdchen}}"),
     "mine.yaml:5: pictures.sea-horse.name.Deutsch: 'Deutsch' is not a language code"),
    (GOOD.replace("{name: sea horse}", "{name: {en: sea horse, de: [See, Pferd]}}"),
     "mine.yaml:5: pictures.sea-horse.name: a name is words (owl) or one spelling"),
    (GOOD.replace("title: two pictures", "title: {de: zwei Bilder}"),
     "mine.yaml:2: title: a name needs its English spelling"),
    ("ours: true\ntitle: none\npictures: {}\n", "mine.yaml:3: pictures: a deck needs at least"),
    ("ours: true\ntitle: x\npictures:\n  owl: {name: owl\n", "mine.yaml:5: not valid YAML"),
    (GOOD + "extra: 1\n", "mine.yaml:6: extra: unknown key"),
    ("ours: true\ntitle: many\npictures:\n"
     + "".join(f"  p{i}: {{name: p {i}}}\n" for i in range(61)), "more than the 60"),
])
def test_a_malformed_deck_names_file_line_and_key(text: str, where: str) -> None:
    """"A malformed deck gives a clear error naming file, line and key.\"" (and the column,
    which the table's loader adds after the line: left out here, where the line is the point)."""
    with pytest.raises(DeckError) as err:
        parse_deck(text, "mine.yaml", "mine")
    assert re.search(r":\d+:\d+: ", str(err.value)) or "more than" in str(err.value)
    assert where in re.sub(r"(yaml:\d+):\d+:", r"\1:", str(err.value))


def test_a_broken_shipped_deck_refuses_the_game_saying_where(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A deck file a maker broke stops the game that names it with `bad-deck` and the file,
    line and key (the daemon prints it and does not start; at the table the game card is
    refused aloud), instead of a traceback."""
    broken = GOOD.replace("{name: sea horse}", "{}")

    def load(name: str) -> Deck:
        return parse_deck(broken, f"decks/{name}.yaml", name)

    monkeypatch.setattr(engine_module, "load_deck", load)
    with pytest.raises(Rejection) as err:
        MemoryEngine().new_game(["ana"], 0, {"deck": "small"}, {})
    assert err.value.code == "bad-deck"
    assert err.value.message == ("The small deck cannot be used: decks/small.yaml:5:3: "
                                 "pictures.sea-horse.name: required key is missing")
