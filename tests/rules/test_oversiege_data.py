"""cards.yaml: the placeholder content the issue specifies, and a loud failure for a broken file.

The rulebook prints no counts or icons (docs/games/oversiege.md, "Sources beyond the rulebook":
"Deck composition per player (unknown): keep counts in a data file, marked as a placeholder").
"""

from __future__ import annotations

from importlib import resources

import pytest

from tabletap.games.oversiege.rules.data import (
    DECK_CARDS,
    CardDataError,
    load_cards,
    parse_cards,
)

TEXT = resources.files("tabletap.games.oversiege.rules").joinpath("cards.yaml").read_text()


def test_placeholder_icons_match_the_issue():
    """Until a maker enters their copy: towers 1-2 stone, 3-4 bolt, entrance ram; a standing
    tower a half blue icon, the standing entrance a full one, destroyed sides none."""
    cards = load_cards()
    assert cards.red["tower/1"] == cards.red["tower/2"] == {"stone"}
    assert cards.red["tower/3"] == cards.red["tower/4"] == {"bolt"}
    assert cards.red["entrance"] == {"ram"} and cards.red["chamber"] == frozenset()
    assert all(cards.blue_halves[f"tower/{n}"] == (1, 0) for n in range(1, 5))
    assert cards.blue_halves["entrance"] == (2, 0)


def test_every_card_type_has_a_copy_and_unconfirmed_values_are_marked():
    cards = load_cards()
    assert set(cards.copies) == set(DECK_CARDS) and min(cards.copies.values()) >= 1
    assert "guess" in cards.status.values()
    assert cards.min_draw == 0 and cards.status["draw.minimum"] == "confirmed"  # TURNS
    assert "PLACEHOLDER" in TEXT
    assert cards.deck_cards("red")[0] == "oversiege/red/catapult/1"
    assert len(cards.deck_cards("red")) == cards.deck_size


@pytest.mark.parametrize("old, new, words", [
    ("  tower/4: {status: guess, red: [bolt], blue: {standing: half, destroyed: none}}\n", "",
     "missing tower/4"),
    ("entrance: {status: guess, red: [ram]", "entrance: {status: guess, red: [stone]",
     "only to a ram"),
    ("chamber: {status: guess, red: []", "chamber: {status: guess, red: [bolt]", "chamber"),
    ("key: {status: likely, copies: 1}", "key: {status: likely, copies: 0}", "deck.key.copies"),
    ("minimum: {status: confirmed, cards: 0}", "minimum: {status: confirmed, cards: -1}",
     "draw.minimum.cards"),
    ("key: {status: likely, copies: 1}", "key: {status: likely, copies: 1, colour: red}",
     "unknown key"),
    ("  blockade: {status: guess, copies: 2}\n", "  shield: {status: guess, copies: 2}\n",
     "missing blockade"),
    ("stone: {status: likely, armament: catapult", "stone: {status: likely, armament: sling",
     "projectiles.stone.armament"),
    ("castle:\n", "castle: [\n", "not valid YAML"),
])
def test_broken_files_fail_loudly(old, new, words):
    assert old in TEXT
    with pytest.raises(CardDataError) as info:
        parse_cards(TEXT.replace(old, new, 1), "cards.yaml")
    assert words in str(info.value) and str(info.value).startswith("cards.yaml")


def test_a_card_name_without_english_is_named_at_its_own_line():
    """A card's names need English, the fallback (cards.yaml's `names:` comment): the error
    says which card, on its line, not just `names`."""
    old = "  tower/1: {en: tower 1, de: Turm 1,"
    line = TEXT[:TEXT.index(old)].count("\n") + 1
    with pytest.raises(CardDataError) as info:
        parse_cards(TEXT.replace(old, "  tower/1: {de: Turm 1,", 1), "cards.yaml")
    assert str(info.value).startswith(f"cards.yaml:{line}:3: names.tower/1: a name needs its "
                                      "English spelling")
