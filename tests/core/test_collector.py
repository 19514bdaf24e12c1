"""The collector held while a command starts (controller/collector.py): let go for every
command but the daemon, and whatever way a command ends (a failed start, a usage error), so
no process is left without it."""

from __future__ import annotations

import argparse
import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletap.controller import cli, collector


@pytest.fixture(autouse=True)
def _collector_restored() -> Iterator[None]:
    was = gc.isenabled()
    yield
    gc.unfreeze()
    if was:
        gc.enable()


def test_settle_freezes_what_exists_and_lets_the_collector_run() -> None:
    collector.hold()
    assert not gc.isenabled()
    made = [[i] for i in range(1000)]  # tracked objects, made while held
    before = gc.get_freeze_count()
    collector.settle()
    assert gc.isenabled()
    assert gc.get_freeze_count() >= before + len(made)


def test_a_failed_daemon_start_lets_the_collector_go(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """`run` keeps the collector held to its READY: a start refused before READY (a state
    folder that is a file; a config with a typo) must let it go, or the process would go on
    without it."""
    taken = tmp_path / "afile"
    taken.touch()
    table = tmp_path / "table.yaml"
    table.write_text(f"state_dir: {taken}\n", encoding="utf-8")
    assert cli.main(["run", "--sim", "--config", str(table)]) == 2
    assert "cannot start: the state folder" in capsys.readouterr().err
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0  # nothing frozen: only READY settles

    table.write_text("chset: {}\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        cli.main(["run", "--sim", "--config", str(table)])
    assert exited.value.code == 2
    assert "chset: unknown key" in capsys.readouterr().err
    assert gc.isenabled()


def test_a_usage_error_and_help_let_the_collector_go() -> None:
    for argv in (["run", "--no-such-option"], ["--help"], ["no-such-command"]):
        with pytest.raises(SystemExit):
            cli.main(argv)
        assert gc.isenabled(), argv


def test_another_command_runs_with_the_collector(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Held through the imports and the parser only: `tabletap games` (any command but the
    daemon) runs with the collector on."""
    from tabletap.controller.commands import games

    seen: list[bool] = []
    real = games.games

    def watched(args: argparse.Namespace) -> int:
        seen.append(gc.isenabled())
        return real(args)

    monkeypatch.setattr(games, "games", watched)  # register() binds it when main imports it
    assert cli.main(["games"]) == 0
    assert "magic" in capsys.readouterr().out.lower()
    assert seen == [True]
