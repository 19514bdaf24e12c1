"""bench nfc's phantom removals under the two models of a resting tag's misses
(sim/pn532/faults.py): the chip's six activations in one listing against the shipped re-listings
(docs/nfc.md, "Extra listings")."""

from __future__ import annotations

from bench.nfc import phantoms

CHIP = {"relists": 0, "passive_retries": 5}


def test_misses_by_activation_remove_a_resting_tag_alike_either_way():
    """Each activation takes one draw either way, until one finds the tag, so with one seed the
    two ways miss it in the same polls (six activations missed in a row, at 0.6⁶ ≈ 4.7 % a
    poll): about the same removals, the polls' times apart."""
    shipped, _, _ = phantoms(1, 0.6, per_activation=True)
    chip, _, _ = phantoms(1, 0.6, per_activation=True, **CHIP)
    assert shipped > 5 and abs(shipped - chip) <= 0.2 * shipped


def test_misses_by_whole_listing_remove_a_resting_tag_only_without_re_listings():
    shipped, _, _ = phantoms(1, 0.2, kinds=("fade",))
    chip, _, _ = phantoms(1, 0.2, kinds=("fade",), **CHIP)
    assert shipped < chip and chip > 10
