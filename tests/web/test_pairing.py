"""The daemon's pairing desk: a 30-second window, confirmed only by a parent card, stored hashed
in a 0600 file that survives a restart, and revocable."""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path

import pytest

from tabletap.controller.control_socket.pairing import PairingDesk, PairingError, PairingStore
from tabletap.controller.rules.base import Rejection

TOKEN = "a-session-token-the-browser-holds-only"
HASH = hashlib.sha256(TOKEN.encode()).hexdigest()
OTHER = hashlib.sha256(b"another browser").hexdigest()


class Table:
    """What the desk says and shows at the table, recorded."""

    def __init__(self) -> None:
        self.lights: list[tuple[str, bool]] = []
        self.said: list[str] = []

    def show(self, pattern: str, hold: bool) -> None:
        self.lights.append((pattern, hold))

    def narrate(self, text: str) -> None:
        self.said.append(text)


def desk(folder: Path, window: float = 30) -> tuple[PairingDesk, Table]:
    table = Table()
    return PairingDesk(PairingStore.load(folder), table.show, table.narrate, window), table


def test_a_parent_card_within_the_window_pairs_and_the_file_holds_only_the_hash(tmp_path):
    d, table = desk(tmp_path)
    r = d.start(HASH, "Ana's phone", now=100.0)
    assert table.lights[-1] == ("pairing", False)
    assert d.status(r.id, 110.0) == {"status": "waiting", "seconds_left": 20.0}
    d.tap("chest", "admin/1", now=129.0)
    assert d.status(r.id, 130.0)["status"] == "paired"
    assert table.lights[-1] == ("accepted", True)
    path = tmp_path / "pairings.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert HASH in text and TOKEN not in text
    assert d.check(HASH).card == "admin/1"
    # A restart (a new desk on the same folder) still knows the pairing.
    again, _ = desk(tmp_path)
    assert again.check(HASH) is not None and again.check(OTHER) is None


def test_the_window_closes_after_its_time_and_a_late_card_is_refused(tmp_path):
    d, table = desk(tmp_path)
    r = d.start(HASH, "phone", now=0.0)
    d.tick(30.0)
    assert d.status(r.id, 30.0) == {"status": "expired"}
    assert table.lights[-1] == ("rejected", True)
    with pytest.raises(Rejection) as late:
        d.tap("pond", "admin/2", now=31.0)
    assert late.value.code == "no-pairing"
    assert d.check(HASH) is None and not (tmp_path / "pairings.json").exists()


def test_one_phone_at_a_time_and_no_double_pairing(tmp_path):
    d, _ = desk(tmp_path)
    first = d.start(HASH, "one", now=0.0)
    assert d.start(HASH, "one", now=1.0) is first  # asking again is the same request
    with pytest.raises(PairingError, match="Another phone is pairing"):
        d.start(OTHER, "two", now=2.0)
    d.tap("chest", "admin/1", now=3.0)
    with pytest.raises(PairingError, match="already paired"):
        d.start(HASH, "one", now=4.0)
    assert d.start(OTHER, "two", now=5.0).label == "two"  # the window is free again


@pytest.mark.parametrize("bad", [None, "", "0" * 63, "Z" * 64, 12, TOKEN])
def test_a_request_without_a_proper_hash_is_refused(tmp_path, bad):
    d, _ = desk(tmp_path)
    with pytest.raises(PairingError, match="token_sha256"):
        d.start(bad, "x", now=0.0)
    assert d.request is None


def test_revoking_removes_the_pairing_for_good(tmp_path):
    d, table = desk(tmp_path)
    d.start(HASH, "phone", now=0.0)
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
    d.start(HASH, "phone", now=0.0)
    d.tap("chest", "admin/1", now=1.0)
    assert d.check(HASH) is not None
