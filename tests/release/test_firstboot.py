"""The first-boot script on folders standing in for the boot partition and the root: it moves
the maker's files into place, reports what it did, refuses bad files without failing the boot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.release.tools import IMAGE, tool

FIRSTBOOT = IMAGE / "rootfs" / "usr" / "lib" / "tabletap" / "firstboot"


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    boot, root = tmp_path / "boot", tmp_path / "root"
    boot.mkdir()
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "hosts").write_text("127.0.0.1\tlocalhost\n127.0.1.1\ttabletap\n")
    return boot, root


def _firstboot(boot: Path, root: Path) -> subprocess.CompletedProcess[str]:
    # The script reads tabletap.yaml with tabletap's own loader: this interpreter has it.
    env = {**os.environ, "TABLETAP_PYTHON": sys.executable}
    return subprocess.run(["bash", str(FIRSTBOOT), "--boot", str(boot), "--root", str(root)],
                          capture_output=True, text=True, timeout=60, env=env)


def test_nothing_on_the_partition_does_nothing(folders: tuple[Path, Path]):
    boot, root = folders
    out = _firstboot(boot, root)
    assert out.returncode == 0 and out.stdout == ""
    assert list(boot.iterdir()) == []


def test_config_wifi_and_hostname_are_moved_into_place(folders: tuple[Path, Path]):
    boot, root = folders
    config = "game: magic-keys\nplayers: [ana, ben]\nbackend: sim\naudio: {output: jack}\n"
    (boot / "tabletap.yaml").write_text(config)
    (boot / "wpa_supplicant.conf").write_text('network={\n ssid="home"\n psk="secret123"\n}\n')
    (boot / "hostname").write_text("Kitchen-Table\r\n")
    (root / "etc" / "tabletap").mkdir()
    (root / "etc" / "tabletap" / "table.yaml").write_text("game: oversiege\n")
    out = _firstboot(boot, root)
    assert out.returncode == 0, out.stderr
    assert (root / "etc/tabletap/table.yaml").read_text() == config
    assert (root / "etc/tabletap/table.yaml.previous").read_text() == "game: oversiege\n"
    wifi = root / "etc/wpa_supplicant/wpa_supplicant-wlan0.conf"
    assert 'ssid="home"' in wifi.read_text() and (wifi.stat().st_mode & 0o777) == 0o600
    wants = root / "etc/systemd/system/multi-user.target.wants/wpa_supplicant@wlan0.service"
    assert os.readlink(wants) == "/usr/lib/systemd/system/wpa_supplicant@.service"
    # audio.output: jack -> ALSA's default card is the Pi's headphone jack.
    assert "defaults.pcm.card Headphones" in (root / "etc/asound.conf").read_text()
    assert (root / "etc/hostname").read_text() == "kitchen-table\n"
    assert "127.0.1.1\tkitchen-table" in (root / "etc/hosts").read_text()
    assert "tabletap" not in (root / "etc/hosts").read_text().split("127.0.1.1")[1]
    # Moved: the partition keeps only the report, which says what happened.
    assert sorted(p.name for p in boot.iterdir()) == ["tabletap-firstboot.txt"]
    report = (boot / "tabletap-firstboot.txt").read_text()
    assert "kitchen-table.local" in report and "done: everything was applied" in report
    # Each line went to the journal with its priority (info).
    assert all(line.startswith("<6>") for line in out.stdout.splitlines())


def test_authorized_keys_turn_ssh_on_with_fresh_host_keys(folders: tuple[Path, Path],
                                                          tmp_path: Path):
    keygen = tool("ssh-keygen")
    boot, root = folders
    subprocess.run([keygen, "-q", "-t", "ed25519", "-N", "", "-C", "maker@laptop",
                    "-f", str(tmp_path / "maker")], check=True)
    (boot / "authorized_keys").write_text((tmp_path / "maker.pub").read_text())
    out = _firstboot(boot, root)
    assert out.returncode == 0, out.stderr
    keys = root / "root/.ssh/authorized_keys"
    assert keys.read_text() == (tmp_path / "maker.pub").read_text()
    assert (keys.stat().st_mode & 0o777) == 0o600
    assert (root / "etc/ssh/ssh_host_ed25519_key").exists()
    assert (root / "etc/systemd/system/multi-user.target.wants/ssh.service").is_symlink()
    assert "maker@laptop" in (boot / "tabletap-firstboot.txt").read_text()
    assert not (boot / "authorized_keys").exists()


def test_bad_files_are_refused_and_reported_and_the_boot_goes_on(folders: tuple[Path, Path]):
    boot, root = folders
    (boot / "hostname").write_text("my table!\n")
    (boot / "authorized_keys").write_text("password123\n")
    (boot / "wpa_supplicant.conf").write_text("ssid=home\n")
    (boot / "tabletap.yaml").write_bytes(b"game: magic-keys\nplayers: [\xe9lodie]\n")
    out = _firstboot(boot, root)
    assert out.returncode == 0
    errors = [line for line in out.stdout.splitlines() if line.startswith("<3>")]
    assert len(errors) == 4, out.stdout
    report = (boot / "tabletap-firstboot.txt").read_text()
    assert "'my table!' is not a host name" in report
    assert "authorized_keys holds no SSH public key" in report
    assert "no network={...} block" in report
    assert "tabletap.yaml is not UTF-8 text" in report
    assert "done" not in report
    # Refused files stay on the partition for the maker to fix; nothing was half-applied.
    assert {"hostname", "authorized_keys", "wpa_supplicant.conf", "tabletap.yaml"} <= {
        p.name for p in boot.iterdir()}
    assert not (root / "etc/hostname").exists()
    assert not (root / "root/.ssh").exists()
    assert not (root / "etc/tabletap").exists()
