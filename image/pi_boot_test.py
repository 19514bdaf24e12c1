"""`make image-test`, part 2: the image booted as a Raspberry Pi 3, playing through the Pi's UART.

qemu-system-aarch64 -M raspi3b (a BCM2837 with its SD host, both UARTs, 1 GiB) boots the kernel,
initramfs, device tree and cmdline.txt it finds on the image's own boot partition, by the names
config.txt gives (what the Pi's firmware does; qemu stands in for the firmware's loading only).
The SD card is the image, grown to a card size. The PN532 is tabletap's emulated chip behind a
pseudo-terminal that qemu connects to the Pi's mini-UART, the UART on the header's GPIO14/15:
the daemon opens `/dev/serial0` (made by the image's udev rule from the device tree) with the
real adafruit driver and the kernel's real 8250 mini-UART driver, and a whole game
(image/pi-game.yaml) is played by laying pieces on that reader (image/pi_game.py).

The additions to cmdline.txt are for watching, `console=ttyAMA0,115200` (the PL011, which on a
real Pi 3 carries Bluetooth) with the journal forwarded to it, saved as pi3-console.log, for
emulation's slowness, a longer wait for the partitions to appear, and for the maker's check
after the game, systemd's debug shell on that console (image/pi_console.py; the image itself has
no shell on any console). After the game the daemon is stopped and `tabletap doctor` runs there
as the daemon's user, on the maker's kind of config (the reader on `/dev/serial0`, `backend:
gpio`): it must check the UART wiring (the node, the kernel's console off it, the permissions)
and get the PN532's firmware version through the kernel's mini-UART driver. Then qemu is
stopped (a power cut) and the state partition is read on this machine: its journal must hold the
seven keys and the winner, and the partition must have grown to the end of the card on the
first boot.

The test's copy of the device tree (never the image's) gets two edits for what qemu does not
do as a Pi does: the board's revision in /system (the firmware writes it into every tree it
loads; gpiozero's lgpio factory needs it) and no Bluetooth node on the PL011 (on a Pi 3 that
UART is the Bluetooth chip's, so the kernel makes no ttyAMA0 for the debug shell).

Not emulated here, so checked statically instead (tests/image/test_built_image.py): the Pi 4,
400 and CM4 (qemu 7.2 has no BCM2711), and the I2C and SPI controllers (qemu's raspi3b has none).

    python image/pi_boot_test.py build/image/tabletap-<version>-arm64.img
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from boot_test import Failure, check, log, mtools, partitions  # noqa: E402  (the virt test's)
from pi_console import SHELL, PiConsole  # noqa: E402
from pi_game import ACTIONS, CONFIG_TEMPLATE, PIECES, PLAYERS, WINNER, Tapper  # noqa: E402

DTB = "bcm2837-rpi-3-b.dtb"  # the tree the Pi 3 B's firmware loads (config.txt may rename)
READY_BOUND = 1200.0  # seconds from power-on to the first poll of the reader, emulated
TAP_BOUND = 180.0  # seconds for the daemon to see one key under emulation
PLACED_BOUND = 60.0  # seconds for its "placed" line to reach the watching console
TAP_TRIES = 3  # a piece the daemon missed is laid again, and the misses are counted
WATCHING = "console=ttyAMA0,115200 systemd.journald.forward_to_console=1"
# Emulated, the Pi 3 takes minutes to coldplug its devices on a busy build machine, longer than
# systemd's 90 s wait for a partition; a real Pi takes seconds. (The boot partition's own 5 min in
# fstab is the image's, and is left alone.)
EMULATION = "systemd.default_device_timeout_sec=1800"
BLUETOOTH = "/soc/serial@7e201000/bluetooth"  # the PL011's Bluetooth chip, in the Pi 3 B's tree
PI3B_REVISION = "a02082"  # a Raspberry Pi 3 Model B, 1 GB, made by Sony UK
SHELL_BOUND = 600.0  # seconds for the debug shell to answer once the game is over
DOCTOR_BOUND = 900.0  # seconds for `tabletap doctor` under emulation
TABLETAP = "/opt/tabletap/venv/bin/tabletap"
# The maker's kind of table for the doctor: the reader on the header's UART as in the game, the
# chest and lights on the Pi's own GPIO (qemu's raspi3b emulates the GPIO block), no voice (the
# emulated Pi has no sound card, which the speaker check would rightly report).
DOCTOR_CONFIG = CONFIG_TEMPLATE.replace(
    "backend: sim", "backend: gpio\npin_factory: lgpio\nvoice: {enabled: false}"
).replace("  pond: {transport: sim}\n", "")


def placed(console: Path, piece: str) -> int:
    """How often the daemon has logged `piece` placed on the chest reader (its journal is
    forwarded to the watching console)."""
    text = console.read_text(errors="replace") if console.exists() else ""
    return text.count(f"reader chest: {piece} placed")


def wait_placed(console: Path, piece: str, before: int, bound: float) -> bool:
    """Whether the daemon logs `piece` placed once more than `before` within `bound` seconds:
    the chip's own log says only that the reader was asked, not that the daemon saw the tag."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        if placed(console, piece) > before:
            return True
        time.sleep(0.5)
    return False


