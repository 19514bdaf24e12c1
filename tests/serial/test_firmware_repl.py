"""`tabletap firmware flash` on a Pico already running tabletap's firmware.

That firmware ignores Ctrl-C and runs a watchdog, so mpremote alone could not flash it: the
`repl` op makes it reset into MicroPython's REPL (no watchdog) first. Checked on the simulated
board, with a stand-in mpremote on PATH.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from tabletap.controller.cli import main
from tabletap.firmware import board as fwboard
from tabletap.hw.serial_link import BoardLink
from tabletap.sim.board import SimBoard
from tests.serial.test_firmware_command import MODULES, fake_mpremote


def test_the_repl_op_resets_the_board_into_the_repl_without_its_watchdog() -> None:
    board = SimBoard(seed=4).start()
    link = BoardLink(board.port, retry=0.02).start()
    try:
        link.wait_hello(3)
        ticket = link.submit({"op": "repl"})
        assert ticket.wait(3) and ticket.ok
        link.close()
        assert board.recorder.wait_for(lambda: board.in_repl, 3)
        assert len(board.boots) == 2 and board.repl_wdts == 0
        assert not board.repl_flag.exists()  # taken: the next reset runs the firmware again
        board.reset()
        assert board.recorder.wait_for(lambda: board.firmware is not None
                                       and board.firmware.boot == board.boot, 3)
        assert not board.in_repl
    finally:
        link.close()
        board.close()
    assert board.error is None


def test_flash_asks_a_running_board_for_its_repl_then_runs_mpremote(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    board = SimBoard(seed=6).start()
    log = fake_mpremote(tmp_path, 0)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    try:
        assert main(["firmware", "flash", "--port", board.port]) == 0
        assert board.in_repl and board.repl_wdts == 0
        (call,) = log.read_text().splitlines()
        args = ast.literal_eval(call)
        assert args[:2] == ["connect", board.port]
        assert [Path(a).name for a in args[4:-3]] == MODULES + ["main.py"]
        assert "flashed 7 files" in capsys.readouterr().out
    finally:
        board.close()


def test_flash_goes_ahead_when_no_tabletap_firmware_answers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    board = SimBoard(seed=7)
    board.repl_flag.write_text("1")  # it boots straight into the REPL: plain MicroPython
    board.start()
    log = fake_mpremote(tmp_path, 0)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    try:
        assert board.recorder.wait_for(lambda: board.in_repl, 3)
        assert main(["firmware", "flash", "--port", board.port]) == 0
        assert len(log.read_text().splitlines()) == 1 and len(board.boots) == 1
    finally:
        board.close()


def test_the_help_tells_the_bootsel_way_out(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["firmware", "flash", "--help"])
    assert "BOOTSEL" in capsys.readouterr().out


def test_a_board_that_will_not_hand_over_its_repl_gets_the_bootsel_advice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capfd: pytest.CaptureFixture[str]) -> None:
    """Firmware older than the `repl` op refuses it: mpremote would only fight its watchdog."""
    execute = fwboard.Board.execute

    def old_firmware(self: fwboard.Board, body: dict[str, object], now: int) -> None:
        if body.get("op") == "repl":
            raise ValueError("unknown op repl")
        execute(self, body, now)

    monkeypatch.setattr(fwboard.Board, "execute", old_firmware)
    board = SimBoard(seed=8).start()
    log = fake_mpremote(tmp_path, 0)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    try:
        assert main(["firmware", "flash", "--port", board.port]) == 1
        err = capfd.readouterr().err
        assert "unknown op repl" in err and "BOOTSEL" in err
        assert not log.exists() and not board.in_repl  # mpremote never ran
    finally:
        board.close()
