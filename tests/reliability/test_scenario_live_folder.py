"""Fault 3: a scenario must not replace the family's game.

Before: `tabletap sim run` with `config: {state_dir: <the live folder>}` archived the unfinished
game and wrote its own, which the running daemon then continued.
"""

from __future__ import annotations

import signal
from pathlib import Path

from tests.reliability.procs import cli, magic_keys_config, send, start, wait_ready

SCENARIO = """game: magic-keys
players: [x, y]
seed: 1
config: {{state_dir: {state}}}
steps:
  - press: end-turn
    expect: {{turn: y}}
"""


def _scenario(tmp_path: Path) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(state=tmp_path / "state"))
    return path


def test_a_scenario_is_refused_while_a_daemon_plays_the_folder(tmp_path: Path):
    cfg = magic_keys_config(tmp_path)
    daemon = start(cfg)
    try:
        wait_ready(daemon)
        send(daemon, "tap magic-keys/key/purple/1 chest")
        journal = tmp_path / "state" / "journal.jsonl"
        before = journal.read_bytes()
        done = cli("sim", "run", str(_scenario(tmp_path)), "--replace-live-game")
        assert done.returncode == 2, done.stdout + done.stderr
        assert "is playing a game in" in done.stderr and "Traceback" not in done.stderr
        assert journal.read_bytes().startswith(before)
        assert not (tmp_path / "state" / "games").exists()  # nothing archived
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.communicate(timeout=20)


def test_an_unfinished_game_is_kept_unless_told_explicitly(tmp_path: Path):
    cfg = magic_keys_config(tmp_path)
    daemon = start(cfg)
    wait_ready(daemon)
    daemon.send_signal(signal.SIGTERM)
    daemon.communicate(timeout=20)
    journal = tmp_path / "state" / "journal.jsonl"
    family = journal.read_bytes()
    scenario = _scenario(tmp_path)
    refused = cli("sim", "run", str(scenario))
    assert refused.returncode == 2
    assert "holds the unfinished magic-keys game of ana, ben, cleo" in refused.stderr
    assert "--replace-live-game" in refused.stderr
    assert journal.read_bytes() == family
    allowed = cli("sim", "run", str(scenario), "--replace-live-game")
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    archived = list((tmp_path / "state" / "games").glob("*.jsonl"))
    assert [p.read_bytes() for p in archived] == [family]  # archived, not lost
