"""`tabletap doctor` on the box: the system side of the configured wiring, before any chip is
asked anything. For each reader's transport and for the GPIO backend it checks exactly the device
nodes, kernel modules, Python modules and permissions that wiring needs, and says the fix in a
sentence, so "the reader does not answer" is never the first thing a maker sees when the cause
is a disabled bus or a console on the UART.

What each wiring needs (the image provides all of it; on Raspberry Pi OS, raspi-config does):
  uart:  the port's node (`/dev/serial0` is the header's UART, GPIO14/15), readable and writable
         by the daemon, and no kernel console or login prompt on it;
  spi:   `/dev/spidev0.0` (Blinka opens bus 0; the PN532's own chip select is a GPIO), the
         `gpiod` module Blinka imports, and a GPIO chip for the chip select;
  i2c:   `/dev/i2c-1` (the header's bus; needs the i2c-dev module) and `gpiod`;
  gpio:  a GPIO chip and a working pin library (lgpio).

The daemon runs as the `tabletap` user with the unit's supplementary groups, so permissions are
judged for that user (doctor itself often runs as root, for whom everything is allowed).
"""

from __future__ import annotations

import grp
import importlib.util
import pwd
import stat
from dataclasses import dataclass, field
from pathlib import Path

from tabletap.controller.health.checks import Finding
from tabletap.controller.settings.config import Config

DAEMON_USER = "tabletap"
# tabletap.service's SupplementaryGroups=
DAEMON_GROUPS = ("gpio", "i2c", "spi", "dialout", "audio")
SPI_NODE = "dev/spidev0.0"
I2C_NODE = "dev/i2c-1"
DEVICE = "wiring"


@dataclass
class System:
    """Where to look: `/` on the box; a folder laid out the same way in the tests."""

    root: Path = Path("/")
    user: str = DAEMON_USER
    groups: tuple[str, ...] = DAEMON_GROUPS
    # the modules importable by the daemon's Python (None: ask importlib)
    importable: dict[str, bool] = field(default_factory=dict)

    def path(self, rel: str) -> Path:
        return self.root / rel.lstrip("/")

    def can_import(self, module: str) -> bool:
        if module not in self.importable:
            self.importable[module] = importlib.util.find_spec(module) is not None
        return self.importable[module]

    def module_loaded(self, name: str) -> bool:
        """Loaded as a module or built in (both show in /sys/module once they have state)."""
        return self.path(f"sys/module/{name.replace('-', '_')}").exists()

    def user_ids(self) -> tuple[int, set[int]] | None:
        """(uid, gids) of the daemon's user, with the unit's groups; None: no such user here."""
        try:
            entry = pwd.getpwnam(self.user)
        except KeyError:
            return None
        gids = {entry.pw_gid}
        for name in self.groups:
            try:
                gids.add(grp.getgrnam(name).gr_gid)
            except KeyError:
                pass
        gids |= {g.gr_gid for g in grp.getgrall() if self.user in g.gr_mem}
        return entry.pw_uid, gids


def _group_name(gid: int) -> str:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def node_problem(system: System, node: str, group: str, what: str, fix: str) -> str | None:
    """Why the daemon cannot open `node` read-write, with the fix; None when it can."""
    path = system.path(node)
    shown = "/" + node.lstrip("/")
    if not path.exists():
        return f"{shown} does not exist: {fix}"
    target = path.resolve()
    info = target.stat()
    if system.root == Path("/") and not stat.S_ISCHR(info.st_mode):
        return f"{shown} is not a device node ({target})"
    ids = system.user_ids()
    if ids is None:
        return None  # not the box (no daemon user): the device is there, access is the user's
    uid, gids = ids
    mode = info.st_mode
    if (info.st_uid == uid and mode & 0o600 == 0o600) or (
            info.st_gid in gids and mode & 0o060 == 0o060) or mode & 0o006 == 0o006:
        return None
    return (f"{shown} ({what}) is {stat.filemode(mode)} {_group_name(info.st_gid)}: the "
            f"{system.user} user cannot open it; the udev rules give it to group {group} "
            f"(reinstall tabletap's 99-tabletap.rules, then `udevadm trigger` or reboot)")


def console_on(system: System, tty: str) -> str | None:
    """The kernel console or a login prompt on this tty, as a problem; None when free."""
    try:
        consoles = system.path("proc/consoles").read_text().split("\n")
    except OSError:
        consoles = []
    names = {line.split()[0] for line in consoles if line.split()}
    if tty in names:
        return (f"the kernel's console is on {tty}, the reader's UART: remove `console=serial0,"
                f"115200` (or `console={tty},...`) from cmdline.txt on the boot partition and "
                f"reboot (Raspberry Pi OS: raspi-config, Interface Options, Serial Port, login "
                f"shell No, hardware Yes)")
    getty = system.path(f"etc/systemd/system/getty.target.wants/serial-getty@{tty}.service")
    if getty.exists():
        return (f"a login prompt is enabled on {tty}, the reader's UART: "
                f"`systemctl disable --now serial-getty@{tty}`")
    return None


