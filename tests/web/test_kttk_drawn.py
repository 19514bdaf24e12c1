"""Key to the Kingdom's board drawn (issue 21, "pictures where people would rather look"), in a
real browser against a real simulated table: every land in its place on the SVG (the folded
sides named on their flaps), each hero's pawn in their colour, the landing choices ringed, and,
once a hero moves, the space they moved to ringed in yellow and said in words, never by id."""

from __future__ import annotations

import re

from tests.web.table import Table
from tests.web.test_page import check_phone_layout, pair, shoot

# Physical dice, the knight first on the start (village space 1); the west flap unfolded, so one
# land of each kind of flap side shows: the marsh (open) and the forest (closed).
GAME = {"game": "key-to-the-kingdom", "players": ["knight", "wizard"], "seed": 7,
        "options": {"dice": "physical"},
        "setup": {"first": "knight", "positions": {"wizard": "h5"}, "flaps": {"west": "open"}}}
SHOWN = {"village", "hills", "marsh", "forest"}
IDS = re.compile(r"\b(?:v|h|m|s|f|c|court)\d+\b")


def test_the_board_is_drawn_with_every_land_and_the_hero_just_moved_ringed(tmp_path, page_of):
    table = Table(tmp_path, GAME)
    try:
        page = page_of(table)
        page.wait_for_selector("#kt-map .kt-space")
        drawn = page.eval_on_selector_all("#kt-map [data-land]",
                                          "gs => gs.map((g) => g.dataset.land)")
        assert set(drawn) == SHOWN
        # each flap says what lies folded under it
        notes = page.eval_on_selector_all("#kt-map .flap .note",
                                          "ts => ts.map((t) => t.textContent)")
        assert sorted(notes) == ["folded", "under: caves", "under: meadow", "unfolded"]
        # every space of every showing land is on the picture, and the courtyard's
        spaces = page.eval_on_selector_all("#kt-map .kt-space",
                                           "gs => gs.map((g) => g.dataset.space)")
        assert len(spaces) == 12 + 12 + 7 + 7 + 5  # village, hills, marsh, forest, courtyard
        # both pawns, in the heroes' colours (the knight red, the wizard blue by seat)
        pawns = page.eval_on_selector_all(
            "#kt-map .pawn", "cs => cs.map((c) => [c.dataset.hero, c.getAttribute('fill'), "
            "c.closest('.kt-space').dataset.space])")
        assert sorted(p[0] for p in pawns) == ["knight", "wizard"]
        assert dict((p[0], p[2]) for p in pawns) == {"knight": "v1", "wizard": "h5"}
        assert len({p[1] for p in pawns}) == 2
        assert page.query_selector("#kt-map .justnow") is None  # nothing moved yet
        pair(page, table)
        page.fill("#kt-roll-value", "1")
        page.click("#kt-roll")
        page.wait_for_selector("#kt-map .kt-space.reach[role=button]")
        assert sorted(page.eval_on_selector_all(
            "#kt-map .kt-space.reach", "gs => gs.map((g) => g.dataset.space)")) == ["v12", "v2"]
        page.click("#kt-map .kt-space.reach[data-space='v12']")  # touched on the picture
        page.wait_for_selector(
            "#kt-map .kt-space.justnow[data-space='v12'] .pawn[data-hero='knight']")
        assert table.state()["heroes"]["knight"]["space"] == "v12"
        assert page.inner_text("#kt-moved") == "Just moved: knight to village space 12."
        assert len(page.query_selector_all("#kt-map .justnow")) == 1
        # the ring stays while the next hero rolls (a redraw for another reason)
        page.fill("#kt-roll-value", "1")
        page.click("#kt-roll")
        page.wait_for_selector("#kt-landing button")
        assert page.query_selector("#kt-map .kt-space.justnow[data-space='v12']")
        # words, never ids, in what the board and the heroes show
        shown = page.inner_text("#kt-board") + page.inner_text("#kt-heroes") \
            + page.inner_text("#kt-landing")
        assert IDS.findall(shown) == []
        titles = page.eval_on_selector_all("#kt-map title", "ts => ts.map((t) => t.textContent)")
        assert "village space 12: boring; knight here" in titles
        assert not any(IDS.search(t) for t in titles)
        check_phone_layout(page)
        # the whole picture fits the phone's width
        box = page.eval_on_selector("#kt-map", "s => s.getBoundingClientRect().right")
        assert box <= 360
        shoot(page, "key-to-the-kingdom-drawn", "#kt-board")
        assert page.errors == []
    finally:
        table.stop()
