"""Where the Pico is: a configured path, a /dev/serial/by-id name, or its USB VID:PID."""

from __future__ import annotations

import glob
import os

from serial.tools import list_ports

PICO_VID = 0x2E8A  # Raspberry Pi
PICO_PID = 0x0005  # MicroPython on an RP2040


class BoardNotFound(OSError):
    """No Pico is connected (or none that looks like one)."""


def find_port(configured: str | None = None, by_id_dir: str = "/dev/serial/by-id") -> str:
    """The device path to open. A configured path is used as given, even if absent right now,
    so that reconnecting after an unplug waits for that same board."""
    if configured:
        return configured
    by_id = sorted(glob.glob(os.path.join(by_id_dir, "usb-MicroPython*")))
    if by_id:
        return by_id[0]
    for info in sorted(list_ports.comports(), key=lambda p: p.device):
        if info.vid == PICO_VID and info.pid == PICO_PID:
            return info.device
    raise BoardNotFound(
        "no Pico found: nothing in /dev/serial/by-id named usb-MicroPython*, and no USB device "
        f"{PICO_VID:04X}:{PICO_PID:04X}; plug it in, or set serial.port in the config")
