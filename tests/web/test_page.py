"""The page in a real browser (Debian's chromium through Playwright) at 360x800, against the
daemon on the simulator: watching, pairing with the parent card, and a Kingdomino round played
from the phone while the dominoes are tapped in the simulator."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
import yaml

from tabletap.controller.table.pieces import pieces_of
from tests.web.table import Table

ROOT = Path(__file__).resolve().parents[2]
# TABLETAP_SCREENSHOTS=1 writes the screenshots into docs/ (look at each before committing);
# otherwise they go to a temporary folder, removed when the run ends, so a test run leaves the
# tree and /tmp as they were (2.3 MB of screenshots a run were left in /tmp before).
KEEP_SHOTS = os.environ.get("TABLETAP_SCREENSHOTS") == "1"
SHOTS = (ROOT / "docs" / "screenshots" if KEEP_SHOTS
         else Path(tempfile.mkdtemp(prefix="tabletap-shots-")))
if not KEEP_SHOTS:
    atexit.register(shutil.rmtree, SHOTS, True)
SCENARIO = ROOT / "scenarios" / "kingdomino" / "two-players.yaml"
FACINGS = ["east", "south", "west", "north"]


def pair(page, table: Table) -> None:
    page.click("#pair")
    page.wait_for_selector("#pair-wait")
    table.say("tap admin/1 chest")
    page.wait_for_selector("#paired", timeout=10000)


def tap(page, table: Table, piece: str, reader: str = "chest") -> None:
    """Tap in the simulator, then wait until the page has drawn what it did."""
    before = page.get_attribute("body", "data-counter")
    table.say(f"tap {piece} {reader}")
    page.wait_for_selector(f"body:not([data-counter='{before}'])", timeout=10000)


def claim(page, domino: int) -> None:
    page.click(f"button.slot.claimable[data-domino='{domino}']")
    page.wait_for_selector(f".slot[data-domino='{domino}']:not(.claimable) .swatch")


def place(page, domino: int, at: tuple[int, int], facing: str) -> None:
    page.wait_for_selector("#rotate")
    while page.get_attribute("#facing", "data-facing") != facing:
        page.click("#rotate")
    if page.query_selector(f"button.cell.ghost[data-at='{at[0]},{at[1]}']") is None:
        page.click(f"button.cell.legal[data-at='{at[0]},{at[1]}']")  # the preview first
    page.click("#place")
    page.wait_for_selector(f"#kd-now:not(:has-text('places domino {domino}.'))")


TARGETS = """() => [...document.querySelectorAll('button, select, input, summary')]
  .filter((el) => el.checkVisibility())
  .map((el) => el.type === 'checkbox' ? el.closest('label') : el)  // the label is the target
  .map((el) => { const r = el.getBoundingClientRect();
    return [el.id || el.textContent.trim().slice(0, 30), Math.round(r.width),
            Math.round(r.height)]; })"""


def check_phone_layout(page) -> None:
    """At 360 px: nothing scrolls sideways, and every control is a thumb's size (44 CSS px, the
    common touch-target guideline) in both directions."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    small = [t for t in page.evaluate(TARGETS) if min(t[1], t[2]) < 44]
    assert small == []


