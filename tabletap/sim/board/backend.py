"""`backend: serial` under `--sim`: start the simulated Pico, then connect the real host side.

Registered as `serial-sim` in `tabletap.backends`; hw's serial backend hands over to it when the
context says we are simulating, so hw never imports sim.
"""

from __future__ import annotations

import time
from typing import Any

from tabletap.controller.ports import InputEvent, Outputs
from tabletap.controller.settings.config import Config
from tabletap.hw.serial_link.backend import build_outputs as build_serial_outputs
from tabletap.hw.serial_link.backend import check_board_config
from tabletap.sim.board.board import SimBoard
from tabletap.sim.board.pins import WorldPins

SETTLE_LIMIT_S = 3.0  # the longest events() waits for a press still on its way


class SettledButtons:
    """The host's buttons, but events() first lets a world press finish its trip.

    The scenario runner moves on virtual time while the board lives in real time; without this
    a press would reach the daemon some steps late. The wait ends as soon as the board has handed
    every event to the host (or after SETTLE_LIMIT_S, say while the link is unplugged).
    """

    def __init__(self, inner: Any, board: SimBoard) -> None:
        self.inner = inner
        self.board = board

    def _pending(self) -> bool:
        pins = self.board.levels
        firmware = self.board.firmware
        busy = isinstance(pins, WorldPins) and pins.busy()
        return busy or bool(firmware is not None and firmware.outbox and firmware.host is not None)

    def events(self) -> list[InputEvent]:
        deadline = time.monotonic() + SETTLE_LIMIT_S
        while self._pending() and time.monotonic() < deadline and self.board.error is None:
            time.sleep(0.002)
        return self.inner.events()

    def close(self) -> None:
        self.inner.close()


def build_outputs(config: Config, context: dict[str, Any]) -> Outputs:
    check_board_config(config)  # before a board starts: the config error, not a board's refusal
    world = context.get("world")
    board = SimBoard(inputs=world.inputs if world is not None else None,
                     buttons=dict(config.serial.buttons), lid_pin=config.serial.lid_pin,
                     hold_s=config.long_press_seconds, seed=config.seed or 0).start()
    context["pico"] = board  # tests and the bench read its recorder
    try:
        outputs = build_serial_outputs(config, context, port=board.port, on_close=[board.close])
    except BaseException:
        board.close()
        raise
    outputs.buttons.link.wait_idle(SETTLE_LIMIT_S)  # the board has its cfg before play starts
    outputs.buttons = SettledButtons(outputs.buttons, board)
    return outputs
