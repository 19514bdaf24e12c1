"""The table's check from the phone: the daemon runs `tabletap doctor`'s checks on the devices it
holds (controller.health.table). With no game under way that is the whole check, the chest's
sweep and the lights' colours included; a reader unplugged in the simulator fails, with the
doctor's hint, over the control socket and on the page."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.table import Table, _wait
from tests.web.test_page import check_phone_layout, pair, shoot

WHOLE = ["reader chest", "reader pond", "chest servo", "lights", "button end-turn",
         "button roll", "state folder"]
# the same checks as a parent reads them on the page (the maker's words are folded under each)
PLAIN = ["Reader at the chest: working", "Reader at the pond: not working", "Chest: working",
         "Lights: working", "The end-turn button: working", "The roll button: working",
         "Saved games: working, room for"]


@pytest.fixture(scope="module")
def idle_table(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The daemon on the simulator with no game under way."""
    t = Table(tmp_path_factory.mktemp("doctor"), game={"game": None})
    yield t
    t.stop()


def unplugged(table: Table, reader: str) -> None:
    """Unplug a simulated reader and wait until the daemon has found it gone."""
    said = f"reader {reader} is missing"
    before = table.log().count(said)
    table.say(f"unplug {reader}")
    _wait(lambda: table.log().count(said) > before, repr(said))


def test_the_control_socket_runs_the_whole_check_with_no_game_under_way(idle_table):
    table = idle_table
    reply = table.ask({"doctor": True})
    assert reply["ok"] and reply["full"] is True and reply["skipped"] is None
    found = {f["device"]: f for f in reply["findings"]}
    assert list(found) == WHOLE
    assert all(f["status"] == "ok" for f in found.values()), found
    assert found["chest servo"]["detail"] == "opened and closed (simulated)"
    assert found["lights"]["detail"] == "showed red, green, blue, then off"
    assert found["button roll"]["detail"] == "a simulated press came through"
    assert reply["summary"] == f"All {len(WHOLE)} checks are fine."
    unplugged(table, "pond")
    try:
        reply = table.ask({"doctor": True})
    finally:
        table.say("plug pond")
    pond = next(f for f in reply["findings"] if f["device"] == "reader pond")
    assert pond["status"] == "failed" and "the simulated reader is unplugged" in pond["detail"]
    assert reply["summary"] == f"1 of {len(WHOLE)} checks failed: fix those before playing."


def test_the_page_shows_every_check_and_the_failing_reader(idle_table, page_of):
    table = idle_table
    _wait(lambda: table.ask({"doctor": True})["findings"][1]["status"] == "ok",
          "the pond reader back")
    page = page_of(table)
    pair(page, table)
    unplugged(table, "pond")
    try:
        page.click("#doctor summary")
        page.click("#doctor-run")
        page.wait_for_selector("#findings li.failed:has-text('Reader at the pond')")
    finally:
        table.say("plug pond")
    text = page.inner_text("#findings")
    for line in PLAIN:
        assert line in text
    assert "MiB" not in text and "PN532" not in text
    for device in WHOLE:  # for the maker, folded
        assert device in page.text_content("#findings")
    assert "the simulated reader is unplugged" in page.text_content("#findings li.failed")
    assert page.locator("#findings li.ok").count() == len(WHOLE) - 1
    assert "1 of 7 checks failed" in page.inner_text("#doctor-summary")
    assert page.is_hidden("#doctor-skipped")
    check_phone_layout(page)
    shoot(page, "doctor", "#doctor")
    assert page.errors == []
