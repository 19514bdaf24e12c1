"""Each game's view in the browser, drawn from a real table mid-game, and its screenshot at
360x800 (docs/screenshots/, looked at before committing)."""

from __future__ import annotations

import pytest

from tests.web.table import Table
from tests.web.test_page import check_phone_layout, pair, shoot, tap

MAGIC_KEYS = {"game": "magic-keys", "players": ["ana", "ben", "cleo"], "seed": 3,
              "options": {"dice": "digital"},
              "setup": {"fake_keys": ["purple/4", "purple/5", "blue/1", "blue/2", "green/3",
                                      "green/5", "yellow/1", "yellow/2"]}}
OVERSIEGE = {"game": "oversiege", "players": ["red", "blue"], "seed": 1}


@pytest.fixture()
def fresh_table(tmp_path):
    tables = []

    def start(game: dict) -> Table:
        t = Table(tmp_path / game["game"], game)
        tables.append(t)
        return t

    (tmp_path / "magic-keys").mkdir()
    (tmp_path / "oversiege").mkdir()
    yield start
    for t in tables:
        t.stop()


def test_magic_keys_shows_the_track_the_pawn_and_the_gems(fresh_table, page_of):
    table = fresh_table(MAGIC_KEYS)
    page = page_of(table)
    page.wait_for_selector("#mk-track .space")
    table.say("roll 2 moon 4")
    table.say("press roll")
    page.wait_for_selector("#mk-track:has-text('showing 2 4')")
    assert page.inner_text("#now-line").startswith("ana: ")
    assert "Gems to win" in page.inner_text("#mk-keys")
    assert page.query_selector(".space.pawn") is not None
    assert page.query_selector("#mk-reveal") is None  # a watcher never sees the secret
    assert page.evaluate("fetch('/api/reveal').then((r) => r.status)") == 401
    check_phone_layout(page)
    shoot(page, "magic-keys", "#mk-track")
    pair(page, table)
    page.click("#mk-reveal")
    page.wait_for_selector("#mk-secret:has-text('the fourth purple key')")  # in words, not ids
    assert page.errors == []


def test_oversiege_shows_every_castle(fresh_table, page_of):
    table = fresh_table(OVERSIEGE)
    page = page_of(table)
    page.wait_for_selector("#castle-blue")
    tap(page, table, "oversiege/red/catapult/1")
    tap(page, table, "oversiege/red/crossbow/1")
    tap(page, table, "oversiege/red/stone/1")
    tap(page, table, "oversiege/blue/tower/1")
    page.wait_for_selector("#castle-blue .tower.destroyed")
    assert "catapult" in page.inner_text("#castle-red")
    pair(page, table)  # a paired phone sees the same castles, and its controls
    check_phone_layout(page)
    shoot(page, "oversiege", "#castle-red")
    assert page.errors == []
