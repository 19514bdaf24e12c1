"""The PN532's IRQ line (P70_IRQ), so SPI and I2C readers can wait for a tap like UART ones.

The chip pulls P70_IRQ low while it has an answer for the host (an ACK or a reply) and lets it go
once the host has read it (PN532 user manual, "Host controller communication": the IRQ pin
signals that the PN532 is ready). On UART the port's own file descriptor says a reply is coming;
on SPI and I2C only a status read does, which cannot be waited on. So a reader with `irq_pin:`
wired gets this line: gpiozero watches it (edge events, no polling, in gpiozero's own thread),
and its falling edge writes one byte into a pipe whose read end is waited on by the daemon's loop
with the UARTs' descriptors, in the same `select` (hw/pn532/waiting.py). Without the pin an SPI
or I2C reader is polled as before.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from tabletap.hw.pn532.waiting import FdWait


class IrqLine:
    """One P70_IRQ input: `ready()` (low now?) and `handle()` (a descriptor to wait on)."""

    def __init__(self, make_device: Callable[[], Any]) -> None:
        self._make_device = make_device
        self._device: Any = None
        self._r = self._w = -1

    def _open(self) -> None:
        if self._device is not None:
            return
        r, w = os.pipe()
        os.set_blocking(r, False)
        os.set_blocking(w, False)
        try:
            device = self._make_device()
        except Exception:
            os.close(r)
            os.close(w)
            raise
        device.when_activated = self._kick
        self._device, self._r, self._w = device, r, w

    def _kick(self, *_args: object) -> None:
        try:
            os.write(self._w, b"\x00")
        except (BlockingIOError, OSError):
            pass  # the pipe already holds a wake-up (or is being closed)

    def ready(self) -> bool:
        """Whether the chip has an answer waiting (the line is low). Empties the pipe: the loop
        waits again only for the next edge."""
        self._open()
        try:
            while os.read(self._r, 64):
                pass
        except BlockingIOError:
            pass
        return bool(self._device.is_active)

    def handle(self) -> FdWait:
        self._open()
        return FdWait(self._r)

    def close(self) -> None:
        device, self._device = self._device, None
        if device is None:
            return
        try:
            device.close()
        finally:
            for fd in (self._r, self._w):
                os.close(fd)
            self._r = self._w = -1


def gpiozero_pin(name: str) -> str:
    """A config pin name as gpiozero knows it: Blinka's `D25` (what `cs:` and `reset_pin:` use)
    is BCM 25, `GPIO25`; anything else (`GPIO25`, `BOARD22`) is passed on."""
    match = re.fullmatch(r"D(\d+)", name)
    return f"GPIO{match.group(1)}" if match else name


def gpio_irq(pin: str, pin_factory: Any = None) -> IrqLine:
    """The IRQ line on a Pi pin through gpiozero (active low, driven by the chip: no pull)."""

    def make() -> Any:
        from gpiozero import DigitalInputDevice

        return DigitalInputDevice(gpiozero_pin(pin), pull_up=None, active_state=False,
                                  pin_factory=pin_factory)

    return IrqLine(make)
