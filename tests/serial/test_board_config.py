"""The YAML checked against the Pico's own limits before any board sees it.

A cfg the board refuses leaves it on its defaults, driving the servo with limits that are not the
maker's, while the host only logged the refusal; now the backend refuses to start, naming the key.
"""

from __future__ import annotations

from typing import Any

import pytest

from tabletap.controller.health.checks import check_chest
from tabletap.controller.settings.config import Config
from tabletap.controller.table.adapters import build_outputs
from tabletap.firmware import servo
from tabletap.hw.serial_link import ConfigRefused, LinkError
from tabletap.hw.serial_link.backend import BoardConfigError, check_board_config
from tabletap.sim.context import make_context


@pytest.mark.parametrize(("yaml", "key"), [
    ({"chest": {"servo": {"min_pulse_width": 0.0003}}}, "chest.servo.min_pulse_width"),
    ({"long_press_seconds": 20}, "long_press_seconds"),
    ({"lights": {"pixels": 300}}, "lights.pixels"),
    ({"serial": {"buttons": {f"player-{i}-end-turn": i for i in range(12)},
                 "servo_pin": 25, "pixel_pin": 24}}, "serial.buttons"),
])
def test_values_the_board_would_refuse_are_a_config_error_naming_the_key(
        yaml: dict[str, Any], key: str) -> None:
    config = Config.model_validate({"backend": "serial"} | yaml)
    with pytest.raises(BoardConfigError, match=key.replace(".", r"\.")):
        check_board_config(config)
    context = make_context()
    with pytest.raises(BoardConfigError, match=key.replace(".", r"\.")):
        build_outputs(config, context)
    assert "pico" not in context  # refused before a simulated board was even started


def test_a_reversed_servo_is_accepted_and_driven_within_its_pulses() -> None:
    config = Config.model_validate({"backend": "serial", "chest": {"servo": {
        "min_angle": 90, "max_angle": -90, "open_angle": -60, "closed_angle": 30,
        "travel_seconds": 0}}})
    check_board_config(config)
    context = make_context()
    outputs = build_outputs(config, context)
    rec = context["pico"].recorder
    try:
        assert all(e.ack == {"ok": True} for e in rec.executed)
        outputs.chest.set_open(True)
        assert rec.wait_for(lambda: rec.duty(16) == servo.duty_u16(500 + 150 / 180 * 2000))
    finally:
        outputs.close()


def test_a_cfg_the_board_refuses_fails_the_doctors_chest_check() -> None:
    """Firmware older or stricter than this host: its refusal must not read as all fine."""
    config = Config(backend="serial")
    context = make_context()
    outputs = build_outputs(config, context)
    link = outputs.chest.link
    try:
        assert link.config_error is None
        assert link.submit({"op": "cfg", "travel_s": 99}).wait(2)
        assert "travel_s" in str(link.config_error)
        with pytest.raises(LinkError, match="refused its config.*travel_s"):
            check_chest(config, outputs.chest, sim=True)
        # The daemon hears of it on its next tick and stops, rather than drive the latch with
        # the board's default limits.
        with pytest.raises(ConfigRefused, match="tabletap firmware flash"):
            outputs.buttons.events()
    finally:
        outputs.close()
