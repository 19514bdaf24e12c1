"""The daemon's pairing desk: a window confirmed only by a parent card, when the code the table
says and shows matches the one on the asking phone; stored hashed in a 0600 file that survives a
restart, and revocable. A stranger's label is never said, a stranger's request never replaces or
blocks the open window, and one address cannot hold the table's window again and again
(issue 22, defect 3)."""

from __future__ import annotations

import hashlib
import json
import re
import stat
from pathlib import Path

import pytest

from tabletap.controller.control_socket import pairing
from tabletap.controller.control_socket.pairing import PairingDesk, PairingError, PairingStore
from tabletap.controller.language.words import Words
from tabletap.controller.rules.base import Rejection

TOKEN = "a-session-token-the-browser-holds-only"
HASH = hashlib.sha256(TOKEN.encode()).hexdigest()
OTHER = hashlib.sha256(b"another browser").hexdigest()
PHONE, STRANGER = "192.168.1.20", "192.168.1.66"
ENGLISH = Words("en")


def h(n: int) -> str:
    return hashlib.sha256(f"browser {n}".encode()).hexdigest()


class Table:
    """What the desk says and shows at the table, recorded."""

    def __init__(self) -> None:
        self.lights: list[tuple[str, bool]] = []
        self.said: list[str] = []  # the play-by-play
        self.voice: list[str] = []  # what the table says aloud

    def show(self, pattern: str, hold: bool) -> None:
        self.lights.append((pattern, hold))

    def narrate(self, text: object) -> None:
        self.said.append(ENGLISH(text))  # a sentence (Said) as an English table says it

    def say(self, text: object) -> None:
        self.voice.append(ENGLISH(text))


def desk(folder: Path, window: float = 30) -> tuple[PairingDesk, Table]:
    table = Table()
    kwargs = {"say": table.say} if "say" in PairingDesk.__init__.__code__.co_varnames else {}
    return PairingDesk(PairingStore.load(folder), table.show, table.narrate, window,
                       **kwargs), table


def start(d: PairingDesk, token: object, label: object, now: float,
          address: str = pairing.LOCAL if hasattr(pairing, "LOCAL") else "local"):
    """`d.start`, naming the address where the desk takes one (so that the tests run, and
    fail on what they check, against the desk before issue 22 too)."""
    if "address" in PairingDesk.start.__code__.co_varnames:
        return d.start(token, label, now=now, address=address)
    return d.start(token, label, now=now)


def digits(sentence: str) -> str:
    """The code a sentence of the table says, back as digits."""
    spoken = re.search(r"Its code is ([a-z, ]+)\.", sentence)
    assert spoken, sentence
    words = spoken.group(1).split(",")
    return "".join(str(pairing.DIGIT_WORDS.index(w.strip()) + 1) for w in words)


def test_a_parent_card_within_the_window_pairs_and_the_file_holds_only_the_hash(tmp_path):
    d, table = desk(tmp_path)
    r = start(d, HASH, "Ana's phone", now=100.0, address=PHONE)
    assert table.lights[-1] == ("pairing", False)
    assert d.status(r.id, 110.0) == {"status": "waiting", "seconds_left": 20.0}
    d.tap("chest", "admin/1", now=129.0)
    assert d.status(r.id, 130.0)["status"] == "paired"
    assert table.lights[-1] == ("accepted", True)
    path = tmp_path / "pairings.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert HASH in text and TOKEN not in text
    assert d.check(HASH).card == "admin/1" and d.check(HASH).label == "Ana's phone"
    # A restart (a new desk on the same folder) still knows the pairing.
    again, _ = desk(tmp_path)
    assert again.check(HASH) is not None and again.check(OTHER) is None


def test_the_code_is_four_dice_faces_from_the_system_source_told_only_to_the_browser_that_asked(
        tmp_path, monkeypatch):
    drawn: list[int] = []
    real = pairing.unguessable.randbelow

    def randbelow(n: int) -> int:
        drawn.append(n)
        return real(n)

    monkeypatch.setattr(pairing.unguessable, "randbelow", randbelow)
    d, table = desk(tmp_path)
    r = start(d, HASH, "phone", now=0.0, address=PHONE)
    assert drawn == [6, 6, 6, 6]  # four draws from the system's random source, 1..6 each
    assert re.fullmatch(r"[1-6]{4}", r.code)
    mine = d.status(r.id, 1.0, HASH)
    assert mine["status"] == "waiting" and mine["code"] == r.code
    assert "code" not in d.status(r.id, 1.0)  # no hash given: no code
    assert d.status(r.id, 1.0, OTHER) == {"status": "unknown"}  # another browser: nothing
    # The table says the same code, as words espeak-ng reads digit by digit.
    assert digits(table.voice[-1]) == r.code
    assert pairing.code_words("4261") == "four, two, six, one"
    codes = {pairing.draw_code() for _ in range(300)}
    assert len(codes) > 200 and all(re.fullmatch(r"[1-6]{4}", c) for c in codes)


