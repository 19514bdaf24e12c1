"""The `gpio` output backend: the chest latch, lights and buttons on the Pi's own pins.

Everything goes through gpiozero, so the same code runs on lgpio at the table (a Pi 5 needs it)
and on gpiozero's MockFactory with MockPWMPin under the simulator and in tests.
"""

import os
import tempfile

from tabletap.hw.gpio.errors import GpioError

__all__ = ["GpioError", "lgpio_workdir"]


def lgpio_workdir() -> None:
    """lgpio makes its notification pipes (`.lgd-nfy*`) in $LG_WD, else in the working
    directory, and `import lgpio` fails where that is read-only: `tabletap doctor` run from
    root's home on the image's read-only root, for one. Unless the caller chose a folder, a
    read-only working directory is swapped for the temporary folder (the daemon's own,
    /var/lib/tabletap, is writable and stays). Must run before lgpio is first imported."""
    if "LG_WD" in os.environ:
        return
    try:
        writable = os.access(os.getcwd(), os.W_OK)
    except OSError:  # the working directory was removed
        writable = False
    if not writable:
        os.environ["LG_WD"] = tempfile.gettempdir()


lgpio_workdir()
