"""The built image, checked statically where qemu cannot boot it as the board (`make image-test`
runs these with TABLETAP_IMAGE set; skipped otherwise): qemu 7.2 has no Pi 4 SoC, and its Pi 3
has no I2C or SPI controller.

 - every claimed board (Pi 3 A+/B/B+, Zero 2 W, Pi 4, 400, CM4) reaches its root: the drivers on
   the SD card's path in its device tree are built in or in the initrd (image/root_drivers.py);
 - each tree has the header's UART (the stdout-path, GPIO14/15), I2C (GPIO2/3) and SPI
   (GPIO7-11, spidev at CS0) enabled (image/header_dt.py), and the kernel has their drivers;
 - cmdline.txt puts no console on a UART; no getty anywhere; i2c-dev and ledtrig-timer load at
   boot; timesyncd, the regulatory database, libgpiod's Python module, the udev rules are in.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "image"))

import header_dt  # noqa: E402
import root_drivers  # noqa: E402

IMAGE = os.environ.get("TABLETAP_IMAGE")
pytestmark = pytest.mark.skipif(not IMAGE, reason="TABLETAP_IMAGE is not set (make image-test)")


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory) -> tuple[Path, Path]:
    """(boot partition, the root's files these checks read), copied out of the image."""
    image = Path(IMAGE or "")
    work = tmp_path_factory.mktemp("image")
    parts = json.loads(subprocess.run(["sfdisk", "--json", str(image)], capture_output=True,
                                      text=True, check=True).stdout)["partitiontable"]
    boot, root = parts["partitions"][0], parts["partitions"][1]
    bootfs = work / "bootfs"
    bootfs.mkdir()
    subprocess.run(["mcopy", "-s", "-n", "-i", f"{image}@@{boot['start'] * 512}", "::*",
                    str(bootfs)], check=True, env={**os.environ, "MTOOLS_SKIP_CHECK": "1"})
    rootimg = work / "root.img"
    subprocess.run(["dd", f"if={image}", f"of={rootimg}", "bs=512", f"skip={root['start']}",
                    f"count={root['size']}", "status=none"], check=True)
    rootfs = work / "root"
    for path in ["/usr/lib/modules", "/boot", "/etc/systemd/system", "/usr/lib/modules-load.d",
                 "/usr/lib/udev/rules.d", "/usr/lib/tabletap"]:
        dest = rootfs / path.lstrip("/")
        dest.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["debugfs", "-R", f"rdump {path} {dest.parent}", str(rootimg)],
                       capture_output=True, check=True)
    listing = subprocess.run(["debugfs", "-R", "ls -p /usr/lib/firmware", str(rootimg)],
                             capture_output=True, text=True, check=True).stdout
    (rootfs / "firmware-listing").write_text(listing)
    listing = subprocess.run(["debugfs", "-R", "ls -p /usr/lib/python3/dist-packages",
                              str(rootimg)], capture_output=True, text=True, check=True).stdout
    (rootfs / "dist-packages-listing").write_text(listing)
    return bootfs, rootfs


def test_every_claimed_board_reaches_its_root(unpacked):
    bootfs, rootfs = unpacked
    assert root_drivers.check(rootfs, bootfs) == []


def test_the_pi_4_sd_power_drivers_are_in_the_initrd(unpacked):
    """The defect this guards against: regulator-gpio and regulator-fixed are modules."""
    bootfs, _ = unpacked
    (initrd,) = bootfs.glob("initrd.img-*")
    names = {Path(f).name.split(".ko")[0] for f in root_drivers.initrd_files(initrd)}
    assert {"gpio-regulator", "fixed", "sdhci-iproc", "bcm2835"} <= names


def test_every_claimed_tree_has_the_header_buses(unpacked):
    bootfs, _ = unpacked
    for name in root_drivers.CLAIMED.values():
        assert header_dt.problems(bootfs / name) == [], name


def test_the_kernel_drives_the_header_buses(unpacked):
    _, rootfs = unpacked
    kernel = root_drivers.Kernel.of_root(rootfs)
    modules = {m for _, m in kernel.aliases}
    moddir = rootfs / "usr/lib/modules" / kernel.version
    # a module (modules.dep) or built in (modules.builtin: spidev is, in Debian's kernel)
    known = (moddir / "modules.dep").read_text() + (moddir / "modules.builtin").read_text()
    for module in ["spi_bcm2835", "spidev", "i2c_bcm2835", "i2c_dev", "ledtrig_timer"]:
        assert module in modules or f"/{module.replace('_', '-')}.ko" in known \
            or f"/{module}.ko" in known, module


def test_no_console_or_login_prompt_on_a_uart(unpacked):
    bootfs, rootfs = unpacked
    cmdline = (bootfs / "cmdline.txt").read_text()
    assert "console=tty1" in cmdline and "serial0" not in cmdline and "ttyS" not in cmdline
    masked = rootfs / "etc/systemd/system"
    for unit in ["getty.target", "getty@.service", "serial-getty@.service", "autovt@.service"]:
        assert os.readlink(masked / unit) == "/dev/null", unit
    assert "enable_uart=1" in (bootfs / "config.txt").read_text()