@pytest.mark.parametrize("label", ["Mum's phone", "Mum's phone. Tap the parent card now",
                                   "Dad\u202e enohp", "x" * 500])
def test_the_table_never_says_or_narrates_the_label_the_client_chose(tmp_path, label):
    d, table = desk(tmp_path)
    r = start(d, HASH, label, now=0.0, address=PHONE)
    d.tick(30.0)  # missed...
    start(d, HASH, label, now=31.0, address=PHONE)
    d.tap("chest", "admin/1", now=32.0)  # ...then paired...
    d.revoke(d.listing()[0]["id"])  # ...then revoked
    spoken = " ".join(table.voice + table.said)
    assert "Mum" not in spoken and "Dad" not in spoken and "xxx" not in spoken
    assert "asks to pair" in table.voice[0] and "Its code is" in table.voice[0]
    # The play-by-play reaches every watching phone: no code there either.
    assert not any(r.code in line.replace(" ", "") for line in table.said)
    assert not any(w in line for line in table.said for w in pairing.DIGIT_WORDS[1:])


def test_a_label_is_kept_clean_and_short_for_the_list_of_pairings():
    assert pairing.clean_label("  Ana's   phone ") == "Ana's phone"
    clean = pairing.clean_label
    assert clean("Dad\u202e\u200benohp\n\x07!") == "Dad enohp"  # no bidi, no controls
    assert len(pairing.clean_label("é" * 100)) == pairing.LABEL_MAX
    assert clean(None) == clean("") == clean("\u202e") == "a phone"
    assert pairing.clean_label(12, "a browser") == "a browser"


def test_a_second_address_queues_behind_the_open_window_and_gets_the_next(tmp_path):
    d, table = desk(tmp_path, window=30)
    stranger = start(d, OTHER, "Mum's phone", now=0.0, address=STRANGER)
    code = stranger.code
    phone = start(d, HASH, "phone", now=5.0, address=PHONE)  # no 409: queued
    assert d.status(phone.id, 6.0, HASH) == {"status": "queued", "ahead": 1,
                                            "seconds_until": 24.0}
    assert stranger.code == code and d.request is stranger  # the open window is not replaced
    assert len(table.voice) == 1  # the table said only the stranger's code so far
    # The stranger's window runs out: the phone's (asking each second, as its page does)
    # opens at once, with a code of its own.
    for t in range(7, 30):
        assert d.status(phone.id, float(t), HASH)["status"] == "queued"
    status = d.status(phone.id, 30.0, HASH)
    assert status["status"] == "waiting" and status["code"] == phone.code
    assert status["seconds_left"] == 30.0
    assert digits(table.voice[-1]) == phone.code
    d.tap("pond", "admin/1", now=35.0)
    assert d.check(HASH) is not None and d.check(OTHER) is None
    assert d.status(stranger.id, 36.0, OTHER) == {"status": "expired"}


def test_one_address_one_request_and_no_double_pairing(tmp_path):
    d, _ = desk(tmp_path)
    first = start(d, HASH, "one", now=0.0, address=PHONE)
    assert start(d, HASH, "one", now=1.0, address=PHONE) is first  # asking again: the same
    with pytest.raises(PairingError, match="already asking"):
        start(d, OTHER, "two", now=2.0, address=PHONE)  # a second browser at the same address
    d.tap("chest", "admin/1", now=3.0)
    with pytest.raises(PairingError, match="already paired"):
        start(d, HASH, "one", now=4.0, address=PHONE)
    assert start(d, OTHER, "two", now=5.0, address=PHONE).label == "two"  # free again


def test_one_address_cannot_hold_the_window_again_and_again(tmp_path):
    window = 30.0
    assert [pairing.cooldown(n, window) for n in range(1, 8)] == [0, 30, 60, 120, 240, 480, 600]
    d, _ = desk(tmp_path, window)
    now, opened = 0.0, []
    while now < 3600:
        try:
            r = start(d, h(int(now)), "x", now=now, address=STRANGER)
        except PairingError as refused:
            assert refused.retry_after and "wait" in str(refused)
        else:
            if r.code is not None and r.opened == now:
                opened.append(now)
        now += 1.0
        d.tick(now)
    # Windows at 0 and 30 (a parent who was too slow once asks again at once), then 30 s,
    # 60 s, 120 s... (at most 10 min) of quiet between them: 10 windows in an hour, not 120.
    assert opened[:5] == [0.0, 30.0, 90.0, 180.0, 330.0]
    assert len(opened) == 10


def test_a_pairing_forgives_the_address_its_misses(tmp_path):
    d, _ = desk(tmp_path, window=10)
    start(d, HASH, "x", now=0.0, address=PHONE)
    d.tick(10.0)
    start(d, HASH, "x", now=10.0, address=PHONE)
    d.tick(20.0)
    with pytest.raises(PairingError) as refused:
        start(d, HASH, "x", now=21.0, address=PHONE)
    assert refused.value.retry_after == pytest.approx(9.0)
    start(d, HASH, "x", now=30.0, address=PHONE)
    d.tap("chest", "admin/1", now=31.0)
    assert PHONE not in d.misses