def shoot(page, name: str, anchor: str) -> None:
    """A 360x800 screenshot for docs/screenshots, the game's view at the top."""
    page.evaluate("document.getElementById('toast').hidden = true")
    page.eval_on_selector(anchor, "el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_a_tap_in_the_simulator_appears_on_the_page(table, page_of):
    page = page_of(table)
    assert "Tap the new line's dominoes" in page.inner_text("#todo")
    tap(page, table, "kingdomino/domino/31")
    assert "Domino 31 is on the table." in page.inner_text("#log")
    assert "31" not in page.inner_text("#todo").split(":")[1]
    page.eval_on_selector("#kd-now", "el => { el.dataset.kept = 'yes'; }")
    tap(page, table, "kingdomino/domino/7")  # not in the line: refused with its sentence
    assert "7" in page.inner_text("#refusal-text")
    # The refusal changed the play-by-play, not the board: the board's buttons were not
    # replaced (a touch landing on a replaced button is lost).
    assert page.query_selector("#kd-now[data-kept='yes']") is not None
    assert page.errors == []


def test_without_pairing_the_page_offers_no_move_and_the_api_refuses(table, page_of):
    page = page_of(table)
    assert page.query_selector("button.claimable") is None
    assert page.is_hidden("#undo") and page.is_visible("#pair")
    status = page.evaluate("""async () => (await fetch('/api/do', {method: 'POST',
        headers: {'Content-Type': 'application/json', 'X-CSRF-Token': TT.session.csrf},
        body: JSON.stringify({action: 'claim', domino: 31})})).status""")
    assert status == 401


def test_a_pairing_is_refused_after_its_timeout(table, page_of):
    page = page_of(table)
    page.click("#pair")
    page.wait_for_selector("#pair-wait")
    page.wait_for_selector("#pair", timeout=15000)  # the window (5 s here) closed: ask again
    table.say("tap admin/1 chest")
    table.wait_log("No phone is waiting to pair")
    page.reload()
    page.wait_for_selector("#pair")
    assert page.query_selector("#paired") is None


def test_a_kingdomino_round_from_the_phone(table, page_of):
    page = page_of(table)
    pair(page, table)
    for piece in ("kingdomino/domino/31", "kingdomino/treasure/ruby/3",
                  "kingdomino/treasure/ruby/2", "kingdomino/domino/29",
                  "kingdomino/domino/5", "kingdomino/domino/13"):
        if piece.endswith("/31") and "31" not in page.inner_text("#todo"):
            continue  # tapped by the first test of this module
        tap(page, table, piece)
    page.wait_for_selector("button.claimable")
    for domino in (31, 29, 5, 13):  # scenarios/kingdomino/two-players.yaml, round 1
        claim(page, domino)
    for piece in (47, 23, 18, 41):
        tap(page, table, f"kingdomino/domino/{piece}")
    page.wait_for_selector("#rotate")
    page.click("button.cell.legal[data-at='1,-1']")  # a preview of domino 5, facing east
    check_phone_layout(page)
    shoot(page, "kingdomino", "#kd-now")
    place(page, 5, (1, -1), "east")
    claim(page, 18)
    place(page, 13, (2, -2), "north")
    claim(page, 41)
    place(page, 29, (0, 1), "south")
    claim(page, 23)
    place(page, 31, (-2, 0), "south")
    claim(page, 47)
    state = table.state()
    assert state["round"] == 3 and state["scores"] == {"ana": 2, "ben": 0}  # as the scenario
    assert sorted(state["kingdoms"]["ana"]["placed"]) == [29, 31]
    page.wait_for_selector("#kingdom-ana .cell.lake")
    assert "ana: 2 points" in page.inner_text("#kingdom-ana h2")
    assert page.errors == []


def replay(table: Table, start: dict, stop: str) -> None:
    """Play scenarios/kingdomino/two-players.yaml at the daemon (simulator taps and control
    requests) from just after the `do:` step `start` to just before the tap of `stop`."""
    steps = yaml.safe_load(SCENARIO.read_text())["steps"]
    first = next(i for i, s in enumerate(steps) if s.get("do") == start) + 1
    last = next(i for i, s in enumerate(steps) if i > first and s.get("tap") == stop)
    for step in steps[first:last]:
        if "tap" in step:
            before = table.ask({"snapshot": True})["counter"]
            table.say(f"tap {step['tap']}")
            deadline = time.monotonic() + 10
            while table.ask({"snapshot": True, "since": before})["counter"] == before:
                assert time.monotonic() < deadline, step
                time.sleep(0.05)
        else:
            assert table.ask({"do": step["do"]})["accepted"], step


def test_a_treasure_is_turned_and_set_from_the_phone(table, page_of):
    """The Lost Treasures: "the player takes one of the face-up gems and places it on the
    corner" (docs/games/kingdomino.md); here ben's domino 34 opens a corner, and the phone sets
    the ruby."""
    replay(table, {"action": "claim", "domino": 47}, "kingdomino/treasure/ruby/3")
    page = page_of(table)
    pair(page, table)
    page.wait_for_selector("#gem-set")
    page.click("[data-gem='ruby/3']")
    before = page.inner_text("#gem-preview")
    for _ in range(3):
        page.click("#gem-turn")
    assert "3 quarter turns" in page.inner_text("#gem-turn")
    assert page.inner_text("#gem-preview") != before  # the gem turned on the corner
    check_phone_layout(page)
    shoot(page, "kingdomino-treasure", "#kd-now")
    page.click("#gem-set")
    page.wait_for_selector("#kingdom-ben h2:has-text('gems: ruby')")  # named, not ruby/3
    gems = table.state()["kingdoms"]["ben"]["gems"]
    assert [g["token"] for g in gems] == ["ruby/3"]
    assert page.errors == []


def test_a_revoked_pairing_is_refused(table, page_of):
    page = page_of(table)
    page.fill("#pair-name", "Dad's phone")
    pair(page, table)
    assert "Dad's phone" in page.inner_text("#paired")
    page.click("#pairings summary")
    mine = page.wait_for_selector("#pairinglist li:has-text(\"Dad's phone, this phone\") button")
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    mine.click()
    page.wait_for_selector("#pair")
    assert asked and asked[0].startswith("Unpair this phone?")  # defect 5: asked first
    status = page.evaluate("""async () => (await fetch('/api/undo', {method: 'POST',
        headers: {'Content-Type': 'application/json', 'X-CSRF-Token': TT.session.csrf},
        body: '{}'})).status""")
    assert status == 401


@pytest.mark.parametrize("kind", ["undo", "new"])
def test_undo_and_a_new_game_from_the_phone(table, page_of, kind):
    page = page_of(table)
    pair(page, table)
    if kind == "undo":
        before = table.state()
        page.on("dialog", lambda dialog: dialog.accept())  # "Take back the last move?"
        page.click("#undo")
        page.wait_for_selector("#notice:has-text('Taken back')")
        assert table.state() != before
    else:
        # The daemon refuses a new game over one under way: the page abandons it first.
        page.on("dialog", lambda dialog: dialog.accept())  # "Abandon this game?"
        page.click("#abandon")
        page.wait_for_selector("#toast:has-text('abandoned')")
        page.click("#setup summary")
        page.select_option("#setup-game", "kingdomino")
        page.fill("#setup-players", "cleo, dan, eve")
        page.click("#setupform button[type=submit]")
        page.wait_for_selector("#kingdom-eve")
        assert table.state()["players"] == ["cleo", "dan", "eve"]


def test_a_box_of_tags_is_enrolled_from_the_phone(table, page_of):
    page = page_of(table)
    pair(page, table)
    page.click("#enrol summary")
    page.select_option("#enrol-game", "game")
    page.click("#enrol-start")
    # one card per installed game (games are plugins: the count is what is installed)
    cards = pieces_of("game")
    n = len(cards)
    said = [c.split("/")[1].replace("-", " ") for c in cards]
    page.wait_for_selector(f"#enrol-line:has-text('Tap the {said[0]} game card … 0 of {n} done')")
    table.say(f"tap {cards[0]} pond")
    page.wait_for_selector(f"#enrol-line:has-text('Tap the {said[1]} game card … 1 of {n} done')")
    check_phone_layout(page)
    shoot(page, "enrolment", "#enrol")
    table.say(f"tap {cards[1]}")
    page.wait_for_selector(f"#enrol-line:has-text('2 of {n} done')")
    page.click("#enrol-stop")
    page.wait_for_selector(f"#enrol-line:has-text('2 of {n} enrolled, then stopped')")
    assert page.errors == []


def test_mid_game_the_table_is_checked_without_moving_anything(table, page_of):
    """(The whole check, with the chest and the lights, is tests/web/test_doctor_page.py.)"""
    page = page_of(table)
    status = page.evaluate("""async () => (await fetch('/api/doctor', {method: 'POST',
        headers: {'Content-Type': 'application/json', 'X-CSRF-Token': TT.session.csrf},
        body: '{}'})).status""")
    assert status == 401
    pair(page, table)
    page.click("#doctor summary")
    page.click("#doctor-run")
    page.wait_for_selector("#findings li.ok:has-text('Reader at the chest: working')")
    assert "Saved games" in page.inner_text("#findings")
    assert "chest servo" not in page.text_content("#findings")
    assert "A game is under way" in page.inner_text("#doctor-skipped")
    check_phone_layout(page)


def test_a_game_is_abandoned_from_the_phone(table, page_of):
    """Last in this module: after it the table has no game to play on."""
    page = page_of(table)
    pair(page, table)
    page.on("dialog", lambda dialog: dialog.accept())  # "Abandon this game?"
    page.click("#abandon")
    page.wait_for_selector("#toast:has-text('abandoned')")
    assert page.errors == []
