"""The game the Pi-shaped boot test plays (image/pi_boot_test.py), through the Pi's own UART.

A whole game (image/pi-game.yaml) played only with pieces on the chest reader: that reader is
a PN532 on the header's UART (`port: /dev/serial0`), emulated by tabletap's PN532
chip (tabletap/sim/pn532) behind a pseudo-terminal that qemu connects to the Pi's mini-UART.
`Tapper` is the player's hand: it lays a key in the chip's field, waits until the daemon has
seen it, holds it a moment, lifts it, and waits until the
daemon has looked at the empty field again, so every key is exactly one tap.
"""

from __future__ import annotations

import time
from pathlib import Path

from tabletap.controller.loading.yamldoc import load_value
from tabletap.sim.ntag import Ntag
from tabletap.sim.pn532.chip import Pn532Chip
from tabletap.sim.pn532.pty import PtyChip
from tabletap.sim.world import SimTag

# The game, in a data file of its own (image/pi-game.yaml, as the virt boot test's is in
# boot-game.yaml): the box's table.yaml (the chest reader the real one on the header's UART, the
# other chips simulated: qemu has no GPIO to watch), the pieces laid on that reader one by one,
# the action the journal must hold for each, and the winner.
GAME = load_value(Path(__file__).with_name("pi-game.yaml").read_text(encoding="utf-8"),
                  "image/pi-game.yaml")
CONFIG_TEMPLATE: str = GAME["config"]
PLAYERS: list[str] = GAME["players"]
PIECES: list[str] = [tap["piece"] for tap in GAME["taps"]]
ACTIONS: list[dict] = [tap["action"] for tap in GAME["taps"]]
WINNER: str = GAME["winner"]


class Tapper:
    """The emulated PN532 on a pty (`port`), and a hand that taps keys on it."""

    def __init__(self) -> None:
        self.field: list[Ntag] = []
        self.chip = Pn532Chip(field=lambda: list(self.field))
        self.server = PtyChip(self.chip)
        self.port = self.server.port

    def _count(self, name: str) -> int:
        return sum(1 for entry in self.chip.log if entry == name)

    def wait_polled(self, timeout: float) -> float:
        """Seconds until the daemon first looks for a tag (its driver woke and configured the
        chip and asked for a listing)."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            if self._count("in_list_passive_target"):
                return time.monotonic() - start
            time.sleep(0.5)
        raise TimeoutError(f"the daemon never polled the reader (the chip saw {self.chip.log})")

    def tap(self, piece: str, timeout: float) -> float:
        """Lays `piece`'s tag on the reader until the daemon has read it, then lifts it and waits
        until the daemon has seen the field empty. Seconds from laying it to reading it."""
        # Seen once an armed listing answered with it, or a listing began after it was laid
        # (the second one from now: the first may have started before). The daemon reads a
        # tag's pages only the first time it sees its UID (a piece may come twice).
        armed, listings = self._count("armed-answer"), self._count("in_list_passive_target")
        start = time.monotonic()
        self.field.append(SimTag.for_piece(piece).memory)
        self.server.poke()
        while (self._count("armed-answer") == armed
               and self._count("in_list_passive_target") < listings + 2):
            if time.monotonic() - start > timeout:
                raise TimeoutError(f"the daemon never read {piece} (the chip saw "
                                   f"{self.chip.log[-8:]})")
            time.sleep(0.1)
        read_after = time.monotonic() - start
        time.sleep(1.5)  # a hand rests the key a moment
        self.field.clear()
        self.server.poke()
        listings = self._count("in_list_passive_target")
        lifted = time.monotonic()
        while self._count("in_list_passive_target") < listings + 2:
            if time.monotonic() - lifted > timeout:
                raise TimeoutError(f"the daemon never looked again after {piece} was lifted")
            time.sleep(0.1)
        time.sleep(0.5)
        return read_after

    def close(self) -> None:
        self.server.close()
