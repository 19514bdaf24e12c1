"""The suite's own isolation (tests/conftest.py): a test passes whatever ran before it.

The two tests run in this order (pytest keeps a file's order, and `make test` deals out whole
files to its workers). The first runs a command in-process that sets a process-wide logging
level, as `tabletap sim run` does; the second is any later test that logs. Without the conftest's
fixture, tests/release/test_journal_fields.py failed whenever a scenario test had run before it
in the same process (found when `make test` first ran the files on two workers)."""

from __future__ import annotations

import logging
from pathlib import Path

from tabletap.controller.cli import main

BREAKS_A_RULE = Path(__file__).parent / "scenario" / "bad" / "breaks-a-rule.yaml"


def test_a_command_run_in_process_sets_the_level_of_tabletap_s_loggers(capsys) -> None:
    assert main(["sim", "run", str(BREAKS_A_RULE)]) == 1
    capsys.readouterr()
    assert logging.getLogger("tabletap").level == logging.CRITICAL


def test_the_next_test_finds_the_levels_as_they_were() -> None:
    assert logging.getLogger("tabletap").level == logging.NOTSET
    table = logging.getLogger("tabletap.table")
    assert table.getEffectiveLevel() == logging.getLogger().getEffectiveLevel()
