"""Sentences fit to be spoken: piece names in words, no console symbols, and no coordinate
rewritten into words (a bracket reaching the voice stays, so tests/language finds it)."""

from __future__ import annotations

from tabletap.controller.language.messages import msg
from tabletap.controller.language.words import Words
from tabletap.controller.spoken.words import piece_said, piece_words, refusal, spoken


def test_piece_ids_become_words():
    # the games' own words (their piece_words), whatever they are, never the id
    assert "/" not in spoken("red places oversiege/red/battering-ram/1.")
    assert "battering ram" in spoken("red places oversiege/red/battering-ram/1.")
    assert spoken("ana tries magic-keys/key/gold.").endswith("golden key.")
    assert spoken("ana puts king pink/1 on domino 31.") == "ana puts king pink 1 on domino 31."
    assert "/" not in piece_words("kingdomino/king/blue/2")
    assert piece_words("game/key-to-the-kingdom") == "the Key to the Kingdom card"


def test_a_game_card_is_said_in_the_familys_language():
    assert Words("de")(piece_said("game/magic-keys")) != "the Magic Keys card"


def test_a_coordinate_is_not_rewritten_and_stays_visible():
    assert spoken("ben places domino 5 at [1, -1] facing east.") == (
        "ben places domino 5 at [1, -1] facing east.")


def test_dice_faces_stay_as_words_and_numbers():
    assert spoken("ana rolls 2, moon, 4. 1 moon set aside.") == (
        "ana rolls 2, moon, 4. 1 moon set aside.")


def test_a_refusal_is_said_with_its_reason_and_without_symbols():
    reason = msg("Nobody has joined yet: %(how)s.", how="tap")
    assert spoken(Words()(refusal(reason))) == "No. Nobody has joined yet: tap."
    assert spoken("Tap the `orient` card… now") == "Tap the orient card now"
