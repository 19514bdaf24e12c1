"""The journal: replay, resume, power cuts, and loud errors for entries that do not replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletap.controller.state.journal import GameHeader, Journal, JournalError
from tests.core.helpers import FAKES

HEADER = GameHeader("magic-keys", ["ana", "ben"], 5, {}, {"fake_keys": FAKES})


def _journal(tmp_path: Path) -> Journal:
    journal = Journal.in_dir(tmp_path)
    journal.start(HEADER)
    journal.append(1, {"type": "try-key", "key": "purple/1"})
    journal.append(2, {"type": "try-key", "key": "purple/4"})
    return journal


def test_replay_rebuilds_the_game(tmp_path: Path):
    replayed = _journal(tmp_path).replay()
    assert replayed.actions == 2
    assert replayed.engine.scores(replayed.state) == {"ana": 2, "ben": 0}
    assert replayed.engine.current_player(replayed.state) == "ana"
    assert replayed.warnings == []


def test_a_torn_last_line_is_dropped_with_a_warning(tmp_path: Path):
    journal = _journal(tmp_path)
    with open(journal.path, "ab") as fh:
        fh.write(b'{"type": "action", "n": 3, "act')  # the power went mid-write
    replayed = journal.replay()
    assert replayed.actions == 2
    assert "torn last line" in replayed.warnings[0]
    assert journal.path.read_bytes().endswith(b"}\n")  # truncated back to whole lines
    journal.append(3, {"type": "end-turn"})  # and appending goes on cleanly
    assert journal.replay().actions == 3


def test_a_garbled_middle_line_is_loud(tmp_path: Path):
    journal = _journal(tmp_path)
    lines = journal.path.read_text().splitlines()
    lines[1] = "not json"
    journal.path.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError, match=r"journal.jsonl:2: not valid JSON"):
        journal.replay()


def test_an_entry_that_does_not_replay_is_loud(tmp_path: Path):
    journal = _journal(tmp_path)
    journal.append(3, {"type": "try-key", "key": "purple/1"})  # already on the tower
    with pytest.raises(JournalError, match=r":4: .*does not replay \(key-already-used"):
        journal.replay()


def test_starting_a_new_game_archives_the_old_one(tmp_path: Path):
    journal = _journal(tmp_path)
    old = journal.path.read_text()
    journal.start(GameHeader("magic-keys", ["cleo", "dan"], 9))
    archived = list((tmp_path / "games").glob("*.jsonl"))
    assert len(archived) == 1 and archived[0].read_text() == old
    assert json.loads(journal.path.read_text())["players"] == ["cleo", "dan"]


def test_leftover_temp_files_are_cleaned_at_start(tmp_path: Path):
    (tmp_path / "journal.jsonl.tmp-tabletap").write_text("half")
    Journal.in_dir(tmp_path)
    assert not list(tmp_path.glob("*.tmp-tabletap"))


def test_an_unknown_game_in_the_header_is_loud(tmp_path: Path):
    journal = Journal.in_dir(tmp_path)
    journal.start(GameHeader("chess", ["a", "b"], 1))
    with pytest.raises(JournalError, match="does not start a game"):
        journal.replay()


def test_a_new_game_knows_the_request_ids_of_the_game_before_it(tmp_path: Path):
    """The move that ended a game may be saved with its answer lost; the client's retry (same
    id) can reach the daemon after a restart has started the next game, and must be recognised
    there (issue 22, the saved-but-unanswered window), across further restarts too, but only
    for the last CARRIED_IDS ids."""
    from contextlib import contextmanager

    from tabletap.controller.state.journal import CARRIED_IDS, REQUEST_ID

    @contextmanager
    def answering(request_id: str):
        token = REQUEST_ID.set(request_id)
        try:
            yield
        finally:
            REQUEST_ID.reset(token)

    journal = Journal.in_dir(tmp_path)
    journal.start(HEADER)
    for n in range(1, CARRIED_IDS + 3):
        with answering(f"id{n}"):
            journal.append(n, {"type": "end-turn"})
    restarted = Journal.in_dir(tmp_path)  # a restart: the finished game is replayed, then
    restarted.replay()
    restarted.start(HEADER)  # the next game starts over it
    again = Journal.in_dir(tmp_path)  # and another restart, during the next game
    again.replay()
    assert again.recall(f"id{CARRIED_IDS + 2}") == CARRIED_IDS + 2
    assert again.recall("id3") == 3
    assert again.recall("id2") is None  # only the last CARRIED_IDS are carried