def test_what_the_wirings_and_the_box_need_is_installed(unpacked):
    _, rootfs = unpacked
    loads = (rootfs / "usr/lib/modules-load.d/tabletap.conf").read_text().split()
    assert {"i2c-dev", "ledtrig-timer"} <= set(loads)
    rules = {p.name for p in (rootfs / "usr/lib/udev/rules.d").iterdir()}
    assert {"60-tabletap-serial.rules", "61-tabletap-spidev.rules", "99-tabletap.rules"} <= rules
    assert "regulatory.db" in (rootfs / "firmware-listing").read_text()
    assert "/gpiod/" in (rootfs / "dist-packages-listing").read_text().replace("\x00", "/") or \
        "gpiod" in (rootfs / "dist-packages-listing").read_text()
    wants = rootfs / "etc/systemd/system"
    assert (wants / "sysinit.target.wants/systemd-timesyncd.service").exists() or \
        (wants / "multi-user.target.wants/systemd-timesyncd.service").exists()
    assert (wants / "sysinit.target.wants/tabletap-grow-state.service").is_symlink()


@pytest.fixture(scope="module")
def filesystems(tmp_path_factory) -> dict[str, Path]:
    """The root and state partitions, each copied out of the image into a file of its own."""
    image = Path(IMAGE or "")
    work = tmp_path_factory.mktemp("filesystems")
    parts = json.loads(subprocess.run(["sfdisk", "--json", str(image)], capture_output=True,
                                      text=True, check=True).stdout)["partitiontable"]
    images = {}
    for name, part in (("root", parts["partitions"][1]), ("state", parts["partitions"][2])):
        images[name] = work / f"{name}.img"
        subprocess.run(["dd", f"if={image}", f"of={images[name]}", "bs=512",
                        f"skip={part['start']}", f"count={part['size']}", "status=none"],
                       check=True)
    return images


def debugfs(fs: Path, request: str) -> str:
    return subprocess.run(["debugfs", "-R", request, str(fs)], capture_output=True, text=True,
                          check=True).stdout


def tabletap_ids(root: Path) -> tuple[str, str]:
    passwd = debugfs(root, "cat /etc/passwd")
    uid, gid = next(line.split(":")[2:4] for line in passwd.splitlines()
                    if line.startswith("tabletap:"))
    return uid, gid


def test_the_state_partition_is_the_daemons_from_the_start(filesystems):
    """systemd chowns everything inside a StateDirectory= whose top its service does not own;
    on the first boot that took timesyncd's clock file from it and the box never saved its time
    (seen in image/boot_test.py's clock check). The partition's top is tabletap's at mkfs."""
    top = debugfs(filesystems["state"], "stat /")
    found = re.search(r"User:\s+(\d+)\s+Group:\s+(\d+)", top)
    assert found is not None and found.groups() == tabletap_ids(filesystems["root"]), top


def test_the_first_start_finds_its_cache_made(filesystems, tmp_path, monkeypatch):
    """image/build.sh (keep_first_start) makes the daemon's start cache for the state partition,
    so a box's first start takes the entry points and the game data as every later one does.
    The cache is the daemon's alone (0700 and 0600, tabletap's), and its entry points were kept
    against the sys.path folders' times the box will read: mkfs.ext4 -d keeps whole seconds, so
    a time kept to the nanosecond at the build would miss at every box's first start. (The boot
    test sees the first start take them; this checks the image a Pi boots, which qemu cannot.)"""
    import msgspec

    from tabletap.controller import entrypoints, startcache

    state, root = filesystems["state"], filesystems["root"]
    uid, gid = tabletap_ids(root)
    listing = [line.split() for line in debugfs(state, "ls -l /cache").splitlines()]
    files = {fields[-1]: fields for fields in listing
             if len(fields) >= 9 and fields[-1] not in {".", ".."}}
    assert "entrypoints.kept" in files and any(name.endswith(".doc") for name in files), listing
    folder = next(fields for fields in listing if fields and fields[-1] == ".")
    assert folder[1] == "40700" and folder[3:5] == [uid, gid], folder
    for name, fields in files.items():
        assert fields[1] == "100600" and fields[3:5] == [uid, gid], (name, fields)

    # read as the daemon reads it (startcache.read: its CRC checked)
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    kept = tmp_path / startcache.FOLDER / entrypoints.KEPT
    kept.parent.mkdir()
    debugfs(state, f"dump /cache/{entrypoints.KEPT} {kept}")
    body = startcache.read(entrypoints.KEPT)
    assert body is not None, "entrypoints.kept is damaged or missing"
    where = msgspec.msgpack.decode(body, type=entrypoints._Kept).where
    assert any(path.endswith("/site-packages") for path, _ in where), where
    for path, mtime_ns in where:
        shown = debugfs(root, f"stat {path}")
        found = re.search(r"mtime: 0x([0-9a-f]+):([0-9a-f]+)", shown)
        on_box = 0 if found is None else \
            int(found.group(1), 16) * 10**9 + (int(found.group(2), 16) >> 2)
        assert mtime_ns == on_box, (path, mtime_ns, shown)
