"""A damaged saved game is told on the page too, at its top, to a parent who opens it later
(issue 22, defect 1: "tell the family at the table and on the page what happened"), in Debian's
chromium against the real daemon and page processes."""

from __future__ import annotations

from pathlib import Path

from tabletap.controller.state.damage import HELD_LINE
from tests.reliability.journal_damage import kingdomino_journal, zero_last_4k
from tests.web.table import Table
from tests.web.test_page import SHOTS


def test_a_held_table_says_so_at_the_top_of_the_page(tmp_path: Path, page_of):
    journal = kingdomino_journal(tmp_path / "state")  # the Table's state folder, "state"
    damaged = zero_last_4k(journal.path.read_bytes())
    journal.path.write_bytes(damaged)
    table = Table(tmp_path)
    try:
        page = page_of(table)
        page.wait_for_function("document.getElementById('now-line').textContent.length > 0")
        line = page.text_content("#now-line")
        assert line == HELD_LINE
        assert not page.errors
        page.screenshot(path=str(SHOTS / "held.png"))
        assert journal.path.read_bytes() == damaged  # the page's asking changed nothing
    finally:
        table.stop()
