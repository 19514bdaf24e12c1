"""Pairing by numeric comparison over the control socket's `pair` kind, on a real daemon loop
over the simulated table: the code in the reply is the one the table says and shows on its
lights, the client's label is never said, and a second address is queued, never refused for
ever and never put in the open window's place (issue 22, defect 3)."""

from __future__ import annotations

import hashlib

from tabletap.controller.control_socket import page as web_requests
from tabletap.controller.control_socket import pairing
from tests.core.helpers import magic_keys_table, tap

DIGIT_WORDS = ("one", "two", "three", "four", "five", "six")
PHONE = hashlib.sha256(b"the parent's phone").hexdigest()
STRANGER = hashlib.sha256(b"a device on the wi-fi").hexdigest()


def ask(daemon, **body):
    return web_requests.handle(daemon, {"pair": body})


def test_the_code_in_the_reply_is_the_one_the_table_says_and_shows(tmp_path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon)
    started = ask(daemon, token_sha256=PHONE, label="Mum's phone", address="192.168.1.20")
    assert started["ok"] and started["status"] == "waiting"
    code = started["code"]
    said = list(daemon.session.speaker.said)
    words = ", ".join(DIGIT_WORDS[int(d) - 1] for d in code)
    assert any(f"Its code is {words}." in s for s in said)
    assert not any("Mum" in s for s in said)
    snap = web_requests.handle(daemon, {"snapshot": True})["snapshot"]
    assert snap["pairing"]["waiting"] and "code" not in snap["pairing"]
    assert not any("Mum" in line["text"] or words in line["text"] for line in snap["log"])
    assert daemon.session.outputs.lights.pattern == "pairing"
    # The status the page polls tells the code only with the browser's own hash.
    status = ask(daemon, status=started["request"], token_sha256=PHONE)
    assert status["code"] == code
    assert "code" not in ask(daemon, status=started["request"])
    assert ask(daemon, status=started["request"], token_sha256=STRANGER)["status"] == "unknown"
    tap(daemon, ctx, "admin/1")
    assert web_requests.handle(daemon, {"pairings": {"check": PHONE}})["paired"]


def test_the_lights_show_each_digit_as_a_count_in_its_colour(tmp_path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon)
    lights = daemon.session.outputs.lights
    code = ask(daemon, token_sha256=PHONE, address="192.168.1.20")["code"]
    shown = []
    daemon.run_for(pairing.GAP_SECONDS + 0.3)
    for _ in range(4):
        shown.append((lights.pattern, lights.history[-1][2], lights.counts[-1]))
        daemon.run_for(pairing.DIGIT_SECONDS)
    assert shown == [("pairing", pairing.CODE_COLOURS[i], int(code[i])) for i in range(4)]


def test_a_second_address_is_queued_not_refused_and_gets_its_own_window(tmp_path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon)
    first = ask(daemon, token_sha256=STRANGER, label="Mum's phone", address="192.168.1.66")
    second = ask(daemon, token_sha256=PHONE, label="phone", address="192.168.1.20")
    assert second["ok"] and second["status"] == "queued" and "code" not in second
    assert web_requests.handle(daemon, {"snapshot": True})["snapshot"]["pairing"]["queued"] == 1
    for _ in range(31):  # its page asks each second
        daemon.run_for(1.0)
        status = ask(daemon, status=second["request"], token_sha256=PHONE)
    assert status["status"] == "waiting" and status["code"]
    assert ask(daemon, status=first["request"], token_sha256=STRANGER)["status"] == "expired"
    tap(daemon, ctx, "admin/1")
    assert web_requests.handle(daemon, {"pairings": {"check": PHONE}})["paired"]
    assert not web_requests.handle(daemon, {"pairings": {"check": STRANGER}})["paired"]


def test_an_address_that_keeps_asking_is_told_to_wait(tmp_path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon)
    for n in range(2):
        token = hashlib.sha256(f"try {n}".encode()).hexdigest()
        assert ask(daemon, token_sha256=token, address="10.0.0.9")["ok"]
        daemon.run_for(31.0)
    again = ask(daemon, token_sha256=PHONE, address="10.0.0.9")
    assert not again["ok"] and again["retry_after"] > 20 and "wait" in again["error"]