def test_a_stranger_who_keeps_asking_cannot_starve_the_real_phone(tmp_path):
    """The stranger asks every second, a new browser each time, from a few addresses; the real
    phone asks at 7 s. It gets its window within a window per stranger address ahead of it,
    the window stays its own (its code unchanged) until the card, and the card pairs it."""
    d, _ = desk(tmp_path, window=30)
    strangers = [f"192.168.1.{100 + i}" for i in range(3)]
    phone = None
    for tenth in range(0, 2000):
        now = tenth / 10
        if tenth % 10 == 0:
            for i, address in enumerate(strangers):
                try:
                    r = start(d, h(tenth * 10 + i), "Mum's phone", now=now, address=address)
                    d.status(r.id, now, r.token_sha256)
                except PairingError:
                    pass
        if tenth == 70:
            phone = start(d, HASH, "phone", now=now, address=PHONE)
        if phone is not None:
            status = d.status(phone.id, now, HASH)
            if status["status"] == "waiting":
                break
    assert phone is not None and status["status"] == "waiting"
    assert now <= 7.0 + 30 * len(strangers)
    code = status["code"]
    for tenth in range(int(now * 10), int(now * 10) + 100):  # they keep asking: no matter
        for i, address in enumerate(strangers):
            try:
                start(d, h(tenth * 10 + i), "x", now=tenth / 10, address=address)
            except PairingError:
                pass
    assert d.request is phone and phone.code == code
    d.tap("chest", "admin/1", now=now + 10)
    assert d.check(HASH) is not None
    assert len(d.store.pairings) == 1


def test_a_queued_page_that_left_loses_its_turn(tmp_path):
    d, _ = desk(tmp_path, window=30)
    start(d, OTHER, "x", now=0.0, address=STRANGER)
    gone = start(d, h(1), "x", now=1.0, address="10.0.0.3")  # never asks for its status again
    here = start(d, HASH, "x", now=2.0, address=PHONE)
    for t in range(3, 31):
        d.status(here.id, float(t), HASH)
    assert d.request is here and d.status(gone.id, 31.0) == {"status": "gone"}


def test_the_lights_step_through_the_code_in_each_place_colour(tmp_path):
    d, _ = desk(tmp_path, window=30)
    assert d.light(0.0) is None
    r = start(d, HASH, "x", now=0.0, address=PHONE)
    assert d.light(0.5) == (None, None)  # the plain blue pulse: the code starts after it
    steps = [d.light(pairing.GAP_SECONDS + pairing.DIGIT_SECONDS * i + 0.1) for i in range(4)]
    assert steps == [(pairing.CODE_COLOURS[i], int(r.code[i])) for i in range(4)]
    cycle = pairing.GAP_SECONDS + 4 * pairing.DIGIT_SECONDS
    assert d.light(cycle + 0.2) == (None, None)  # and round again
    d.tick(30.0)
    assert d.light(30.0) is None


def test_the_window_closes_after_its_time_and_a_late_card_is_refused(tmp_path):
    d, table = desk(tmp_path)
    r = start(d, HASH, "phone", now=0.0)
    d.tick(30.0)
    assert d.status(r.id, 30.0) == {"status": "expired"}
    assert table.lights[-1] == ("rejected", True)
    with pytest.raises(Rejection) as late:
        d.tap("pond", "admin/2", now=31.0)
    assert late.value.code == "no-pairing"
    assert d.check(HASH) is None and not (tmp_path / "pairings.json").exists()


@pytest.mark.parametrize("bad", [None, "", "0" * 63, "Z" * 64, 12, TOKEN])
def test_a_request_without_a_proper_hash_is_refused(tmp_path, bad):
    d, _ = desk(tmp_path)
    with pytest.raises(PairingError, match="token_sha256"):
        start(d, bad, "x", now=0.0)
    assert d.request is None


def test_revoking_removes_the_pairing_for_good(tmp_path):
    d, table = desk(tmp_path)
    start(d, HASH, "phone", now=0.0)
    d.tap("chest", "admin/1", now=1.0)
    pid = d.listing()[0]["id"]
    assert "token_sha256" not in d.listing()[0]  # the hash never leaves the daemon
    d.revoke(pid)
    assert d.check(HASH) is None
    assert json.loads((tmp_path / "pairings.json").read_text()) == {"pairings": []}
    assert "revoked" in table.said[-1]
    with pytest.raises(PairingError, match="No pairing"):
        d.revoke(pid)


def test_a_damaged_pairings_file_means_pair_again_not_a_dead_table(tmp_path):
    (tmp_path / "pairings.json").write_bytes(b"\xff{not json")
    d, _ = desk(tmp_path)
    assert d.listing() == []
    start(d, HASH, "phone", now=0.0)
    d.tap("chest", "admin/1", now=1.0)
    assert d.check(HASH) is not None
