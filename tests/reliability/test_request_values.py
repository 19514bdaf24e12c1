"""A control request's value must be exactly what its kind documents (issue 22, defect 4).

Before the fix `{"abandon": false}` abandoned a live game, `{"undo": false}` undid a move and
`{"doctor": 5}` ran the table check (which drives the chest and the lights): the handlers looked
for their key and never at its value. Each case here goes through the real dispatch with every
kind `tabletap run` registers, the page's included, and checks both the refusal and that the game
is untouched.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletap.controller.control_socket import page as web_requests
from tabletap.controller.control_socket.requests import TAKES, dispatch, register
from tests.core.helpers import magic_keys_table, tap


@pytest.fixture()
def table(tmp_path: Path):
    daemon, context = magic_keys_table(tmp_path)
    web_requests.attach(daemon)
    for kind, handler in web_requests.HANDLERS.items():
        register(kind, handler, web_requests.TAKES[kind])
    return daemon, context


def _journal_lines(daemon) -> int:
    return len(daemon.session.journal.path.read_bytes().splitlines())


@pytest.mark.parametrize("request_", [
    {"abandon": False}, {"abandon": 1}, {"abandon": "yes"}, {"abandon": None},
    {"abandon": {}}, {"undo": False}, {"undo": 0}, {"undo": []},
    {"doctor": 5}, {"doctor": False}, {"doctor": "true"},
    {"new": True}, {"do": True}, {"do": "end-turn"}, {"state": 1},
    {"revoke": True}, {"revoke": ""}, {"pair": True}, {"pairings": False}, {"enrol": True},
    {"snapshot": False}, {"snapshot": True, "since": "3"}, {"state": True, "reveal": 1},
    {"undo": True, "id": 7}, {"undo": True, "force": True}, {"abandon": True, "undo": True},
])
def test_a_value_other_than_the_documented_one_is_refused_and_changes_nothing(table, request_):
    daemon, context = table
    tap(daemon, context, "magic-keys/key/purple/1")  # a move on record, so undo has work to do
    before = (daemon.session.playing, _journal_lines(daemon), daemon.session.journal
              .path.read_bytes())
    reply = dispatch(daemon, request_)
    assert reply["ok"] is False
    assert reply["error"].startswith(("bad request:", "unknown request:")), reply
    after = (daemon.session.playing, _journal_lines(daemon), daemon.session.journal
             .path.read_bytes())
    assert after == before


def test_the_refusal_says_what_the_kind_takes(table):
    daemon, _ = table
    assert dispatch(daemon, {"abandon": False})["error"] == \
        "bad request: `abandon` takes true, not false"
    assert dispatch(daemon, {"doctor": 5})["error"] == "bad request: `doctor` takes true, not 5"
    assert "may carry `id`" in dispatch(daemon, {"undo": True, "force": True})["error"]


def test_the_documented_values_still_work(table):
    daemon, context = table
    tap(daemon, context, "magic-keys/key/purple/1")
    assert dispatch(daemon, {"state": True, "reveal": False})["ok"]
    assert dispatch(daemon, {"snapshot": True, "since": None})["ok"]
    assert dispatch(daemon, {"pairings": True})["ok"]
    assert dispatch(daemon, {"undo": True, "id": "a" * 32})["accepted"]
    assert dispatch(daemon, {"abandon": True})["accepted"]
    assert not daemon.session.playing


def test_every_registered_kind_declares_what_it_takes(table):
    from tabletap.controller.control_socket.requests import HANDLERS

    assert set(HANDLERS) <= set(TAKES)
