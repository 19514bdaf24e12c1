"""Issue 22, defect 1: damage at the journal's end never drops acknowledged moves silently.

A journal damaged anywhere is either resumed exactly or refused with the family told: the
durable record (state/durable.py) says how far the journal was answered, so a zeroed block, a
file cut short or a flipped final newline is damage, and only the entry a power cut tore while
it was written is dropped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletap.controller.cli import main
from tabletap.controller.health.table import table_findings
from tabletap.controller.settings.config import Config
from tabletap.controller.state.journal import GameHeader, Journal, JournalError, sealed
from tabletap.controller.table.daemon import Daemon
from tabletap.controller.table.runtime import GameSpec, open_table
from tabletap.sim.context import make_context
from tests.core.helpers import FAKES
from tests.reliability.journal_damage import ACTIONS, DAMAGE, kingdomino_journal, write_config

CASES = list(DAMAGE)
# Said at the table, pinned here word for word: no command, no id, no path.
FAMILY_SENTENCE = ("The saved game was damaged, so it was not started again. It is kept safe. "
                   "A grown-up can see what happened on the phone page.")
SLOT, STRIDE = 128, 4096  # the durable record's slot and where each starts (state/durable.py)


def _point(path: Path):  # noqa: ANN202 - the record's module is imported where it is used
    from tabletap.controller.state.durable import DurableRecord

    return DurableRecord(path).read()


def _damaged(tmp_path: Path, case: str) -> tuple[Journal, bytes]:
    journal = kingdomino_journal(tmp_path / "state")
    damaged = DAMAGE[case](journal.path.read_bytes())
    journal.path.write_bytes(damaged)
    return Journal(journal.path), damaged


def _open(tmp_path: Path) -> tuple[Daemon, list[str], dict]:
    said: list[str] = []
    cfg = Config.model_validate({"state_dir": str(tmp_path / "state")})
    context = make_context()
    daemon = open_table(cfg, context, context["clock"], None, said.append)
    return daemon, said, context


def _close(daemon: Daemon) -> None:
    daemon.close()
    daemon.session.outputs.close()


@pytest.mark.parametrize("case", CASES)
def test_damage_at_the_end_is_refused_by_replay(tmp_path: Path, case: str):
    journal, damaged = _damaged(tmp_path, case)
    with pytest.raises(JournalError) as caught:
        journal.replay(repair=False)
    assert caught.value.saved == ACTIONS and caught.value.line is not None
    assert f"{journal.path}:{caught.value.line}:" in str(caught.value)
    with pytest.raises(JournalError):
        journal.replay(repair=True)  # the daemon's replay refuses too ...
    assert journal.path.read_bytes() == damaged  # ... and cuts nothing


@pytest.mark.parametrize("case", CASES)
def test_journal_check_says_damaged_and_what_repair_keeps(tmp_path: Path, case: str, capsys):
    journal, damaged = _damaged(tmp_path, case)
    assert main(["journal", "check", "--config", str(write_config(tmp_path))]) == 1
    out = capsys.readouterr().out
    assert out.startswith("damaged: ") and "sound" not in out
    assert f"says {ACTIONS} moves were saved and answered at the table" in out
    kept = journal.kept_by_repair(pytest.raises(JournalError, journal.replay, False).value)
    # a flipped final newline after an answered entry that checks loses nothing
    assert kept is not None
    assert kept == ACTIONS if case == "final newline flipped" else 0 < kept < ACTIONS
    assert f"`tabletap journal repair` keeps {kept} moves" in out
    assert journal.path.read_bytes() == damaged


@pytest.mark.parametrize("case", CASES)
def test_the_daemon_starts_held_and_tells_the_family(tmp_path: Path, case: str):
    journal, damaged = _damaged(tmp_path, case)
    daemon, said, context = _open(tmp_path)
    try:
        assert not daemon.session.playing and daemon.session.header is None
        assert journal.path.read_bytes() == damaged  # byte for byte
        assert [line for line in said if FAMILY_SENTENCE in line] == [f"  {FAMILY_SENTENCE}"]
        assert not any("Resuming" in line for line in said)
        findings = [f for f in table_findings(daemon, context, moving=False)
                    if f.device == "saved game"]
        assert [f.status for f in findings] == ["failed"]
        detail = findings[0].detail
        assert f"{ACTIONS} moves were saved" in detail and "journal repair` keeps" in detail
        assert "damaged journal whole in games/" in detail
    finally:
        _close(daemon)
    assert journal.path.read_bytes() == damaged
    from tabletap.controller.health.checks import journal_findings

    [finding] = journal_findings(tmp_path / "state")  # `tabletap doctor` reads it too
    assert finding.status == "failed" and f"{ACTIONS} moves were saved" in finding.detail


def test_a_new_game_while_held_keeps_the_damaged_journal_whole(tmp_path: Path):
    journal, damaged = _damaged(tmp_path, "cut in half")
    daemon, _said, context = _open(tmp_path)
    try:
        result = daemon.session.begin(
            GameHeader("magic-keys", ["ana", "ben"], 1, {}, {"fake_keys": FAKES}), 0.0)
        assert result.accepted and daemon.session.playing
        [copy] = (tmp_path / "state" / "games").glob("*-damaged.jsonl")
        assert copy.read_bytes() == damaged
        [finding] = [f for f in table_findings(daemon, context, moving=False)
                     if f.device == "saved game"]
        assert finding.status == "warning" and str(copy) in finding.detail
    finally:
        _close(daemon)
    assert Journal(journal.path).replay(repair=False).header.game == "magic-keys"


def test_a_torn_write_of_the_last_entry_still_resumes(tmp_path: Path):
    """The power goes while entry 79 is written: the record still says 78, and the part that
    reached the disk is dropped with a warning that tells the truth."""
    journal = kingdomino_journal(tmp_path / "state")
    whole = journal.path.read_bytes()
    entry = sealed({"type": "action", "n": ACTIONS + 1, "actions": [{"type": "pass"}]})
    for cut in (1, len(entry) // 2, len(entry) - 3):
        journal.path.write_bytes(whole + entry[:cut].encode())
        replayed = Journal(journal.path).replay(repair=False)
        assert replayed.actions == ACTIONS
        [warning] = replayed.warnings
        assert "the entry being written when the power went, never answered" in warning
        assert "had not been answered" not in warning
    daemon, said, _context = _open(tmp_path)
    try:
        assert daemon.session.playing and daemon.session.actions == ACTIONS
        assert any(f"after {ACTIONS} actions" in line for line in said)
    finally:
        _close(daemon)
    assert journal.path.read_bytes() == whole  # only the torn part was cut


def test_a_whole_entry_past_the_durable_point_is_kept(tmp_path: Path):
    """The power went between the journal's fsync and the record's: the entry is whole and
    checks, so it is kept, and the record catches up."""
    journal = kingdomino_journal(tmp_path / "state", actions=ACTIONS - 1)
    record = journal.durable.path.read_bytes()
    again = kingdomino_journal(tmp_path / "other")
    last = again.path.read_bytes().split(b"\n")[-2] + b"\n"
    with open(journal.path, "ab") as fh:
        fh.write(last)
    journal.durable.path.write_bytes(record)
    fresh = Journal(journal.path)
    assert fresh.replay(repair=True).actions == ACTIONS
    point = _point(journal.durable.path)
    assert point is not None and point.actions == ACTIONS and point.entries == ACTIONS + 1


def test_a_record_of_an_older_journal_is_ignored(tmp_path: Path):
    journal = kingdomino_journal(tmp_path / "state")
    old_record = journal.durable.path.read_bytes()
    # The same game, header for header (same seed), started again with fewer moves.
    journal.start(GameHeader("kingdomino", Journal(journal.path).replay(False).header.players,
                             5, {}, {}))
    journal.durable.path.write_bytes(old_record)
    replayed = Journal(journal.path).replay(repair=False)
    assert replayed.actions == 0
    assert any("describes another journal" in w for w in replayed.warnings)


def test_a_damaged_record_is_reported_not_trusted_and_not_fatal(tmp_path: Path):
    journal = kingdomino_journal(tmp_path / "state")
    journal.durable.path.write_bytes(b"\xff" * (STRIDE + SLOT))
    replayed = Journal(journal.path).replay(repair=True)
    assert replayed.actions == ACTIONS
    assert any("damaged (no slot passes its checksum)" in w for w in replayed.warnings)
    point = _point(journal.durable.path)  # rewritten from the sound journal
    assert point is not None and point.actions == ACTIONS


def test_one_torn_slot_leaves_the_other(tmp_path: Path):
    journal = kingdomino_journal(tmp_path / "state")
    raw = bytearray(journal.durable.path.read_bytes())
    newest = _point(journal.durable.path)
    assert newest is not None
    slot = newest.seq % 2
    raw[slot * STRIDE:slot * STRIDE + 40] = bytes(40)  # the slot written last, torn
    journal.durable.path.write_bytes(bytes(raw))
    point = _point(journal.durable.path)
    assert point is not None and point.seq == newest.seq - 1 and point.actions == ACTIONS - 1
    assert Journal(journal.path).replay(repair=False).actions == ACTIONS


def test_without_a_record_a_torn_tail_falls_back_with_a_note(tmp_path: Path):
    journal = kingdomino_journal(tmp_path / "state")
    journal.durable.path.unlink()
    with open(journal.path, "ab") as fh:
        fh.write(b'{"type": "action", "n": 79, "act')
    replayed = Journal(journal.path).replay(repair=False)
    assert replayed.actions == ACTIONS
    assert "not checked against a durable record" in replayed.warnings[0]
    # ... but a tail that cannot be a torn write is damage even so
    for case in ("last 4 KiB zeroed", "final newline flipped"):
        journal = kingdomino_journal(tmp_path / case)
        journal.path.write_bytes(DAMAGE[case](journal.path.read_bytes()))
        journal.durable.path.unlink()
        with pytest.raises(JournalError, match="not torn by a power cut"):
            Journal(journal.path).replay(repair=False)


@pytest.mark.parametrize("case", CASES)
def test_repair_keeps_what_is_before_the_damage_and_resets_the_record(tmp_path: Path, case: str,
                                                                      capsys):
    journal, damaged = _damaged(tmp_path, case)
    kept = journal.kept_by_repair(pytest.raises(JournalError, journal.replay, False).value)
    cfg = str(write_config(tmp_path))
    assert main(["journal", "repair", "--config", cfg]) == 0
    assert f"{kept} actions" in capsys.readouterr().out
    [copy] = (tmp_path / "state" / "games").glob("*-damaged.jsonl")
    assert copy.read_bytes() == damaged
    point = _point(journal.durable.path)
    raw = journal.path.read_bytes()
    assert point is not None and point.actions == kept
    assert (point.entries, point.size) == (raw.count(b"\n"), len(raw))
    assert main(["journal", "check", "--config", cfg]) == 0
    assert "sound" in capsys.readouterr().out
    assert Journal(journal.path).replay(repair=False).actions == kept


def test_an_unanswered_whole_entry_without_its_newline_is_refused_and_not_restored(tmp_path: Path,
                                                                                   capsys):
    """Past the durable point, a tail that passes its CRC is still damage (a torn write cannot
    check); repair does not bring back an entry the table never answered."""
    journal = kingdomino_journal(tmp_path / "state", actions=ACTIONS - 1)
    record = journal.durable.path.read_bytes()
    entry = kingdomino_journal(tmp_path / "other").path.read_bytes().split(b"\n")[-2]
    with open(journal.path, "ab") as fh:
        fh.write(entry)  # all but the newline
    journal.durable.path.write_bytes(record)
    with pytest.raises(JournalError, match="passes its checksum") as caught:
        Journal(journal.path).replay(repair=False)
    assert caught.value.saved == ACTIONS - 1
    assert Journal(journal.path).kept_by_repair(caught.value) == ACTIONS - 1
    assert main(["journal", "repair", "--config", str(write_config(tmp_path))]) == 0
    assert Journal(journal.path).replay(repair=False).actions == ACTIONS - 1


def test_run_new_over_a_damaged_journal_names_its_copy_damaged(tmp_path: Path):
    _journal, damaged = _damaged(tmp_path, "last 4 KiB zeroed")
    cfg = Config.model_validate({"state_dir": str(tmp_path / "state")})
    context = make_context()
    spec = GameSpec("magic-keys", ["ana", "ben"], 1, {}, {"fake_keys": FAKES})
    daemon = open_table(cfg, context, context["clock"], spec, new=True)
    try:
        assert daemon.session.playing
    finally:
        _close(daemon)
    [copy] = (tmp_path / "state" / "games").glob("*-damaged.jsonl")
    assert copy.read_bytes() == damaged


def test_tabletap_run_starts_held_on_a_lost_end_and_the_page_feed_says_so(tmp_path: Path):
    from tests.reliability.procs import cli

    journal, damaged = _damaged(tmp_path, "cut in half")
    done = cli("run", "--sim", "--config", str(write_config(tmp_path)))  # stdin closed: stops
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert FAMILY_SENTENCE in done.stdout and "Resuming" not in done.stdout
    assert f"the durable record says {ACTIONS} moves were saved" in done.stderr
    assert journal.path.read_bytes() == damaged
    # the page's feed, which listens only once the table is ready, is told too
    from tabletap.controller.commands.run import _attach_page
    from tabletap.controller.state.damage import HELD_LINE, PAGE_SENTENCE

    daemon, _said, context = _open(tmp_path)
    try:
        _attach_page(daemon, context)
        feed = [line["text"] for line in daemon.admin.lines]
        assert feed[-2:] == [FAMILY_SENTENCE, PAGE_SENTENCE]
        # and the top of the page says it to a parent who opens the page later, until a new
        # game starts
        assert daemon.admin.snapshot()["held"] == HELD_LINE
    finally:
        _close(daemon)
