"""Key to the Kingdom on the phone, in a real browser against a real simulated table: the board
state drawn, a physical roll entered by number (a face the die lacks refused with the engine's
sentence), an item subtracted from the roll, and a landing space with several choices picked
by touch, the table's state following; a watcher's touches refused."""

from __future__ import annotations

import pytest

from tests.web.table import Table
from tests.web.test_page import check_phone_layout, pair, shoot

# Physical dice (the roll is entered as the table saw it), the knight first: from the start
# space v1 a 5 reaches five spaces, a 1 two (v2 and v12), whatever the seed. The wizard waits
# beside the fire mountain (h6, the red key adventure, step 1 of 5: 3 or more).
GAME = {"game": "key-to-the-kingdom", "players": ["knight", "wizard"], "seed": 7,
        "options": {"dice": "physical"},
        "setup": {"first": "knight", "positions": {"wizard": "h5"}}}


@pytest.fixture()
def kttk_table(tmp_path):
    t = Table(tmp_path, GAME)
    yield t
    t.stop()


def landing(page) -> list[str]:
    return page.eval_on_selector_all("#kt-landing button", "bs => bs.map((b) => b.dataset.space)")


def test_watcher_sees_the_board_and_cannot_change_it(kttk_table, page_of):
    page = page_of(kttk_table)
    page.wait_for_selector("#kt-map .kt-space")
    assert page.inner_text("#now-line").startswith("knight: ")
    assert "rolls to move or takes a heroic nap" in page.inner_text("#todo")
    # Every hero on the start space, with their eight items available; lands and flaps.
    assert page.text_content("#kt-map .kt-space.taken[data-space='v1'] title").count("knight") == 1
    assert len(page.query_selector_all("[data-hero='wizard'] .kt-item:not(.exhausted)")) == 8
    folded = page.inner_text("#kt-folded")
    assert folded == "Folded away: marsh (west flap, open side) and caves (east flap, open side)"
    assert "on the throne" in page.inner_text("#kt-board")
    # No tools for a watcher, and the API refuses a change sent by hand.
    assert page.query_selector("#kt-roll") is None
    assert page.query_selector("#kt-map [role=button]") is None
    # With this browser's own session and CSRF token: refused for want of a pairing.
    status = page.evaluate("""fetch('/api/session').then((r) => r.json()).then((s) =>
        fetch('/api/do', {method: 'POST', credentials: 'same-origin',
          headers: {'Content-Type': 'application/json', 'X-CSRF-Token': s.csrf},
          body: JSON.stringify({action: 'roll', value: 5})})).then((r) => r.status)""")
    assert status == 401
    assert kttk_table.state()["phase"] == "turn"
    assert page.errors == []


def test_a_roll_an_item_and_a_landing_space_chosen_by_touch(kttk_table, page_of):
    table = kttk_table
    page = page_of(table)
    page.wait_for_selector("#kt-map .kt-space")
    pair(page, table)
    # A face the hero die lacks: refused, with the engine's sentence, and nothing changes.
    page.fill("#kt-roll-value", "9")
    page.click("#kt-roll")
    page.wait_for_selector("#refusal-text:has-text('no face 9')")
    assert table.state()["phase"] == "turn"
    # A 5: five landing spaces, each listed and highlighted on the board.
    page.fill("#kt-roll-value", "5")
    page.click("#kt-roll")
    page.wait_for_selector("#kt-landing button")
    assert landing(page) == ["v6", "v8", "h11", "m3", "m7"]
    assert sorted(page.eval_on_selector_all(
        "#kt-map .kt-space.reach[role=button]", "bs => bs.map((b) => b.dataset.space)")) == sorted(
        landing(page))
    assert "= 5" in page.inner_text("#kt-roll-now")
    check_phone_layout(page)
    shoot(page, "key-to-the-kingdom", "#kt-now")
    # The sword subtracted (-4): a 1 reaches two spaces; the sword is exhausted.
    page.click(".kt-use[data-item='knight/sword'][data-sign='-1']")
    page.wait_for_selector("#kt-roll-now:has-text('= 1')")
    assert landing(page) == ["v2", "v12"]
    assert page.query_selector("[data-hero='knight'] .kt-item.exhausted[data-item='knight/sword']")
    # Touch the highlighted space on the board: the table moves the knight there.
    page.click("#kt-map .kt-space.reach[data-space='v12']")
    page.wait_for_selector("[data-hero='knight'] h3:has-text('on village space 12')")
    knight = table.state()["heroes"]["knight"]  # the daemon's own view of the game
    assert knight["space"] == "v12"
    assert "knight/sword" in knight["exhausted"]
    page.wait_for_selector("#now-line:has-text('wizard: ')")
    # The wizard's 1 reaches the fire mountain: touched, the adventure's first step shows.
    page.fill("#kt-roll-value", "1")
    page.click("#kt-roll")
    page.wait_for_selector("#kt-landing button")
    assert landing(page) == ["h4", "h6"]
    page.click("#kt-landing button[data-space='h6']")
    page.wait_for_selector("#kt-step")
    assert "wizard on fire mountain (the red key): step 1 of 5" in page.inner_text("#kt-step")
    assert "3 or more" in page.inner_text("#kt-step")
    assert table.state()["phase"] == "adventure"
    shoot(page, "key-to-the-kingdom-adventure", "#kt-now")
    assert page.errors == []


def test_a_heroic_nap_with_the_items_picked_by_touch(tmp_path, page_of):
    # Six exhausted items, five may be refreshed: the page lets them be picked one by one. The
    # knight also holds a red key piece and the Bee Cannon; the wizard a companion and the
    # Demon die.
    tired = ["sword", "axe", "bow", "boots", "rope", "lantern"]
    table = Table(tmp_path, {**GAME, "setup": {
        "first": "knight", "exhausted": {"knight": tired}, "keys": {"knight": ["red"]},
        "magic": {"knight": ["bee-cannon"]}, "companions": {"wizard": ["novice-knight"]},
        "demon": "wizard"}})
    try:
        page = page_of(table)
        page.wait_for_selector("#kt-map .kt-space")
        knight, wizard = "[data-hero='knight']", "[data-hero='wizard']"
        assert page.inner_text(f"{knight} .kt-keys") == "red key piece"
        assert page.inner_text(f"{knight} .kt-item.magic:not(.exhausted)") == "bee cannon ±5"
        assert "companions: novice knight" in page.inner_text(f"{wizard} .kt-keys")
        assert page.query_selector(f"{wizard} #kt-demon-holder")
        assert "with wizard" in page.inner_text("#kt-board")
        shoot(page, "key-to-the-kingdom-board", "#kt-heroes")
        pair(page, table)
        page.wait_for_selector("#kt-pick-nap")
        assert len(page.query_selector_all("#kt-pick-nap button")) == 6
        for item in ("sword", "bow"):
            page.click(f"#kt-pick-nap button[data-item='knight/{item}']")
            page.wait_for_selector(f"#kt-pick-nap button[data-item='knight/{item}']"
                                   "[aria-pressed='true']")
        assert page.inner_text("#kt-send-nap") == "Heroic nap: refresh sword and bow"
        check_phone_layout(page)
        page.click("#kt-send-nap")
        page.wait_for_selector("#now-line:has-text('wizard: ')")
        hero = table.state()["heroes"]["knight"]
        assert {"knight/sword", "knight/bow"} <= set(hero["available"])
        assert sorted(hero["exhausted"]) == ["knight/axe", "knight/boots", "knight/lantern",
                                               "knight/rope"]
        assert page.errors == []
    finally:
        table.stop()
