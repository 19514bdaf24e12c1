"""The header's buses in the boot partition's device trees: what a PN532 on each wiring needs.

Debian's kernel ships the mainline device trees, which have no `__overrides__`, so
`dtparam=spi=on` in config.txt does nothing, and their SPI controller is disabled in every tree.
The build enables it here, on GPIO7-11 (ALT0: CE1, CE0, MISO, MOSI, SCLK), with one device at
chip select 0 (`tabletap,spidev`, bound to spidev by the image's udev rule) that Blinka opens
as /dev/spidev0.0; the PN532's own chip select is a GPIO the driver switches. The I2C bus on
GPIO2/3 (i2c1) is already enabled in these trees; the UART on GPIO14/15 is the mini-UART, the
one /chosen/stdout-path names. `check` verifies all three in every claimed tree:

    header_dt.py enable BOOTFS      edits the claimed trees in place (fdtput)
    header_dt.py check BOOTFS       fails unless every claimed tree has the three buses

qemu's raspi3b has no SPI or I2C controller, so these are checked here, statically.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from root_drivers import CLAIMED, Node, Tree  # noqa: E402

SPI = "/soc/spi@7e204000"
SPI_PINS = "/soc/gpio@7e200000/spi0-gpio7"
SPIDEV = f"{SPI}/spidev@0"
SPIDEV_COMPATIBLE = "tabletap,spidev"
I2C = "/soc/i2c@7e804000"
SPIDEV_HZ = 1_000_000  # the PN532 takes up to 5 MHz; Blinka sets its own speed per transfer


def fdtput(dtb: Path, *args: str) -> None:
    subprocess.run(["fdtput", *args[:1], str(dtb), *args[1:]], check=True)


def pins(tree: Tree, node: Node) -> set[int]:
    """The GPIO numbers of a device's default pin group(s)."""
    out: set[int] = set()
    for phandle in node.cells("pinctrl-0"):
        group = tree.by_phandle.get(phandle)
        if group is not None:
            out |= set(group.cells("brcm,pins")) | {
                int(p.removeprefix("gpio")) for p in group.strings("pins")
                if p.removeprefix("gpio").isdigit()}
    return out


def enable(dtb: Path) -> None:
    tree = Tree(dtb.read_bytes())
    group = tree.by_path[SPI_PINS]
    if "phandle" in group.props:
        phandle = group.cells("phandle")[0]
    else:  # nothing referred to the pin group: it gets the next free phandle
        phandle = max(tree.by_phandle, default=0) + 1
        fdtput(dtb, "-tu", SPI_PINS, "phandle", str(phandle))
    fdtput(dtb, "-ts", SPI, "status", "okay")
    fdtput(dtb, "-ts", SPI, "pinctrl-names", "default")
    fdtput(dtb, "-tu", SPI, "pinctrl-0", str(phandle))
    fdtput(dtb, "-c", SPIDEV)
    fdtput(dtb, "-ts", SPIDEV, "compatible", SPIDEV_COMPATIBLE)
    fdtput(dtb, "-tu", SPIDEV, "reg", "0")
    fdtput(dtb, "-tu", SPIDEV, "spi-max-frequency", str(SPIDEV_HZ))


def problems(dtb: Path) -> list[str]:
    tree = Tree(dtb.read_bytes())
    out = []
    spi, dev, i2c = (tree.by_path.get(p) for p in (SPI, SPIDEV, I2C))
    if spi is None or not spi.enabled:
        out.append("the SPI controller is disabled")
    elif not {7, 8, 9, 10, 11} <= pins(tree, spi):
        out.append(f"SPI is not on GPIO7-11 (pins {sorted(pins(tree, spi))})")
    if dev is None or dev.strings("compatible") != [SPIDEV_COMPATIBLE] or dev.cells("reg") != [0]:
        out.append("no spidev device at chip select 0")
    if i2c is None or not i2c.enabled or not {2, 3} <= pins(tree, i2c):
        out.append("the I2C bus on GPIO2/3 (i2c1) is not enabled")
    stdout = (tree.by_path["/chosen"].strings("stdout-path") or [""])[0].split(":")[0]
    uart = tree.alias(stdout) if stdout and not stdout.startswith("/") else tree.by_path.get(
        stdout)
    if uart is None or not uart.enabled or not {14, 15} <= pins(tree, uart):
        out.append("/chosen/stdout-path is not an enabled UART on GPIO14/15 (what "
                   "/dev/serial0 is made from)")
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("enable", "check"):
        print(__doc__, file=sys.stderr)
        return 2
    bootfs = Path(argv[1])
    failed = False
    for model, name in CLAIMED.items():
        dtb = bootfs / name
        if argv[0] == "enable":
            enable(dtb)
        for problem in problems(dtb):
            print(f"header_dt: {model} ({name}): {problem}", file=sys.stderr)
            failed = True
    if not failed:
        print(f"   UART on GPIO14/15, I2C on GPIO2/3, SPI on GPIO7-11 with spidev0.0: "
              f"{len(CLAIMED)} device trees")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
