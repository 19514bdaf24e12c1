"""`tabletap journal check|repair`: the damaged line named, everything before it kept."""

from __future__ import annotations

import signal
from pathlib import Path

from tabletap.controller.cli import main
from tabletap.controller.state.journal import GameHeader, Journal
from tests.core.helpers import FAKES
from tests.reliability.procs import cli, magic_keys_config, start, wait_ready


def _game(tmp_path: Path) -> tuple[Path, Journal]:
    cfg = tmp_path / "t.yaml"
    cfg.write_text(f"state_dir: {tmp_path / 'state'}\n")
    journal = Journal.in_dir(tmp_path / "state")
    journal.start(GameHeader("magic-keys", ["ana", "ben"], 1, {}, {"fake_keys": FAKES}))
    journal.append(1, {"type": "try-key", "key": "purple/1"})
    journal.append(2, {"type": "try-key", "key": "purple/4"})
    journal.append(3, {"type": "try-key", "key": "blue/3"})
    return cfg, journal


def test_check_names_the_damaged_line_and_repair_keeps_what_came_before(tmp_path: Path, capsys):
    cfg, journal = _game(tmp_path)
    lines = journal.path.read_bytes().split(b"\n")
    lines[3] = lines[3][:20] + b"\x00garbage"  # the third entry is damaged
    damaged = b"\n".join(lines)
    journal.path.write_bytes(damaged)
    assert main(["journal", "check", "--config", str(cfg)]) == 1
    out = capsys.readouterr().out
    assert "journal.jsonl:4: not valid JSON" in out and "journal repair` keeps 2 moves" in out
    assert main(["journal", "repair", "--config", str(cfg)]) == 0
    out = capsys.readouterr().out
    assert "magic-keys game of ana, ben, 2 actions" in out
    copies = list((tmp_path / "state" / "games").glob("*-damaged.jsonl"))
    assert [c.read_bytes() for c in copies] == [damaged]  # nothing thrown away
    replayed = Journal(journal.path).replay(repair=False)
    assert replayed.actions == 2 and replayed.engine.scores(replayed.state)["ana"] == 2
    assert main(["journal", "check", "--config", str(cfg)]) == 0
    assert "sound" in capsys.readouterr().out
    assert main(["journal", "repair", "--config", str(cfg)]) == 0
    assert "nothing to repair" in capsys.readouterr().out


def test_a_damaged_header_cannot_be_repaired(tmp_path: Path, capsys):
    cfg, journal = _game(tmp_path)
    text = journal.path.read_text().replace('"seed": 1', '"seed": 3', 1)
    journal.path.write_text(text)
    assert main(["journal", "repair", "--config", str(cfg)]) == 2
    assert "nothing before it to keep" in capsys.readouterr().err
    assert journal.path.read_text() == text


def test_repair_refuses_while_a_daemon_plays(tmp_path: Path):
    cfg = magic_keys_config(tmp_path)
    daemon = start(cfg)
    try:
        wait_ready(daemon)
        done = cli("journal", "repair", "--config", str(cfg))
        assert done.returncode == 2 and "already using the state folder" in done.stderr
        assert "To repair, stop the table first" in done.stderr
        assert cli("journal", "check", "--config", str(cfg)).returncode == 0
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.communicate(timeout=20)


def test_the_daemon_names_the_damaged_line_and_the_repair(tmp_path: Path):
    """Mid-file damage, like damage at the end: the daemon starts held, cuts nothing, tells the
    table in plain words and logs the line and what repair keeps."""
    cfg, journal = _game(tmp_path)
    lines = journal.path.read_bytes().split(b"\n")
    del lines[2]  # a lost middle entry
    damaged = b"\n".join(lines)
    journal.path.write_bytes(damaged)
    done = cli("run", "--sim", "--config", str(cfg))  # stdin closed: it stops at once
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "journal.jsonl:3: the entry is numbered 3, expected 2" in done.stderr
    assert "`tabletap journal repair` keeps 1 move" in done.stderr
    assert "The saved game was damaged, so it was not started again." in done.stdout
    assert journal.path.read_bytes() == damaged
