"""The page in the family's language (issue 20): GET /api/words from the page's catalogs, the
page drawn in German at a German table and in Korean on a phone that chose Korean there, with
no English label of the page left, and the play-by-play said again in the phone's language.
Screenshots of each view at 360x800 in German and Korean (docs/screenshots/<view>-de.png,
<view>-ko.png with TABLETAP_SCREENSHOTS=1; look at each before committing)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tabletap.controller.language import catalogs
from tabletap.controller.language.extract import template
from tabletap.controller.language.said import Said
from tabletap.controller.language.words import Words
from tabletap.web import languages
from tests.web.table import KINGDOMINO, Table
from tests.web.test_page import SHOTS, check_phone_layout

STATIC = Path(__file__).resolve().parents[2] / "tabletap" / "web" / "static"
HANGUL = re.compile("[\uac00-\ud7a3]")
GERMAN = {"language": "de", **KINGDOMINO}

# Every text a person sees: visible text nodes, placeholders, the choices of visible lists.
VISIBLE = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const el = walk.currentNode.parentElement;
    const text = walk.currentNode.textContent.trim();
    if (text && el && el.checkVisibility() && el.tagName !== 'OPTION') out.push(text);
  }
  for (const el of document.querySelectorAll('input[placeholder]'))
    if (el.checkVisibility()) out.push(el.placeholder);
  for (const el of document.querySelectorAll('select'))
    if (el.checkVisibility()) for (const o of el.options) out.push(o.textContent.trim());
  return out;
}"""


@pytest.fixture(scope="module")
def german(tmp_path_factory: pytest.TempPathFactory):
    t = Table(Path(tmp_path_factory.mktemp("german")), GERMAN, pairing_seconds=10,
              pairing_attempts=30)
    yield t
    t.stop()


def english_left(texts: list[str], language: str, domain: str = catalogs.PAGE_DOMAIN
                 ) -> list[str]:
    """The domain's English sentences (those the language says otherwise) among `texts`:
    a whole text for a sentence without placeholders, else its longest fixed words."""
    said = Words(language)
    found = []
    for message in template(domain):
        if not message.id:
            continue
        english = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
        params = {k: "\x00" for k in re.findall(r"%\((\w+)\)s", english)}
        plural = message.id[1] if isinstance(message.id, (list, tuple)) else None
        local = said(Said(domain, english, tuple(sorted(params.items())), plural,
                          2 if plural else None, message.context))
        if local == english % params:
            continue  # the same words in this language ("live", "Options")
        if not params:
            found += [t for t in texts if t == english]
            continue
        fixed = max(english.replace("%(", "\x00%(").split("\x00"), key=len)
        fixed = re.sub(r"%\(\w+\)s", "", fixed).strip()
        if len(fixed) >= 12:  # shorter words ("game card") are in others' sentences
            found += [t for t in texts if fixed in t]
    return found


