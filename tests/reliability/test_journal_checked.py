"""Fault 6: the journal is checked: numbers, checksums, the header, and one entry per gesture.

Before: replay ignored the action numbers and had no checksum, so a deleted middle line replayed
silently, a header seed edited from 1 to 3 resumed another game (other fake keys, other past
scores), and a power cut between the two lines of one digital-dice gesture kept the move without
its try.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletap.controller.state.journal import GameHeader, Journal, JournalError
from tests.core.helpers import FAKES

PHYSICAL = GameHeader("magic-keys", ["ana", "ben"], 1, {}, {"fake_keys": FAKES})
DIGITAL = GameHeader("magic-keys", ["ana", "ben"], 1, {"dice": "digital"}, {})


def _physical(tmp_path: Path) -> Journal:
    journal = Journal.in_dir(tmp_path)
    journal.start(PHYSICAL)
    journal.append(1, {"type": "try-key", "key": "purple/1"})  # ana: true
    journal.append(2, {"type": "try-key", "key": "purple/4"})  # ben: fake
    journal.append(3, {"type": "try-key", "key": "blue/3"})  # ana: true
    return journal


def _lines(journal: Journal) -> list[str]:
    return journal.path.read_text().splitlines()


def _write(journal: Journal, lines: list[str]) -> None:
    journal.path.write_text("\n".join(lines) + "\n")


def test_a_deleted_middle_line_is_named(tmp_path: Path):
    journal = _physical(tmp_path)
    lines = _lines(journal)
    del lines[2]
    _write(journal, lines)
    with pytest.raises(JournalError, match=r"journal.jsonl:3: .*numbered 3, expected 2"):
        journal.replay(repair=False)


def test_an_edited_header_seed_is_caught_by_its_checksum(tmp_path: Path):
    journal = _physical(tmp_path)
    lines = _lines(journal)
    assert '"seed": 1' in lines[0]
    lines[0] = lines[0].replace('"seed": 1', '"seed": 3')
    _write(journal, lines)
    with pytest.raises(JournalError, match=r"journal.jsonl:1: .*checksum"):
        journal.replay(repair=False)


def test_an_edited_entry_is_caught_by_its_checksum(tmp_path: Path):
    journal = _physical(tmp_path)
    lines = _lines(journal)
    lines[2] = lines[2].replace("purple/4", "purple/2")
    _write(journal, lines)
    with pytest.raises(JournalError, match=r"journal.jsonl:3: .*checksum"):
        journal.replay(repair=False)


def test_a_gesture_is_one_entry_and_a_power_cut_takes_all_of_it(tmp_path: Path):
    journal = Journal.in_dir(tmp_path)
    journal.start(DIGITAL)
    journal.append(1, {"type": "roll", "dice": [3, 1, 1]})
    before = journal.path.stat().st_size
    record = journal.durable.path.read_bytes()  # the durable point before the gesture
    journal.append(2, {"type": "move", "steps": 3}, {"type": "try-key", "key": "purple/3"})
    assert len(_lines(journal)) == 3  # header, roll, and the move with its try
    assert journal.replay().actions == 3
    # The power goes while the gesture is written: whatever part of it reached the disk,
    # replay keeps neither the move nor the try. (The durable record is moved only after the
    # entry's fsync, so it still says where the gesture began.)
    whole = journal.path.read_bytes()
    journal.durable.path.write_bytes(record)
    for cut in range(before + 1, len(whole) - 1, 7):
        journal.path.write_bytes(whole[:cut])
        replayed = journal.replay(repair=False)
        assert replayed.actions == 1, cut
        assert replayed.engine.public_view(replayed.state)["pawn"]["position"] == 0


def test_entries_carry_their_number_and_a_checksum(tmp_path: Path):
    journal = _physical(tmp_path)
    header, *entries = (json.loads(line) for line in _lines(journal))
    assert header["format"] == 2 and len(header["crc"]) == 8
    assert [e["n"] for e in entries] == [1, 2, 3]
    assert all(len(e["crc"]) == 8 for e in entries)


def test_a_format_1_journal_still_resumes(tmp_path: Path):
    """A family's unfinished game from before the upgrade must not be lost."""
    old = [dict(PHYSICAL.to_json(), format=1)]
    old[0].pop("crc", None)
    old.append({"type": "action", "n": 1, "action": {"type": "try-key", "key": "purple/1"}})
    path = tmp_path / "journal.jsonl"
    path.write_text("".join(json.dumps(e, sort_keys=True) + "\n" for e in old))
    journal = Journal.in_dir(tmp_path)
    assert journal.replay().actions == 1
    journal.append(2, {"type": "try-key", "key": "purple/4"})
    assert journal.replay().actions == 2