def boot_files(config_txt: str) -> tuple[str, str, str]:
    """(kernel, initramfs, device tree) as the firmware of a Pi 3 would pick them: the
    settings of [all] and [pi3] sections (and of none), later ones winning."""
    kernel, initrd, dtb = "kernel8.img", "", DTB
    section = "all"
    for raw in config_txt.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].lower()
            continue
        if section not in ("all", "pi3", "none") or not line:
            continue
        if line.startswith("initramfs "):  # `initramfs FILE [followkernel]`: no "="
            key, value = "initramfs", line.split(None, 1)[1]
        else:
            key, _, value = line.partition("=")
            key, value = key.strip(), value.strip()
        if key == "kernel":
            kernel = value
        elif key == "initramfs":
            initrd = value.split()[0]
        elif key == "device_tree":
            dtb = value
    return kernel, initrd, dtb


def card_size(size: int) -> int:
    """qemu's SD card must be a power of two: the next one, at least twice the image (so the
    state partition has room to grow)."""
    card = 1
    while card < 2 * size:
        card *= 2
    return card


def read_state(disk: Path, part: dict, work: Path) -> Path:
    """The state partition's files, after ext4's journal is replayed (data=journal: the last
    writes may still be in it), copied out with debugfs."""
    state = work / "state.img"
    subprocess.run(["dd", f"if={disk}", f"of={state}", "bs=512", f"skip={part['start']}",
                    f"count={part['size']}", "conv=sparse", "status=none"], check=True)
    fsck = subprocess.run(["e2fsck", "-fy", str(state)], capture_output=True, text=True)
    check(fsck.returncode in (0, 1), "the state partition's ext4 is consistent after the power cut",
          fsck.stdout + fsck.stderr)
    out = work / "state"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    subprocess.run(["debugfs", "-R", f"rdump / {out}", str(state)], capture_output=True,
                   check=True)
    return out


def doctor(pi: PiConsole) -> None:
    """`tabletap doctor` on the Pi, as its maker runs it over SSH once the table is stopped: on
    the header's UART it must find the wiring right and the PN532 answering."""
    shell = pi.wait_for_shell(SHELL_BOUND)
    log(f"the debug shell answered {shell:.0f} s after power-on")
    pi.must("systemctl stop tabletap.service", 300)
    encoded = base64.b64encode(DOCTOR_CONFIG.encode()).decode()
    pi.must(f"umask 022; echo {encoded} | base64 -d > /run/doctor.yaml")
    status, report = pi.sh(f"cd / && runuser -u tabletap -- {TABLETAP} doctor "
                           "--config /run/doctor.yaml", DOCTOR_BOUND)
    print(report)
    (pi.console.parent / "pi3-doctor.txt").write_text(report + "\n", encoding="utf-8")
    # the reader's own line (status, then the device column), not the wiring line naming it
    reader = next((line for line in report.splitlines()
                   if re.match(r"\s*\S+\s+reader chest\s", line)), "")
    check(status == 0, "`tabletap doctor` passes on the Pi as the daemon's user", report)
    check(reader.split()[:1] == ["ok"] and "firmware" in reader,
          f"the doctor's reader line: {reader.strip()}", report)
    check("/dev/serial0" in report, "the doctor checked the UART wiring the config names",
          report)


