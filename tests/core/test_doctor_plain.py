"""The table check's lines for a parent (issue 21, defect 11): no maker's jargon."""

from __future__ import annotations

from tabletap.controller.health.checks import Finding
from tabletap.controller.health.plain import plain


def test_the_lines_say_what_works_in_a_parents_words() -> None:
    reader = Finding("ok", "reader chest", "answers polls (spi), PN532 firmware 1.6")
    assert plain(reader) == "Reader at the chest: working"
    folder = Finding("ok", "state folder", "state: writable, 76047 MiB free")
    said = plain(folder)
    assert said.startswith("Saved games: working, room for") and "MiB" not in said
    small = Finding("warning", "state folder", "state: only 40 MiB free; make room")
    assert plain(small) == "Saved games: needs a look, room for about 409 more games"
    button = Finding("failed", "button end-turn (GPIO17)", "a simulated press never arrived")
    assert plain(button) == "The end-turn button: not working"