def open_in(page_of, table: Table, language: str | None) -> Any:
    """A phone at `table`; `language` chosen in the menu at its foot (None: the table's)."""
    page = page_of(table)
    page.wait_for_function("() => document.documentElement.lang !== 'en'")
    if language:
        page.select_option("#language", language)
        page.wait_for_function(f"() => document.documentElement.lang === '{language}'")
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def pair_phone(page, table: Table, shot: str | None = None) -> None:
    page.click("#pair")
    page.wait_for_selector("#pair-code")
    if shot:
        page.evaluate("document.getElementById('toast').hidden = true")
        page.eval_on_selector("#controls", "el => el.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(SHOTS / f"{shot}.png"))
    table.say("tap admin/1 chest")
    page.wait_for_selector("#paired", timeout=10000)


def shoot(page, name: str, anchor: str) -> None:
    page.evaluate("document.getElementById('toast').hidden = true")
    page.eval_on_selector(anchor, "el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def no_english(page, language: str, *domains: str) -> None:
    texts = page.evaluate(VISIBLE)
    for domain in (catalogs.PAGE_DOMAIN, *domains):
        assert english_left(texts, language, domain) == [], domain


# -- the words endpoint ------------------------------------------------------------------------

def test_the_words_of_a_language_come_from_its_catalogs(german):
    words = httpx.get(german.url + "/api/words?lang=de").json()
    assert words["ok"] and words["language"] == "de"
    assert words["messages"]["page"]["Start a game"] == "Ein Spiel starten"
    assert set(words["messages"]) >= {"page", "kingdomino"}
    names = {lang["code"]: lang["name"] for lang in words["languages"]}
    assert names == {"en": "English", "de": "Deutsch", "es": "Español", "fr": "Français",
                     "ko": "한국어"}
    plural = words["messages"]["page"]["%(n)s player"]
    assert plural == ["%(n)s Spieler", "%(n)s Spieler"] and words["plural"][:3] == [1, 0, 1]


def test_an_unknown_language_is_refused_naming_the_languages_there_are(german):
    for asked in ("xx", "", "../de", "de" * 40):
        refused = httpx.get(german.url + "/api/words", params={"lang": asked})
        assert refused.status_code == 400
        assert "en, de, es, fr, ko" in refused.json()["error"]
    assert languages.known("xx") is None


def test_the_plural_tables_follow_each_languages_rule(german):
    fr = httpx.get(german.url + "/api/words?lang=fr").json()["plural"]
    ko = httpx.get(german.url + "/api/words?lang=ko").json()["plural"]
    assert len(fr) == len(ko) == languages.PLURAL_TABLE
    assert fr[0] == fr[1] == 0 and all(form != 0 for form in fr[2:])  # 0 and 1 are singular
    assert set(ko) == {0}  # Korean has one form


def test_every_text_of_index_html_is_in_the_page_catalog():
    html = (STATIC / "index.html").read_text()
    wanted = set(re.findall(r'data-t(?:-placeholder|-label)?="([^"]+)"', html))
    ids = {m.id for m in template(catalogs.PAGE_DOMAIN) if m.id}
    assert wanted and wanted <= ids, wanted - ids


# -- the page in German and in Korean ---------------------------------------------------------

def test_the_page_is_drawn_in_german_and_in_korean(german, page_of):
    de = open_in(page_of, german, None)
    ko = open_in(page_of, german, "ko")
    assert de.evaluate("document.documentElement.lang") == "de"
    for page, language in ((de, "de"), (ko, "ko")):
        no_english(page, language)
        assert page.errors == []
    assert HANGUL.search(ko.inner_text("main"))
    pair_phone(de, german, "pairing-de")
    pair_phone(ko, german, "pairing-ko")
    for page, language in ((de, "de"), (ko, "ko")):
        page.wait_for_selector("#voicebar:not([hidden])")
        page.click("#setup summary")
        page.click("#pairings summary")
        page.wait_for_selector("#pairinglist li")
        no_english(page, language)
        check_phone_layout(page)
        shoot(page, f"game-{language}", "#status")
        page.click("#setup summary")
        page.click("#pairings summary")
        page.click("#enrol summary")
        no_english(page, language)
        shoot(page, f"enrolment-{language}", "#enrol")
        page.click("#enrol summary")
        shoot(page, f"voice-{language}", "#now")
    assert de.inner_text("#gamebuttons").split() == ["Letzten", "Zug", "zurück",
                                                     "Spiel", "abbrechen"]


def test_a_korean_phone_at_a_german_table_hears_the_play_by_play_in_korean(german, page_of):
    ko = open_in(page_of, german, "ko")
    before = ko.get_attribute("body", "data-counter")
    german.say("tap kingdomino/domino/7")  # not in the line: refused, said in the log
    ko.wait_for_selector(f"body:not([data-counter='{before}'])", timeout=10000)
    table_said = httpx.get(german.url + "/api/state").json()["snapshot"]
    phone_said = httpx.get(german.url + "/api/state?lang=ko").json()["snapshot"]
    assert table_said["language"] == "de" and table_said["log"]
    shown = [li.strip() for li in ko.eval_on_selector_all("#log li", "els => els.map((e) => "
                                                            "e.textContent)")]
    assert shown == [line["text"] for line in reversed(phone_said["log"])]
    for line, german_line in zip(phone_said["log"], table_said["log"], strict=True):
        if "text_said" in line:
            words = Words("ko")
            assert line["text"] == words(Said.from_json(line["text_said"]))
            if not words.missed:  # a sentence its catalog has is Korean, not German
                assert HANGUL.search(line["text"]) and line["text"] != german_line["text"]
    # the page's own words around it are Korean: the refusal's heading, the log's
    assert ko.inner_text("#refusal strong") == "받아들여지지 않았어요"
    assert "진행 기록" in ko.inner_text("main")


def test_the_start_screen_and_the_check_in_german_and_in_korean(german, page_of):
    de = open_in(page_of, german, None)
    ko = open_in(page_of, german, "ko")
    pair_phone(de, german)
    pair_phone(ko, german)
    for page, language in ((de, "de"), (ko, "ko")):
        page.click("#doctor summary")
        page.click("#doctor-run")
        page.wait_for_function("() => document.getElementById('doctor-summary').textContent"
                               " && !document.getElementById('doctor-run').disabled",
                               timeout=40000)
        no_english(page, language)
        shoot(page, f"doctor-{language}", "#doctor")
        page.click("#doctor summary")
    de.click("#abandon")
    for page, language in ((de, "de"), (ko, "ko")):
        page.wait_for_selector("#start:not([hidden]) button.startgame")
        page.click("button.startgame[data-game='kingdomino']")
        page.wait_for_selector("#start-more:not([hidden])")
        no_english(page, language)
        check_phone_layout(page)
        shoot(page, f"start-{language}", "#start")
    assert "Kingdomino" in de.inner_text("#start")


def test_the_results_in_german_and_in_korean(german, page_of):
    """The results view as the page draws it when a game ends (its own code on the snapshot it
    holds, marked over: a whole game is played in test_whole_game)."""
    for language in ("de", "ko"):
        page = open_in(page_of, german, None if language == "de" else language)
        pair_phone(page, german)
        page.evaluate("""() => { const snap = { ...TT.snap, game: 'kingdomino', over: true,
            title: 'Kingdomino', players: ['ana', 'ben'], winners: ['ana'],
            scores: { ana: 31, ben: 24 } }; TT.drawResults(snap); }""")
        page.wait_for_selector("#results:not([hidden]) #play-again")
        no_english(page, language)
        shoot(page, f"results-{language}", "#results")
        assert page.errors == []


def test_a_held_table_in_german_and_in_korean(tmp_path: Path, page_of):
    from tests.reliability.journal_damage import kingdomino_journal, zero_last_4k

    journal = kingdomino_journal(tmp_path / "state")
    journal.path.write_bytes(zero_last_4k(journal.path.read_bytes()))
    table = Table(tmp_path, GERMAN)
    try:
        for language in ("de", "ko"):
            page = open_in(page_of, table, None if language == "de" else language)
            page.wait_for_function("() => document.getElementById('now-line').textContent")
            no_english(page, language)
            page.screenshot(path=str(SHOTS / f"held-{language}.png"))
            assert page.errors == []
    finally:
        table.stop()


def test_a_game_s_own_view_in_german_and_in_korean(tmp_path: Path, page_of):
    """A game's view draws its sentences from its own catalog and its names from its pack's
    data in the page's language: Key to the Kingdom's, the view with the most words."""
    from tests.web.test_kttk_view import GAME

    table = Table(tmp_path, {"language": "de", **GAME})
    try:
        for language in ("de", "ko"):
            page = open_in(page_of, table, None if language == "de" else language)
            page.wait_for_selector("#kt-now")
            pair_phone(page, table)
            page.wait_for_selector("#kt-roll-value")
            no_english(page, language, "key-to-the-kingdom")
            text = page.inner_text("main")
            assert "Ritter" in text if language == "de" else HANGUL.search(text)
            check_phone_layout(page)
            shoot(page, f"key-to-the-kingdom-{language}", "#kt-now")
            page.eval_on_selector("#kt-board", "el => el.scrollIntoView({block: 'start'})")
            page.screenshot(path=str(SHOTS / f"key-to-the-kingdom-board-{language}.png"))
            assert page.errors == []
    finally:
        table.stop()