def main(argv: list[str]) -> int:
    image = Path(argv[0]).resolve()
    work = image.parent / "pi-boot-test"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    disk = work / "sd.img"
    shutil.copyfile(image, disk)
    size = disk.stat().st_size
    os.truncate(disk, card_size(size))
    boot = partitions(disk)[0]
    offset = boot["start"] * 512

    config_txt = mtools(disk, offset, "mtype", "::config.txt")
    cmdline = mtools(disk, offset, "mtype", "::cmdline.txt").strip()
    kernel, initrd, dtb = boot_files(config_txt)
    log(f"boot partition: kernel={kernel} initramfs={initrd} device_tree={dtb}")
    log(f"cmdline.txt: {cmdline}")
    check(bool(initrd), "config.txt names an initramfs", config_txt)
    check(not re.search(r"console=(serial0|ttyS1|ttyAMA0)", cmdline),
          "cmdline.txt puts no console on a UART (the header's is the reader's)", cmdline)
    files = {}
    for name in (kernel, initrd, dtb):
        dest = work / name
        subprocess.run(["mcopy", "-o", "-i", f"{disk}@@{offset}", f"::{name}", str(dest)],
                       env={**os.environ, "MTOOLS_SKIP_CHECK": "1"}, check=True)
        files[name] = dest
    # On a Pi 3 the PL011 (ttyAMA0) is wired to the Bluetooth chip, and its tree says so: the
    # kernel hands the UART to Bluetooth's serdev and makes no /dev/ttyAMA0 for a shell. The
    # test's copy of the tree (never the image's) loses that node, so the watching console on
    # it is also a tty for the debug shell; nothing of the game or the header's UART uses it.
    subprocess.run(["fdtput", "-r", str(files[dtb]), BLUETOOTH], check=True)
    # The Pi's firmware writes the board's revision code into every tree it hands the kernel
    # (/system/linux,revision), which is how gpiozero and lgpio know the board they run on;
    # qemu loads the tree as it is on the card, so the test does that part of the firmware's job.
    subprocess.run(["fdtput", "-c", str(files[dtb]), "/system"], check=True)
    subprocess.run(["fdtput", "-t", "x", str(files[dtb]), "/system", "linux,revision",
                    PI3B_REVISION], check=True)
    # The maker's step: tabletap.yaml on the boot partition, for the reader on the header UART.
    table = work / "tabletap.yaml"
    table.write_text(CONFIG_TEMPLATE, encoding="utf-8")
    subprocess.run(["mcopy", "-o", "-i", f"{disk}@@{offset}", str(table), "::tabletap.yaml"],
                   env={**os.environ, "MTOOLS_SKIP_CHECK": "1"}, check=True)

    tapper = Tapper()
    console = work / "pi3-console.log"
    log(f"the emulated PN532 serves {tapper.port}, qemu's second serial port (the mini-UART)")
    sock = Path(tempfile.mkdtemp(prefix="tt-pi-")) / "console.sock"
    qemu = subprocess.Popen([
        "qemu-system-aarch64", "-M", "raspi3b", "-m", "1G", "-display", "none", "-no-reboot",
        "-kernel", str(files[kernel]), "-initrd", str(files[initrd]), "-dtb", str(files[dtb]),
        "-append", f"{cmdline} {WATCHING} {EMULATION} {SHELL}",
        "-drive", f"file={disk},if=sd,format=raw",
        "-chardev", f"socket,id=console,path={sock},server=on,wait=off",
        "-serial", "chardev:console",
        "-serial", tapper.port,
    ], stdin=subprocess.DEVNULL)
    started = time.monotonic()
    pi = PiConsole(qemu, sock, console)
    try:
        pi.start()
        try:
            polled = tapper.wait_polled(READY_BOUND)
        except TimeoutError as exc:
            raise Failure(f"FAILED: {exc}; see {console}") from None
        check(True, f"the daemon polls the PN532 on the header's UART {polled:.0f} s after "
                    f"power-on (the chip saw: {', '.join(tapper.chip.log[:5])})")
        missed = 0
        for n, piece in enumerate(PIECES, 1):
            for attempt in range(1, TAP_TRIES + 1):
                before = placed(console, piece)
                seen = tapper.tap(piece, TAP_BOUND)
                if wait_placed(console, piece, before, PLACED_BOUND):
                    break
                missed += 1  # as a person would, the piece is laid on the reader again
                log(f"   piece {n}/{len(PIECES)} {piece}: the daemon did not log it placed; "
                    f"laid again (try {attempt + 1} of {TAP_TRIES})")
            else:
                raise Failure(f"FAILED: the daemon never logged {piece} placed in {TAP_TRIES} "
                              f"tries; see {console}")
            log(f"   piece {n}/{len(PIECES)} {piece}: seen by the daemon after {seen:.1f} s")
        check(True, f"every piece was placed ({missed} laid again after a missed tap)")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and f"{WINNER} wins" not in console.read_text(
                errors="replace"):
            time.sleep(2)
        time.sleep(5)  # the journal is flushed before the table answers; a margin anyway
        doctor(pi)
    finally:
        qemu.kill()
        qemu.wait()
        pi.close()
        tapper.close()
    log(f"qemu stopped (a power cut) {time.monotonic() - started:.0f} s after power-on")
    text = console.read_text(errors="replace")
    log(f"the Pi's serial console (ttyAMA0) is saved in {console}")
    check("login:" not in text, "no login prompt on the console")

    parts = partitions(disk)
    state_part = parts[2]
    end = (state_part["start"] + state_part["size"]) * 512
    check(end > size and disk.stat().st_size - end < 16 * 2 ** 20,
          f"the state partition grew to the end of the {disk.stat().st_size >> 20} MiB card on "
          f"the first boot (the image's ended at {size >> 20} MiB)", json.dumps(parts))
    state = read_state(disk, state_part, work)
    journal = state / "journal.jsonl"
    check(journal.is_file(), "the game's journal is on the state partition",
          str(list(state.iterdir())))
    lines = [json.loads(line) for line in journal.read_text().splitlines() if line.strip()]
    kinds = {a["type"] for a in ACTIONS}
    played = [a for line in lines if line.get("type") == "action"
              for a in line["actions"] if a.get("type") in kinds]
    check(played == ACTIONS, f"the journal holds the {len(PIECES)} pieces laid on the UART "
          f"reader, in order", json.dumps(lines, indent=1))
    check(lines[0].get("players") == PLAYERS, "the journal's game is the configured one")
    # The same journal replayed by tabletap on this machine (the reader simulated: the journal
    # holds the actions, not how they arrived) must end with the winner.
    replay_config = work / "replay.yaml"
    replay_config.write_text(CONFIG_TEMPLATE.replace("/var/lib/tabletap", str(state)).replace(
        "transport: uart, port: /dev/serial0, baud: 115200, timeout: 1.0", "transport: sim"),
        encoding="utf-8")
    replay = subprocess.run([str(Path(sys.executable).with_name("tabletap")), "state",
                             "--config", str(replay_config)], capture_output=True, text=True)
    check(replay.returncode == 0 and f"winner: {WINNER}" in replay.stdout,
          f"replaying that journal here: {replay.stdout.splitlines()[:3]}",
          replay.stdout + replay.stderr)
    won = re.search(r"[^\n]*wins![^\n]*", text)
    log("the Pi 3 boot test passed" + (f"; the console said: {won.group(0).strip()}" if won
                                        else ""))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Failure as failure:
        print(failure, file=sys.stderr)
        sys.exit(1)
