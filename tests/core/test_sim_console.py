"""The simulator's console as a developer meets it (issue 21, defect 12): `help` lists the
commands, the lights and the chest are shown as they change and on asking, and every sentence
is printed once (not again as a log line)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import yaml


def test_the_console_helps_shows_the_outputs_and_says_each_sentence_once(tmp_path: Path) -> None:
    config = tmp_path / "table.yaml"
    config.write_text(yaml.safe_dump({"state_dir": "state", "game": "magic-keys",
                                      "players": ["ana", "ben"], "seed": 3}))
    proc = subprocess.Popen([sys.executable, "-m", "tabletap.controller.cli", "run", "--sim",
                             "--config", str(config)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=tmp_path)
    assert proc.stdin is not None
    try:
        time.sleep(2.5)
        for line in ("help", "tap kingdomino/domino/7", "tap magic-keys/key/purple/1",
                     "lights", "chest"):
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            time.sleep(0.8)
        out = proc.communicate(timeout=20)[0]
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "tap PIECE [READER]" in out and "unknown command 'help'" not in out
    assert "lights:" in out and "chest:" in out
    sentences = [line for line in out.splitlines() if "belongs to another game" in line]
    assert len(sentences) == 1, out


def test_the_console_helps_in_the_table_s_language(tmp_path: Path) -> None:
    """`help` at a German table explains the commands in German (the commands stay typed as
    they are): issue 20, the console's help from the catalogs."""
    config = tmp_path / "table.yaml"
    config.write_text(yaml.safe_dump({"state_dir": "state", "game": "magic-keys",
                                      "players": ["ana", "ben"], "seed": 3, "language": "de"}))
    proc = subprocess.Popen([sys.executable, "-m", "tabletap.controller.cli", "run", "--sim",
                             "--config", str(config)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=tmp_path)
    try:
        out = proc.communicate("help\n", timeout=20)[0]
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "Befehle:" in out and "tap PIECE [READER]" in out, out
    assert "Commands:" not in out
