"""`tabletap sim run`: exit codes and messages that name the file, step and expectation."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tabletap.controller.cli import main

BAD = Path(__file__).parent / "bad"
ROOT = Path(__file__).resolve().parents[2]


def test_a_scenario_that_breaks_a_rule_fails_naming_step_and_expectation(capsys):
    assert main(["sim", "run", str(BAD / "breaks-a-rule.yaml")]) == 1
    out = capsys.readouterr().out
    assert f"FAIL {BAD / 'breaks-a-rule.yaml'}: step 2 (line 9): expected accepted: true, got " \
           "rejected (key-already-used:" in out


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("typo-step.yaml", "typo-step.yaml:5:5: step 2: unknown step key 'presss'"),
        ("bad-expectation.yaml", "bad-expectation.yaml:5:14: step 1: expect.chest: expected open "
                                 "or closed"),
        ("no-such-reader.yaml", "no-such-reader.yaml:4: step 1: this table has no reader called "
                                "'pnd' (it has chest, pond)"),
        ("bad-setup.yaml", "bad-setup.yaml: setup:"),
        ("bad-uid.yaml", "bad-uid.yaml:4:11: step 1: tap.uid: expected a UID in hex"),
        ("endless-wait.yaml", "endless-wait.yaml:4:5: step 1: wait: expected a number of seconds"),
    ],
)
def test_a_malformed_scenario_exits_2_naming_the_step(capsys, name: str, message: str):
    assert main(["sim", "run", str(BAD / name)]) == 2
    assert message in capsys.readouterr().err


def test_the_shipped_demo_passes_and_narrates(capsys):
    demo = ROOT / "scenarios" / "magic-keys" / "demo-three-players.yaml"
    assert main(["sim", "run", "--play-by-play", str(demo)]) == 0
    out = capsys.readouterr().out
    assert "PASS" in out and "Ana wins" in out and "magic pond" in out


def test_several_files_report_the_worst_outcome(capsys):
    demo = ROOT / "scenarios" / "magic-keys" / "demo-three-players.yaml"
    assert main(["sim", "run", str(demo), str(BAD / "breaks-a-rule.yaml")]) == 1
    assert "scenarios: 1 passed, 1 failed" in capsys.readouterr().out


def test_the_command_puts_the_level_of_tabletap_s_loggers_back(capsys):
    """Run in-process, the command quiets `tabletap` while it runs and puts its level back: left
    at CRITICAL, it took the records of every later test in the same process
    (tests/release/test_journal_fields.py failed after any test here, found when `make test`
    first dealt the files out to two workers)."""
    ours = logging.getLogger("tabletap")
    before = ours.level
    ours.setLevel(logging.DEBUG)
    try:
        assert main(["sim", "run", str(BAD / "breaks-a-rule.yaml")]) == 1
        assert ours.level == logging.DEBUG
    finally:
        ours.setLevel(before)
    capsys.readouterr()
