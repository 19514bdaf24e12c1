"""`tabletap doctor --sim` with `backend: serial`: ask a simulated Pico for its hello.

The board check at the table is the serial link's own `probe(port)`. Under the simulator there is
no Pico on USB, so this starts the simulated board (the firmware's own code behind a
pseudo-terminal), runs that very probe against its port, and stops the board again. Found by the
entry point `serial-sim` in `tabletap.probes`, so controller never imports sim.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.settings.config import Config
from tabletap.hw.serial_link import Hello, probe
from tabletap.sim.board.board import SimBoard


def probe_simulated_board(config: Config, context: dict[str, Any]) -> Hello:
    serial = config.serial
    board = SimBoard(buttons=dict(serial.buttons), lid_pin=serial.lid_pin,
                     hold_s=config.long_press_seconds, seed=config.seed or 0).start()
    try:
        return probe(board.port, serial.hello_timeout)
    finally:
        board.close()
