"""`tabletap doctor`'s wiring checks (health/wiring.py) against a folder laid out like the box's
/dev, /sys and /proc: each configured wiring is named, and each missing node, module, Python
module or console on the UART is a failed check whose sentence says the fix."""

from __future__ import annotations

import os
from pathlib import Path

from tabletap.controller.health.wiring import System, wiring_findings
from tabletap.controller.settings.config import Config


def config(**readers: dict) -> Config:
    return Config.model_validate({"game": "magic-keys", "players": ["ana", "ben"],
                                  "backend": "gpio", "readers": readers})


def box(tmp_path: Path, *nodes: str, consoles: str = "tty1 -WU (EC p ) 4:1\n") -> System:
    for node in nodes:
        path = tmp_path / node
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    (tmp_path / "proc").mkdir(exist_ok=True)
    (tmp_path / "proc" / "consoles").write_text(consoles)
    return System(root=tmp_path, user="tabletap-nobody-here",
                  importable={"gpiod": True, "lgpio": True})


def failed(findings) -> list[str]:
    return [f.detail for f in findings if f.status == "failed"]


def test_everything_present_passes_and_names_the_wiring(tmp_path):
    system = box(tmp_path, "dev/ttyS1", "dev/spidev0.0", "dev/i2c-1", "dev/gpiochip0")
    os.symlink("ttyS1", tmp_path / "dev" / "serial0")
    cfg = config(chest={"transport": "uart", "port": "/dev/serial0"},
                 pond={"transport": "spi", "cs": "D5"}, well={"transport": "i2c"})
    findings = wiring_findings(cfg, system)
    assert failed(findings) == []
    assert findings[0].detail == ("backend gpio, reader chest on UART /dev/serial0, reader pond "
                                  "on SPI (CS D5), reader well on I2C (0x24)")


def test_a_console_on_the_readers_uart_fails_with_the_fix(tmp_path):
    system = box(tmp_path, "dev/ttyS1", "dev/gpiochip0", consoles="ttyS1 -W- (EC p a) 4:65\n")
    os.symlink("ttyS1", tmp_path / "dev" / "serial0")
    (problem,) = failed(wiring_findings(config(chest={"transport": "uart",
                                                       "port": "/dev/serial0"}), system))
    assert "kernel's console is on ttyS1" in problem and "cmdline.txt" in problem


def test_missing_uart_spi_i2c_nodes_each_say_how_to_enable_them(tmp_path):
    system = box(tmp_path, "dev/gpiochip0")
    cfg = config(chest={"transport": "uart", "port": "/dev/serial0"},
                 pond={"transport": "spi", "cs": "D5"}, well={"transport": "i2c"})
    problems = failed(wiring_findings(cfg, system))
    assert len(problems) == 3
    assert "/dev/serial0 does not exist" in problems[0] and "raspi-config" in problems[0]
    assert "/dev/spidev0.0 does not exist" in problems[1] and "modprobe spidev" in problems[1]
    assert "/dev/i2c-1 does not exist" in problems[2] and "modprobe i2c-dev" in problems[2]


def test_blinka_without_gpiod_and_gpio_without_lgpio(tmp_path):
    system = box(tmp_path, "dev/spidev0.0", "dev/gpiochip0")
    system.importable = {"gpiod": False, "lgpio": False}
    problems = failed(wiring_findings(config(pond={"transport": "spi", "cs": "D5"}), system))
    assert any("`gpiod` Python module is missing" in p and "python3-libgpiod" in p
               for p in problems)
    assert any("lgpio is missing" in p for p in problems)


def test_a_node_the_daemons_user_cannot_open(tmp_path):
    import grp
    import pwd

    system = box(tmp_path, "dev/i2c-1", "dev/gpiochip0")
    me = pwd.getpwuid(os.getuid()).pw_name
    system.user, system.groups = me, ()
    node = tmp_path / "dev" / "i2c-1"
    os.chmod(node, 0o600)
    os.chown(node, 65534 if os.getuid() == 0 else os.getuid(), os.getgid())
    if os.getuid() != 0:
        return  # the file is the user's own: nothing to refuse
    assert grp.getgrgid(os.getgid())
    (problem,) = failed(wiring_findings(config(well={"transport": "i2c"}), system))
    assert "cannot open it" in problem and "group i2c" in problem


def test_the_simulator_has_no_wiring_to_check(tmp_path):
    findings = wiring_findings(config(chest={"transport": "sim"}), box(tmp_path, "dev/gpiochip0"))
    assert failed(findings) == []
