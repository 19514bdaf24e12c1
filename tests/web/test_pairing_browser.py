"""Pairing by numeric comparison in a real browser (Debian's chromium through Playwright) against
the daemon on the simulator, with a stranger on the same network (another address, 127.0.0.2)
asking again and again: the real phone is queued, not refused; once its window opens it shows
the code the table says; the stranger's requests change nothing in it; the parent card pairs the
phone, and the stranger's label is never said (issue 22, defect 3)."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import httpx

from tests.web.table import Table
from tests.web.test_page import check_phone_layout, shoot

DIGIT_WORDS = ("one", "two", "three", "four", "five", "six")  # as pairing.DIGIT_WORDS
STRANGER_ADDRESS = "127.0.0.2"  # all of 127/8 is this machine: a second device, to the page
SAYS = re.compile(r"the table says '[^']*Its code is ([a-z, ]+)\.")


def said_codes(table: Table) -> list[str]:
    """Every code the table has said so far, as digits, from the daemon's log."""
    return ["".join(str(DIGIT_WORDS.index(w.strip()) + 1) for w in m.group(1).split(","))
            for m in SAYS.finditer(table.log())]


class Stranger(threading.Thread):
    """A device on the Wi-Fi that asks to pair as 'Mum's phone' twice a second, a new browser
    session each time, and keeps asking after the status of what it got (to keep its place)."""

    def __init__(self, table: Table) -> None:
        super().__init__(daemon=True)
        self.table = table
        self.stop = threading.Event()
        self.answers: list[int] = []
        self.requests: list[str] = []
        self.held: list[tuple[httpx.Client, str]] = []

    def client(self) -> tuple[httpx.Client, str]:
        transport = httpx.HTTPTransport(local_address=STRANGER_ADDRESS)
        c = httpx.Client(base_url=self.table.url, transport=transport, timeout=5)
        return c, c.get("/api/session").json()["csrf"]

    def ask(self) -> None:
        c, csrf = self.client()
        r = c.post("/api/pair", json={"label": "Mum's phone"}, headers={"x-csrf-token": csrf})
        self.answers.append(r.status_code)
        if r.status_code == 200:
            self.requests.append(r.json()["request"])
            self.held.append((c, r.json()["request"]))
        else:
            c.close()

    def keep_place(self) -> None:
        """Ask after each request it holds, as a page does, so none is dropped as gone."""
        for c, rid in list(self.held):
            if c.get(f"/api/pair/{rid}").json()["status"] not in ("queued", "waiting"):
                self.held.remove((c, rid))
                c.close()

    def run(self) -> None:
        while not self.stop.is_set():
            self.keep_place()
            self.ask()
            self.stop.wait(0.5)
        for c, _ in self.held:
            c.close()


def test_the_phone_shows_the_code_the_table_says_and_a_stranger_cannot_starve_it(
        tmp_path: Path, page_of) -> None:
    table = Table(tmp_path, pairing_seconds=8, pairing_attempts=100)
    stranger = Stranger(table)
    try:
        stranger.ask()  # the stranger's window opens first...
        assert stranger.answers == [200]
        stranger.start()  # ...and it keeps asking
        page = page_of(table)
        page.fill("#pair-name", "Dad's phone")
        page.click("#pair")
        # Not turned away: queued, told plainly not to tap yet, and shown no code.
        page.wait_for_selector("#pair-wait:has-text('Another device is pairing')")
        assert "Do not tap the parent card yet" in page.inner_text("#pair-hold")
        assert page.query_selector("#pair-code") is None
        # The stranger's window ends: the phone's opens within one window, with its code.
        page.wait_for_selector("#pair-code", timeout=15000)
        code = page.get_attribute("#pair-code", "data-code")
        assert re.fullmatch(r"[1-6]{4}", code or "")
        deadline = time.monotonic() + 5
        while said_codes(table)[-1:] != [code] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert said_codes(table)[-1] == code  # the page's code is the one the table said
        assert [li.inner_text().split()[0] for li in page.query_selector_all("#pair-code li")] \
            == list(code)
        check_phone_layout(page)
        shoot(page, "pairing", "#controls")
        # The stranger goes on asking through the window: the code stays the phone's.
        time.sleep(2.5)
        assert page.get_attribute("#pair-code", "data-code") == code
        assert said_codes(table)[-1] == code
        table.say("tap admin/1 chest")
        page.wait_for_selector("#paired", timeout=10000)
        stranger.stop.set()
        stranger.join(10)
        listed = table.ask({"pairings": True})["pairings"]
        assert [p["label"] for p in listed] == ["Dad's phone"]
        assert "Mum" not in " ".join(m.group(0) for m in SAYS.finditer(table.log()))
        assert 200 in stranger.answers[1:] or 429 in stranger.answers[1:]
        assert page.errors == []
    finally:
        stranger.stop.set()
        table.stop()
