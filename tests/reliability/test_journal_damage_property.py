"""A journal damaged anywhere is resumed exactly or refused: never fewer actions in silence.

Every entry of the journal here was answered at the table (the durable record says so), so any
truncation, zeroed run of bytes or flipped bit must either change nothing the replay sees or be
refused as damage; and a refusal cuts nothing."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletap.controller.state.journal import Journal, JournalError
from tests.reliability.journal_damage import ACTIONS, kingdomino_journal

_BUILT = Path(tempfile.mkdtemp(prefix="tabletap-damage-"))
atexit.register(shutil.rmtree, _BUILT, True)
_JOURNAL = kingdomino_journal(_BUILT / "state")
RAW = _JOURNAL.path.read_bytes()
_RECORD = _BUILT / "state" / "journal.durable"
RECORD = _RECORD.read_bytes() if _RECORD.exists() else None
_EXPECTED = Journal(_JOURNAL.path).replay(repair=False)
STATE = _EXPECTED.engine.state_to_json(_EXPECTED.state)


def _truncate(raw: bytes, at: int, _n: int) -> bytes:
    return raw[:at]


def _zero(raw: bytes, at: int, n: int) -> bytes:
    return raw[:at] + bytes(len(raw[at:at + n])) + raw[at + n:]


def _flip(raw: bytes, at: int, n: int) -> bytes:
    if at >= len(raw):
        return raw
    return raw[:at] + bytes([raw[at] ^ (1 << (n % 8))]) + raw[at + 1:]


MUTATIONS = {"truncate": _truncate, "zero": _zero, "flip": _flip}


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(kind=st.sampled_from(sorted(MUTATIONS)), at=st.integers(0, len(RAW)),
       n=st.integers(1, 5000), end_biased=st.booleans())
def test_resumed_exactly_or_refused(kind: str, at: int, n: int, end_biased: bool):
    if end_biased:  # the damage is at the end: look there half the time
        at = max(len(RAW) - 1 - at % 300, 0)
    damaged = MUTATIONS[kind](RAW, at, n)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.jsonl"
        path.write_bytes(damaged)
        if RECORD is not None:
            (Path(folder) / "journal.durable").write_bytes(RECORD)
        try:
            replayed = Journal(path).replay(repair=True)
        except JournalError:
            assert path.read_bytes() == damaged  # refused, and nothing cut
            return
        assert replayed.actions == ACTIONS, (kind, at, n)
        assert replayed.engine.state_to_json(replayed.state) == STATE
