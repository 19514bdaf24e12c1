"""Finding the Pico: a configured path, /dev/serial/by-id, or USB VID:PID 2E8A:0005."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from tabletap.hw.serial_link import discovery
from tabletap.hw.serial_link.discovery import BoardNotFound, find_port


def ports(*items: tuple[str, int | None, int | None]) -> list[SimpleNamespace]:
    return [SimpleNamespace(device=d, vid=v, pid=p) for d, v, p in items]


def test_a_configured_path_wins_even_when_absent(tmp_path: Path) -> None:
    assert find_port("/dev/ttyACM9", by_id_dir=str(tmp_path)) == "/dev/ttyACM9"


def test_by_id_names_come_before_scanning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "usb-MicroPython_Board_in_FS_mode_e66-if00").touch()
    (tmp_path / "usb-FTDI_other-if00").touch()
    monkeypatch.setattr(discovery.list_ports, "comports", lambda: [])
    found = find_port(None, by_id_dir=str(tmp_path))
    assert found.endswith("usb-MicroPython_Board_in_FS_mode_e66-if00")


def test_vid_pid_finds_the_pico(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discovery.list_ports, "comports", lambda: ports(
        ("/dev/ttyUSB0", 0x0403, 0x6001), ("/dev/ttyACM1", 0x2E8A, 0x0005),
        ("/dev/ttyS0", None, None)))
    assert find_port(None, by_id_dir=str(tmp_path)) == "/dev/ttyACM1"


def test_no_pico_is_a_message_that_says_what_to_do(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discovery.list_ports, "comports", lambda: ports(
        ("/dev/ttyUSB0", 0x0403, 0x6001),
        ("/dev/ttyACM0", 0x2E8A, 0x000A)))  # another RP2040 product id
    with pytest.raises(BoardNotFound, match="2E8A:0005.*serial.port"):
        find_port(None, by_id_dir=str(tmp_path))
