"""`backend: serial`: the ports on the Pico link, found by entry point, on the simulated board."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tabletap.controller.ports import InputEvent
from tabletap.controller.settings.config import Config
from tabletap.controller.table.adapters import build_outputs
from tabletap.firmware.board import DEFAULTS
from tabletap.hw.serial_link import ProtocolMismatch
from tabletap.hw.serial_link.backend import board_config
from tabletap.hw.serial_link.backend import build_outputs as serial_outputs
from tabletap.sim.board import SimBoard
from tabletap.sim.context import make_context


def test_the_serial_backend_under_sim_drives_the_firmware() -> None:
    config = Config.model_validate({"backend": "serial", "serial": {"lid_pin": 12}})
    context = make_context()
    outputs = build_outputs(config, context)
    pico: SimBoard = context["pico"]
    rec = pico.recorder
    try:
        cfg = next(e.body for e in rec.executed if e.body["op"] == "cfg")
        assert cfg["lid_pin"] == 12 and cfg["min_us"] == 500 and cfg["hold_ms"] == 1000
        outputs.lights.show("turn", "purple")
        outputs.chest.set_open(True)
        assert outputs.chest.is_open and outputs.lights.pattern == "turn"
        assert rec.wait_for(lambda: rec.colours() == ((160, 0, 255),) * 12)
        with pytest.raises(ValueError, match="unknown light pattern 'sparkle'"):
            outputs.lights.show("sparkle")
        world = context["world"]
        world.press("end-turn")
        assert outputs.buttons.events() == [InputEvent("end-turn", "press")]
        world.lid(closed=False)
        world.press("roll", long=True)
        got = outputs.buttons.events()
        assert InputEvent("lid", "lid-open") in got and InputEvent("roll", "hold") in got
        assert outputs.buttons.events() == []
    finally:
        outputs.close()
    assert not pico.line.plugged  # closing the outputs unplugged the simulated board
    assert pico.error is None


def test_a_player_colour_the_board_does_not_know_falls_back_to_the_pattern_colour() -> None:
    context = make_context()
    outputs = build_outputs(Config(backend="serial"), context)
    rec = context["pico"].recorder
    try:
        outputs.lights.show("turn", "ana")
        assert rec.wait_for(lambda: rec.colours() == ((255, 255, 255),) * 12)
    finally:
        outputs.close()


def test_the_backend_refuses_a_board_with_another_protocol() -> None:
    board = SimBoard(proto=99).start()
    try:
        with pytest.raises(ProtocolMismatch, match="tabletap firmware flash"):
            serial_outputs(Config(backend="serial"), {"sim": False}, port=board.port)
    finally:
        board.close()


def test_board_config_carries_the_servo_limits_and_timeout() -> None:
    config = Config.model_validate({
        "chest": {"servo": {"min_pulse_width": 0.0006, "max_pulse_width": 0.0024,
                            "travel_seconds": 1.5}},
        "serial": {"host_timeout": 4.0, "servo_pin": 2}})
    cfg = board_config(config)
    assert (cfg["min_us"], cfg["max_us"], cfg["travel_s"]) == (600, 2400, 1.5)
    assert cfg["host_timeout"] == 4.0 and cfg["servo_pin"] == 2


def test_tabletap_run_sim_plays_through_the_firmware(tmp_path: Path) -> None:
    """`tabletap run --sim` with the serial backend: a press typed at the console goes through
    the firmware's button code, the board's event, the link and the session."""
    config = tmp_path / "table.yaml"
    config.write_text(f"game: magic-keys\nplayers: [ana, ben]\nseed: 7\nbackend: serial\n"
                      f"state_dir: {tmp_path / 'state'}\n")
    cli = [sys.executable, "-m", "tabletap.controller.cli"]
    proc = subprocess.Popen([*cli, "run", "--sim", "--config",
                             str(config)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    try:
        assert proc.stdin is not None and proc.stdout is not None
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("simulated table ready"):
                proc.stdin.write("press end-turn\n")
                proc.stdin.flush()
            if "turn ends" in line:
                break
        proc.stdin.close()
        assert proc.wait(30) == 0
        stderr = proc.stderr.read() if proc.stderr else ""
    finally:
        watchdog.cancel()
    assert any("ana's turn ends" in line for line in lines), "".join(lines)
    assert "Pico firmware 1.0.0 (protocol 1)" in stderr


def test_the_doctor_can_sweep_the_latch_without_opening_it() -> None:
    context = make_context()
    config = Config.model_validate({"backend": "serial",
                                    "chest": {"servo": {"travel_seconds": 0.1}}})
    outputs = build_outputs(config, context)
    pico: SimBoard = context["pico"]
    rec = pico.recorder
    try:
        closed = rec.duty(16)
        told = outputs.chest.sweep(10)
        assert "10 degrees" in told
        assert rec.wait_for(lambda: max(d for _, _, d in rec.pwm) > closed
                            and rec.duty(16) == closed, 2)
        assert not outputs.chest.is_open
        assert "sweep" not in outputs.chest.link.desired  # a reset never replays it
    finally:
        outputs.close()


def test_the_boards_power_up_defaults_are_the_configs_defaults() -> None:
    """Until the host's cfg arrives the board runs on firmware/board.py's DEFAULTS; they must be
    what the daemon would send for a default config, or the latch would jump at the first cfg."""
    assert board_config(Config()) == DEFAULTS
