"""Sentences fit to be spoken: piece names in words, numbers plainly, no console symbols."""

from __future__ import annotations

from tabletap.controller.spoken.words import piece_words, refusal, spoken


def test_piece_ids_become_words():
    assert spoken("red places oversiege/red/battering-ram/1.") == "red places red battering ram 1."
    assert spoken("ana tries magic-keys/key/gold.") == "ana tries golden key."
    assert spoken("ana puts king pink/1 on domino 31.") == "ana puts king pink 1 on domino 31."
    assert piece_words("kingdomino/king/blue/2") == "blue king 2"
    assert piece_words("game/key-to-the-kingdom") == "the Key to the Kingdom card"


def test_coordinates_and_negative_numbers_are_said_plainly():
    assert spoken("ben places domino 5 at [1, -1] facing east.") == (
        "ben places domino 5 at column 1, row minus 1 facing east.")


def test_dice_faces_stay_as_words_and_numbers():
    assert spoken("ana rolls 2, moon, 4. 1 moon set aside.") == (
        "ana rolls 2, moon, 4. 1 moon set aside.")


def test_a_refusal_is_said_with_its_reason_and_without_symbols():
    assert refusal("Tap the `orient` card… now") == "No. Tap the orient card now"
