"""Ask a Pico running tabletap's firmware to reset into MicroPython's REPL, so mpremote can flash.

The firmware turns Ctrl-C off and runs a 2 s watchdog, so mpremote cannot interrupt it and a copy
would be cut short by a reset. The `repl` op makes the board write a flag file and reset; its next
boot sees the flag, deletes it and returns to the REPL without the watchdog. `tabletap firmware
flash` runs this as a program (`python -m hw.serial_link.repl PORT`), as it runs mpremote, so the
controller imports no serial library. A board that does not answer (fresh MicroPython, or no
tabletap firmware) is fine: mpremote reaches its REPL directly.

Exit status: 0 when the board is in its REPL or never spoke tabletap's protocol (go ahead and
flash), 1 when a tabletap board was found but could not be put in the REPL (use BOOTSEL).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import serial

from tabletap.hw.serial_link.discovery import BoardNotFound, find_port
from tabletap.hw.serial_link.link import BoardLink, LinkError, ProtocolMismatch

BOOTSEL = ("hold the Pico's BOOTSEL button while plugging it in, copy the MicroPython UF2 "
           "(micropython.org/download/RPI_PICO) to the RPI-RP2 drive that appears, then run "
           "tabletap firmware flash again")
GONE_S = 0.3  # the board takes this long at least to drop off USB after the acknowledgement


def wait_for_port(path: str, timeout: float) -> bool:
    """True once `path` opens again: the board is back on USB after its reset."""
    time.sleep(GONE_S)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.exists(path):
            try:
                serial.Serial(path, timeout=0, exclusive=True).close()
                return True
            except (serial.SerialException, OSError):
                pass
        time.sleep(0.05)
    return False


def request_repl(port: str | None, timeout: float = 3.0, back_within: float = 10.0) -> tuple[
        bool, str]:
    """(go ahead, what happened) after asking the board on `port` for its REPL."""
    try:
        path = find_port(port)
    except BoardNotFound as e:
        return True, f"{e}; leaving it to mpremote to find the board"
    link = BoardLink(path).start()  # no board config: the board is about to reset anyway
    try:
        try:
            link.wait_hello(timeout)
        except ProtocolMismatch as e:
            return True, (f"{e}; trying mpremote anyway (if it cannot get the REPL, {BOOTSEL})")
        except LinkError as e:
            return True, f"no tabletap firmware answered ({e}); assuming plain MicroPython"
        ticket = link.submit({"op": "repl"})
        if not ticket.wait(timeout) or not ticket.ok:
            why = ticket.err if ticket.done.is_set() else "no acknowledgement"
            return False, f"the board on {path} would not reset into its REPL ({why}); {BOOTSEL}"
    finally:
        link.close()
    if not wait_for_port(path, back_within):
        return False, f"the board did not come back on {path} after its reset; {BOOTSEL}"
    return True, f"the board on {path} reset into MicroPython's REPL"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hw.serial_link.repl",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("port", nargs="?", help="the Pico's serial port (default: find it)")
    parser.add_argument("--timeout", type=float, default=3.0)
    args = parser.parse_args(argv)
    ok, told = request_repl(args.port, args.timeout)
    print(told, file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
