"""Issue 10's "done": a family plays a whole Kingdomino game with the table and one phone, no
console. In a real browser (Debian's chromium) against the daemon on the simulator: the phone pairs
with the parent card, sets up a two-player game with The Lost Treasures from the page, and plays
it to its end. Every claim, placement, discard and gem is a touch on the page (the legal cells it
highlights, the Turn button); every domino and gem the table needs is tapped at the simulated
reader, as the page asks. The game is the box's own shuffle, so each run plays another game; the
test only ever does what the page offers.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from tests.web.table import Table
from tests.web.test_page import check_phone_layout, pair, shoot

MOVES = 200  # a two-player game is 24 dominoes, 20 claims and a few gems: far fewer


@pytest.fixture(scope="module")
def empty_table(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A table with no game under way: the phone sets one up."""
    t = Table(tmp_path_factory.mktemp("whole-game"), game={"game": None})
    yield t
    t.stop()


def counter(page: Any) -> str:
    return page.get_attribute("body", "data-counter") or ""


def changed(page: Any, before: str) -> None:
    """Wait until the page has drawn a snapshot newer than `before` (what the touch did)."""
    page.wait_for_selector(f"body:not([data-counter='{before}'])", timeout=10000)


def touch(page: Any, selector: str) -> None:
    """Touch a control and wait for the table's answer to be drawn."""
    before = counter(page)
    page.click(selector)
    changed(page, before)


def tap(page: Any, table: Table, piece: str) -> None:
    before = counter(page)
    table.say(f"tap {piece} chest")
    changed(page, before)


def chest_side_gem(table: Table) -> str:
    """A gem a family would turn up: any token still chest side up (the daemon knows which)."""
    view = table.ask({"state": True, "reveal": True})["state"]
    return view["chest_side_up_tokens"][0]


LANDS = {"wheat": "wheat field"}  # the landscapes whose English name is not their id


def place_by_touch(page: Any, turn: int) -> None:
    """Turn the domino with the page's Turn button (some turns each time, then on until the page
    highlights a square for its first half), touch one (a different one from turn to turn, as a
    family would choose), check the preview, place it."""
    # (By selector, never by element handle: the board is drawn anew after every move.)
    for _ in range(turn % 4):  # a family turns the domino this way and that
        facing = page.inner_text("#facing")
        page.click("#rotate")
        assert page.inner_text("#facing") != facing
    for _ in range(4):
        legal = page.eval_on_selector_all("button.cell.legal", "els => els.map(e => e.dataset.at)")
        if legal:
            break
        page.click("#rotate")
    else:
        raise AssertionError("no facing has a legal square, yet the page offers no discard")
    at = legal[turn % len(legal)]
    page.click(f"button.cell.legal[data-at='{at}']")
    page.wait_for_selector(f"button.cell.ghost[data-at='{at}']")  # the domino's preview
    touch(page, "#place")


def play_to_the_end(page: Any, table: Table) -> Counter[str]:
    """Do what the page asks, by touch or by a tap at the table, until the game is over."""
    done: Counter[str] = Counter()
    for move in range(MOVES):
        page.wait_for_selector("#kd-now")
        if page.query_selector("#final"):
            return done
        todo = page.inner_text("#kd-now")
        dominoes = re.search(r"Tap the new line's dominoes on the table: ([\d, ]+)\.", todo)
        if dominoes:
            for n in dominoes.group(1).split(", "):
                tap(page, table, f"kingdomino/domino/{n}")
                done["domino tapped"] += 1
        elif "treasure token" in todo and "gem side up" in todo:
            tap(page, table, f"kingdomino/treasure/{chest_side_gem(table)}")
            done["gem turned up"] += 1
        elif page.query_selector("button.slot.claimable"):
            touch(page, "button.slot.claimable >> nth=0")
            done["claim"] += 1
        elif page.query_selector("#discard"):
            touch(page, "#discard")
            done["discard"] += 1
        elif page.query_selector("#rotate"):
            place_by_touch(page, move)
            done["place"] += 1
        elif page.query_selector("#gem-set"):
            for _ in range(move % 4):
                page.click("#gem-turn")
            touch(page, "#gem-set")
            done["gem set"] += 1
        else:
            raise AssertionError(f"the page offers nothing to do: {todo!r}")
    raise AssertionError(f"no end after {MOVES} moves: {dict(done)}")


def test_a_whole_kingdomino_game_from_the_phone(empty_table, page_of):
    table = empty_table
    page = page_of(table)
    pair(page, table)
    page.click("#setup summary")
    page.select_option("#setup-game", "kingdomino")
    page.fill("#setup-players", "ana, ben")
    assert page.is_checked("#setup-options input[name=treasures]")
    page.click("#setupform button[type=submit]")
    page.wait_for_selector("#kingdom-ben")

    try:
        done = play_to_the_end(page, table)
    except AssertionError as exc:  # this run's shuffle, to play the same game again
        header = (table.folder / "state" / "journal.jsonl").read_text().splitlines()[0]
        raise AssertionError(f"{exc}\nthe game: {header}") from None

    print(f"moves: {dict(done)}")  # shown with -s: what this run's game took
    state = table.state()
    winners = state["winners"]
    assert state["step"] == "over" and winners
    final = page.evaluate("TT.snap.extra.final")
    if not any(k["immediate_victory"] for k in final.values()):  # five gems end it early
        # Two kings each: 24 dominoes, every one tapped, each player's 12 placed or discarded,
        # each of the six lines claimed once.
        assert done["domino tapped"] == 24 and done["claim"] == 24
        for player in ("ana", "ben"):
            kingdom = state["kingdoms"][player]
            assert len(kingdom["placed"]) + len(kingdom["discards"]) == 12
        assert done["place"] + done["discard"] == 24
    # Every move went through: the play-by-play holds no refusal.
    assert "✗" not in page.inner_text("#log")
    # The final scores, as the engine has them, are what the phone shows.
    shown = page.inner_text("#final")
    for player, points in state["scores"].items():
        assert f"{player} {points}" in page.inner_text("#scores")
        assert f"{player}: {points} points" in shown
        for t in final[player]["territories"]:  # the sums the points are made of
            skull = " ☠" if t["skulls"] else ""
            land = LANDS.get(t["terrain"], t["terrain"])  # named as the printed game names it
            assert f"{land} {t['squares']} × {t['crowns']}{skull} = {t['points']}" in shown
        assert sum(t["points"] for t in final[player]["territories"]) + sum(
            final[player]["bonuses"].values()) + final[player]["earlier"] == points
    assert (" and ".join(winners) + (" win" if len(winners) > 1 else " wins")) in shown
    check_phone_layout(page)
    shoot(page, "kingdomino-final", "#kd-now")
    assert page.errors == []