def uart_findings(system: System, name: str, port: str) -> list[str]:
    problems = []
    fix = ("on the tabletap image /dev/serial0 is made by its udev rule from the device tree; on "
           "Raspberry Pi OS enable the serial port (raspi-config, Interface Options, Serial Port: "
           "login shell No, hardware Yes) and reboot; a USB adapter: check the cable and name "
           "it by /dev/serial/by-id/")
    problem = node_problem(system, port, "dialout", f"reader {name}'s UART", fix)
    if problem:
        return [problem]
    tty = system.path(port).resolve().name
    problem = console_on(system, tty)
    if problem:
        problems.append(problem)
    return problems


def blinka_problems(system: System) -> list[str]:
    if system.can_import("gpiod"):
        return []
    return ["the `gpiod` Python module is missing, and Blinka (the PN532 on SPI or I2C) imports "
            "it: `apt install python3-libgpiod` (tabletap's venv sees system packages), or "
            "`pip install gpiod` in tabletap's venv"]


def gpiochip_problems(system: System, what: str) -> list[str]:
    chips = sorted(system.path("dev").glob("gpiochip*"))
    if not chips:
        return [f"no /dev/gpiochip* for {what}: this is not a Raspberry Pi, or its GPIO driver "
                f"did not load (check `dmesg | grep -i gpio`)"]
    problem = node_problem(system, f"dev/{chips[0].name}", "gpio", what,
                           "reinstall tabletap's 99-tabletap.rules")
    return [problem] if problem else []


def spi_findings(system: System, name: str) -> list[str]:
    problems = []
    fix = ("the SPI bus is not enabled or spidev is not bound: on the tabletap image check that "
           "the boot partition's device trees are the image's own; on Raspberry Pi OS enable SPI "
           "(raspi-config, Interface Options, SPI) and reboot")
    if not system.path(SPI_NODE).exists() and not system.module_loaded("spidev"):
        fix = "the spidev module is not loaded (`modprobe spidev`); " + fix
    problem = node_problem(system, SPI_NODE, "spi", f"reader {name}'s SPI bus", fix)
    if problem:
        problems.append(problem)
    return problems + blinka_problems(system) + gpiochip_problems(system, f"reader {name}'s CS")


def i2c_findings(system: System, name: str) -> list[str]:
    problems = []
    fix = ("enable the bus and load i2c-dev: on Raspberry Pi OS raspi-config, Interface "
           "Options, I2C; elsewhere `echo i2c-dev > /etc/modules-load.d/i2c-dev.conf` and reboot")
    if not system.path(I2C_NODE).exists() and not system.module_loaded("i2c-dev"):
        fix = "i2c-dev is not loaded (`modprobe i2c-dev`); " + fix
    problem = node_problem(system, I2C_NODE, "i2c", f"reader {name}'s I2C bus", fix)
    if problem:
        problems.append(problem)
    return problems + blinka_problems(system)


def gpio_findings(system: System, config: Config) -> list[str]:
    problems = gpiochip_problems(system, "the chest, lights and buttons")
    factory = config.pin_factory or "lgpio"
    if factory == "lgpio" and not system.can_import("lgpio"):
        problems.append("lgpio is missing: `apt install python3-lgpio` (tabletap's venv sees "
                        "system packages), or `pip install lgpio` in tabletap's venv")
    return problems


def describe(config: Config) -> str:
    parts = [f"backend {config.backend}"]
    for name, reader in config.readers.items():
        if reader.transport == "uart":
            parts.append(f"reader {name} on UART {reader.port}")
        elif reader.transport == "spi":
            parts.append(f"reader {name} on SPI (CS {reader.cs})")
        elif reader.transport == "i2c":
            parts.append(f"reader {name} on I2C (0x{reader.address:02x})")
        else:
            parts.append(f"reader {name} simulated")
    return ", ".join(parts)


def wiring_findings(config: Config, system: System | None = None) -> list[Finding]:
    """One finding per configured wiring part that needs the system (none for simulated
    parts), preceded by one naming the whole wiring."""
    system = system or System()
    findings = [Finding("ok", DEVICE, describe(config))]
    for name, reader in config.readers.items():
        if reader.transport == "uart":
            if not reader.port:
                continue  # the reader's own check says `port:` is missing
            problems = uart_findings(system, name, reader.port)
            where = f"UART {reader.port}"
        elif reader.transport == "spi":
            problems, where = spi_findings(system, name), f"SPI {'/' + SPI_NODE}"
        elif reader.transport == "i2c":
            problems, where = i2c_findings(system, name), f"I2C {'/' + I2C_NODE}"
        else:
            continue
        if reader.reset_pin or reader.irq_pin:
            problems += gpiochip_problems(system, f"reader {name}'s reset/IRQ pin")
        device = f"{name} wiring"
        findings += ([Finding("failed", device, p) for p in problems] if problems
                     else [Finding("ok", device, f"{where}: present, and the daemon's user can "
                                   "open it")])
    if config.backend == "gpio":
        problems = gpio_findings(system, config)
        findings += ([Finding("failed", "gpio wiring", p) for p in problems] if problems
                     else [Finding("ok", "gpio wiring", "a GPIO chip the daemon's user can open, "
                                   "and lgpio")])
    return findings
