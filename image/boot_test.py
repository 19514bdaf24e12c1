"""`make image-test`: boots the built image under qemu-system-aarch64 and checks the box.

The emulated machine is `-M virt` (software emulation) booting the image's own kernel and initrd
from its boot partition. The boot partition is configured the way a maker would (tabletap.yaml
for the simulated backend). The test talks to the box through a root shell on a virtio console,
which only exists because this test's kernel command line asks systemd for its debug shell
(`systemd.debug_shell=hvc0`, with the getty systemd would also start there masked): a maker's
box boots with cmdline.txt, which never does. The serial
console (ttyAMA0) is saved to console-*.log beside the disk for a person to read.

Checks:
 1. tabletap.service reaches READY (Type=notify: active) within READY_BOUND seconds, as user
    tabletap, and `tabletap doctor --sim` passes inside; the page's unit (tabletap-web, under
    its sandbox), with the page off in this config, ends successfully and says so;
 2. a scripted game through the control socket (`tabletap do`);
    The first start takes the entry points and the game data the image was built with (its
    state partition's cache/, image/build.sh's keep_first_start) without writing them again,
    and parses this test's config, which is not the example the image was built with, anew;
 3. qemu is killed mid-game (a power cut); the image boots again, the state partition's ext4
    journal is recovered and the game resumes exactly where it was; the second start takes the
    config, game data and entry points the first kept (controller/startcache.py: owner-only, in
    the state partition) without writing them again;
 4. no account has a password, sshd is off without a key, only the configured ports listen;
 5. the clock, as on a Pi with no battery-backed clock: both boots power on with the emulated
    clock years behind (DEAD_CLOCK) and boot 1 has no network; boot 2 starts at the time boot 1
    saved on the state partition, then, on qemu's user network, the box's systemd-timesyncd sets
    the clock from a time server on the host (sntp_server.py, UDP port 123: run as root), the
    daemon runs on through the jump and the journal's times are right after it.

    python image/boot_test.py build/image/tabletap-<version>-arm64.img
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sntp_server import SNTPServer

from tabletap.controller.loading import doccache
from tabletap.controller.loading.yamldoc import load_value

READY_BOUND = 600.0  # seconds from power-on to READY under software emulation on a busy host
# The table and its scripted game: data, beside this file (the game is a plugin's, so its
# steps are content, not code).
_BOOT = load_value((Path(__file__).with_name("boot-game.yaml")).read_text(encoding="utf-8"),
                   "image/boot-game.yaml")
CONFIG: str = _BOOT["config"]
GAME = [(list(step["do"]), bool(step["accepted"])) for step in _BOOT["steps"]]
AFTER_RESUME = (list(_BOOT["after_resume"]["do"]), bool(_BOOT["after_resume"]["accepted"]))
RESUMED: str = _BOOT["resumed"]
GAME_DATA: list[str] = list(_BOOT["game_data"])
# What the emulated clock reads at power-on: years before the image was built, as a Pi's clock
# (none: the kernel starts at 1970) is until systemd moves it to its own build date.
DEAD_CLOCK = "2020-01-01T00:00:00"
SAVE_INTERVAL = 60  # timesyncd's SaveIntervalSec: how often the box writes its clock file
TABLETAP = "runuser -u tabletap -- /opt/tabletap/venv/bin/tabletap"
CONF = "--config /etc/tabletap/table.yaml"


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


class Failure(AssertionError):
    pass


def check(ok: bool, what: str, detail: str = "") -> None:
    if not ok:
        raise Failure(f"FAILED: {what}\n{detail}")
    log(f"ok: {what}")


def partitions(image: Path) -> list[dict]:
    out = subprocess.run(["sfdisk", "--json", str(image)], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)["partitiontable"]["partitions"]


def built_cache(image: Path) -> dict[str, str]:
    """The daemon's start cache the image was built with (image/build.sh, keep_first_start):
    each file's name and inode, read from the state partition with debugfs before any boot."""
    offset = partitions(image)[2]["start"] * 512
    out = subprocess.run(["debugfs", "-R", "ls -l /cache", f"{image}?offset={offset}"],
                         capture_output=True, text=True, check=True)
    return {fields[-1]: fields[0] for fields in (line.split() for line in out.stdout.splitlines())
            if len(fields) >= 9 and fields[-1] not in {".", ".."}}


def mtools(image: Path, offset: int, *args: str) -> str:
    env = {**os.environ, "MTOOLS_SKIP_CHECK": "1"}
    out = subprocess.run([args[0], "-i", f"{image}@@{offset}", *args[1:]], capture_output=True,
                         text=True, env=env, check=True)
    return out.stdout


class Machine:
    """One boot of the disk under qemu, with a root shell on the virtio console."""

    def __init__(self, work: Path, disk: Path, kernel: Path, initrd: Path, name: str,
                 network: bool = False) -> None:
        self.sock_path = Path(tempfile.mkdtemp(prefix="tt-")) / "shell.sock"
        self.console = work / f"console-{name}.log"
        append = ("root=PARTUUID=7ab1e7a9-02 ro rootfstype=ext4 rootwait console=ttyAMA0 "
                  "systemd.debug_shell=hvc0 systemd.mask=serial-getty@hvc0.service")
        self.started = time.monotonic()
        self.proc = subprocess.Popen([
            "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-smp", "2", "-m", "1024",
            "-display", "none", "-no-reboot",
            # qemu's user network is a home router: DHCP, and the host at 10.0.2.2.
            "-nic", "user,model=virtio-net-pci" if network else "none",
            # A Pi has no battery-backed clock; virt has one, read here as a dead one would be.
            "-rtc", f"base={DEAD_CLOCK}",
            "-kernel", str(kernel), "-initrd", str(initrd), "-append", append,
            "-drive", f"file={disk},format=raw,if=none,id=disk",
            "-device", "virtio-blk-pci,drive=disk",
            "-serial", f"file:{self.console}",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=shell,path={self.sock_path},server=on,wait=off",
            "-device", "virtconsole,chardev=shell",
        ], stdin=subprocess.DEVNULL)
        self.sock: socket.socket | None = None
        self.buffer = ""
        self.counter = 0

    def _connect(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise Failure(f"qemu exited ({self.proc.returncode}); see {self.console}")
            try:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.connect(str(self.sock_path))
                self.sock = sock
                return
            except OSError:
                time.sleep(0.5)
        raise Failure("qemu's console socket never appeared")

    def _read(self, until: re.Pattern[str], timeout: float) -> re.Match[str]:
        assert self.sock is not None
        deadline = time.monotonic() + timeout
        while True:
            found = until.search(self.buffer)
            if found:
                self.buffer = self.buffer[found.end():]
                return found
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.proc.poll() is not None:
                raise Failure(f"no {until.pattern!r} from the box in {timeout:.0f} s; "
                              f"last output: {self.buffer[-2000:]!r}")
            self.sock.settimeout(min(remaining, 2.0))
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            self.buffer += chunk.decode(errors="replace")

    def wait_for_shell(self, timeout: float) -> float:
        """Seconds from power-on until the shell answers.

        The debug shell is an interactive bash whose prompt queries the terminal (cursor
        position reports) and can swallow what is typed while it waits for a reply that never
        comes; the test swaps it for a plain dash with no prompt and no echo, and makes sure it
        is talking to that dash before it sends anything else.
        """
        self._connect(60)
        assert self.sock is not None
        deadline = time.monotonic() + timeout
        dash = re.compile(r"SHELL-42-(\S+)")
        while time.monotonic() < deadline:
            self.sock.sendall(b"\nexec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "
                              b"TERM=dumb PS1= PS2= SYSTEMD_PAGER= SYSTEMD_COLORS=0 /bin/sh\n")
            time.sleep(2)
            self.sock.sendall(b"\nstty -echo; echo SHELL-$((6*7))-$(readlink /proc/$$/exe)\n")
            try:
                found = self._read(dash, 30)
            except Failure:
                if self.proc.poll() is not None:
                    raise
                continue
            if found.group(1).endswith("dash"):
                break
        else:
            raise Failure("the shell on the virtio console never answered")
        time.sleep(1)
        self.buffer = ""
        self.sh("true", 120)
        return time.monotonic() - self.started

    def sh(self, command: str, timeout: float = 120) -> tuple[int, str]:
        """Runs a command in the box's shell: (exit status, output)."""
        assert self.sock is not None
        self.counter += 1
        tag = f"T{self.counter}X"
        # The markers are split in the command text so that an echo of it never matches.
        line = (f"echo '<<{tag}'\"BEGIN>>\"; ( {command} ) 2>&1; "
                f"echo \"<<{tag}END $?>>\"\n")
        self.sock.sendall(line.encode())
        self._read(re.compile(re.escape(f"<<{tag}BEGIN>>") + r"\r?\n"), timeout)
        end = self._read(re.compile(r"(?s)(.*?)<<" + tag + r"END (\d+)>>"), timeout)
        return int(end.group(2)), end.group(1).replace("\r", "").strip()

    def must(self, command: str, timeout: float = 120) -> str:
        status, out = self.sh(command, timeout)
        if status != 0:
            raise Failure(f"`{command}` exited {status}:\n{out}")
        return out

    def wait_ready(self, bound: float) -> float:
        """Seconds since power-on until tabletap.service is active (READY=1 received)."""
        deadline = self.started + bound
        while time.monotonic() < deadline:
            _, state = self.sh("systemctl is-active tabletap.service", 300)
            if state == "active":
                return time.monotonic() - self.started
            if state == "failed":
                raise Failure("tabletap.service failed:\n" + self.sh(
                    "journalctl -b -u tabletap -u tabletap-firstboot --no-pager | tail -30; "
                    "systemctl --failed --no-legend --plain")[1])
            time.sleep(3)
        raise Failure(f"tabletap.service not ready within {bound:.0f} s")

    def power_cut(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.close()

    def poweroff(self, timeout: float = 300) -> None:
        assert self.sock is not None
        self.sock.sendall(b"systemctl poweroff\n")
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise Failure("the box did not power off") from None
        finally:
            self.close()

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        shutil.rmtree(self.sock_path.parent, ignore_errors=True)
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


KEPT = "/var/lib/tabletap/cache"


def kept_files(vm: Machine) -> dict[str, str]:
    """The daemon's start cache (controller/startcache.py): each file's inode, owner and mode;
    a file written again has a new inode (it is replaced by a rename)."""
    listing = vm.must(f"stat -c '%n %i %U %a' {KEPT} {KEPT}/*")
    return {name: rest for name, _, rest in (line.partition(" ")
                                              for line in listing.splitlines())}


def first_boot(vm: Machine, times: dict[str, float], built: dict[str, str]) -> dict:
    times["shell (boot 1)"] = vm.wait_for_shell(READY_BOUND)
    times["READY (boot 1)"] = vm.wait_ready(READY_BOUND)
    log(f"tabletap.service READY {times['READY (boot 1)']:.0f} s after power-on")
    monotonic = vm.must("systemctl show -P ActiveEnterTimestampMonotonic tabletap.service")
    times["READY (boot 1, box clock)"] = int(monotonic) / 1e6
    pid = vm.must("systemctl show -P MainPID tabletap.service")
    check(vm.must(f"stat -c %U /proc/{pid}") == "tabletap", "the daemon runs as user tabletap")
    report = vm.must("cat /boot/firmware/tabletap-firstboot.txt")
    check("tabletap.yaml: now the table's config" in report and
          not vm.sh("test -e /boot/firmware/tabletap.yaml")[0] == 0,
          "first boot moved tabletap.yaml from the boot partition", report)
    # The page's unit, under its sandbox (tabletap-web.service): this config leaves the page
    # off, so its process (which checks the config in a forked child, tabletap/web/settings.py)
    # must end at once, successfully, saying so, rather than stand failed or restart.
    # It starts after the daemon's READY (its start job may still be queued: "inactive" alone
    # proves nothing) and emulation is slow: wait until its process has exited.
    deadline = time.monotonic() + 300
    while True:
        shown = vm.must("systemctl show -p ActiveState -p Result -p ExecMainStatus "
                        "-p ExecMainExitTimestampMonotonic tabletap-web.service")
        web = dict(line.partition("=")[::2] for line in shown.splitlines())
        if web.pop("ExecMainExitTimestampMonotonic", "0") != "0" or time.monotonic() > deadline:
            break
        time.sleep(2)
    said = vm.sh("journalctl -b -u tabletap-web -o cat --no-pager")[1]
    check(web == {"ActiveState": "inactive", "Result": "success", "ExecMainStatus": "0"}
          and "the page is off" in said,
          "the page's unit ends at once, successfully, saying the page is off",
          f"{web}; journal: {said}")
    status, doctor = vm.sh(f"{TABLETAP} doctor --sim {CONF}", 300)
    print(doctor)
    check(status == 0, "tabletap doctor --sim passes inside the box", doctor)

    for args, accepted in GAME:
        status, out = vm.sh(f"{TABLETAP} do {' '.join(args)} {CONF}", 120)
        print("   ", " ".join(args), "->", out.replace("\n", " | "))
        check((status == 0) == accepted,
              f"`tabletap do {' '.join(args)}` {'accepted' if accepted else 'rejected'}", out)
    # journald priorities inside the box: the refusal is one warning, the accepted moves info.
    unit = "journalctl -b -u tabletap -o cat --no-pager"
    warned = vm.must(f"{unit} -p warning | grep -c 'rejected' || true")
    logged = vm.must(f"{unit} | grep -c 'rejected' || true")
    told = vm.must(f"{unit} -p info..info | grep -c \"ben's turn\" || true")
    check(warned == "1" and logged == "1" and told != "0",
          "the journal has the refusal once, at warning, and the turns at info",
          f"warning: {warned}, all: {logged}, turns at info: {told}")
    # Through python3-systemd: an entry is the sentence alone, its logger and code as fields
    # (until 2026-12-06 each read "INFO:tabletap.table:..."; service.JournalFields).
    entries = [json.loads(line) for line in vm.must(
        "journalctl -b -u tabletap LOGGER=tabletap.table -o json --no-pager").splitlines()]
    turns = [e for e in entries if "ben's turn" in e.get("MESSAGE", "")]
    check(bool(turns) and all(not e["MESSAGE"].startswith("INFO:") and e["PRIORITY"] == "6"
                              and e["CODE_FILE"].endswith("service.py") for e in turns),
          "the play-by-play's entries are the sentences, with their logger and code as fields",
          json.dumps(turns[:1]))
    state = json.loads(vm.must(f"{TABLETAP} state --json --reveal {CONF} 2>/dev/null", 120))
    check(state["current_player"] == "ben" and state["fakes_held"]["ana"] == ["purple/1"],
          "the journal holds the scripted game (ben to play, ana holding the fake purple/1)",
          json.dumps(state))

    # What the start keeps for the next one, in the state partition, the daemon's alone.
    kept = kept_files(vm)
    folder = kept.pop(KEPT, "")
    check(folder.endswith(" tabletap 700") and f"{KEPT}/entrypoints.kept" in kept
          and sum(name.endswith(".doc") for name in kept) >= 2
          and all(rest.endswith(" tabletap 600") for rest in kept.values()),
          "the daemon kept its parsed config, game data and entry points for the next start "
          "(owner-only, in the state partition)", json.dumps(kept))
    state["kept"] = kept
    # The image's own cache, made from the example config (image/build.sh, keep_first_start):
    # the entry points and the game's data are taken as they were, the same inodes; this test's
    # config is not the example, so its document (named for its path) was parsed and written anew.
    taken = {name for name, inode in built.items()
             if kept.get(f"{KEPT}/{name}", "").split(" ")[0] == inode}
    game_docs = {doccache._name(label) for label in GAME_DATA}
    config_doc = doccache._name("/etc/tabletap/table.yaml")
    check({"entrypoints.kept", *game_docs} <= taken
          and config_doc in built and config_doc not in taken,
          "the first start took the entry points and game data the image was built with, and "
          "parsed the maker's changed config anew",
          f"built {json.dumps(built)}, kept {json.dumps(kept)}")

    # A Pi starts with no idea of the date; nothing above may have needed it.
    clock = int(vm.must("date +%s"))
    check(clock < time.time() - 86400,
          "the box played with no network and its clock far behind (as a Pi without a battery)",
          f"box {time.ctime(clock)}, host {time.ctime()}")

    shadow = vm.must("awk -F: '$2 !~ /^[!*]/ {print $1 \":\" $2}' /etc/shadow")
    check(shadow == "", "no account has a password (every shadow entry locked)", shadow)
    check(vm.sh("systemctl is-active ssh.service")[1] in {"inactive", "failed"}
          and vm.sh("test -e /root/.ssh/authorized_keys")[0] != 0,
          "sshd is off without authorized_keys")
    listening = vm.must("ss -H -tulnp | awk '{print $1, $5, $7}' | sort -u")
    print("    listening:", listening.replace("\n", "; ") or "nothing")
    allowed = re.compile(r'^udp \S+:5353 .*"avahi-daemon"')  # mDNS for tabletap.local
    stray = [line for line in listening.splitlines() if not allowed.match(line)]
    check(stray == [], "only the configured ports listen (mDNS 5353/udp)", "\n".join(stray))
    failed = vm.sh("systemctl --failed --no-legend --plain")[1]
    print("    failed units: " + (failed.replace("\n", "; ") or "none"))
    errors = vm.sh("journalctl -b -p err --no-pager | tail -20")[1]
    print("    journal errors this boot:\n      " + errors.replace("\n", "\n      "))
    # A maker reads `journalctl -p err` for the table's faults: nothing else may be there but
    # Debian's own alsa udev rule (a packaging bug, harmless).
    noise = [line for line in errors.splitlines()
             if line.strip() and "90-alsa-restore.rules" not in line]
    # Software emulation can stall the guest's CPU for seconds when the host is busy; the kernel
    # then reports a soft lockup and units time out: the emulator's errors, not the image's.
    if any("soft lockup" in line or "rcu_sched self-detected stall" in line for line in noise):
        print("    the emulated CPU stalled (the kernel reports it): the error check is not "
              "meaningful for this boot and is skipped")
    else:
        check(noise == [], "no error in the journal but Debian's alsa rule warning",
              "\n".join(noise))
    return state


def second_boot(vm: Machine, before: dict, clock_before: int,
                times: dict[str, float]) -> None:
    times["shell (boot 2)"] = vm.wait_for_shell(READY_BOUND)
    times["READY (boot 2, after the power cut)"] = vm.wait_ready(READY_BOUND)
    # systemd-fsck replays the journal before the mount (e2fsck: "recovering journal"), or the
    # kernel does at mount ("recovery complete"): either way it must have happened here.
    recovery = vm.must("journalctl -b --no-pager | grep -Ei "
                       "'tabletap-state: recovering journal|vda3.*recovery complete|vda3.*clean' "
                       "|| true")
    print("    " + recovery.replace("\n", "\n    "))
    check(re.search(r"recovering journal|recovery complete", recovery) is not None,
          "the state partition's ext4 journal was recovered after the power cut", recovery)
    resumed = vm.must("journalctl -b -u tabletap --no-pager | grep 'Resuming' || true")
    check(RESUMED in resumed,
          "the daemon resumed the unfinished game from its journal", resumed)
    after = json.loads(vm.must(f"{TABLETAP} state --json --reveal {CONF} 2>/dev/null", 120))
    kept_before = before.pop("kept")
    check(after == before, "the game resumed exactly where it was", json.dumps(after))
    kept_after = kept_files(vm)
    kept_after.pop(KEPT, None)
    check(kept_after == kept_before,
          "the second start took what the first kept, writing nothing again (same inodes)",
          f"before {json.dumps(kept_before)}, after {json.dumps(kept_after)}")
    clock_sync(vm, clock_before)
    args, accepted = AFTER_RESUME
    status, out = vm.sh(f"{TABLETAP} do {' '.join(args)} {CONF}", 120)
    print("   ", " ".join(args), "->", out.replace("\n", " | "))
    check((status == 0) == accepted, "the family plays on after the power cut", out)
    # The move above was journaled after the clock jumped: its time is the family's.
    entry = json.loads(vm.must("journalctl -u tabletap -n 1 -o json --no-pager"))
    logged = int(entry["__REALTIME_TIMESTAMP"]) / 1e6
    check(abs(logged - time.time()) < 60,
          "the journal's times are right once the network is up (the last move's entry)",
          f"entry at {time.ctime(logged)}, host {time.ctime()}")


def clock_sync(vm: Machine, clock_before: int) -> None:
    """The clock of a box without a battery: kept across boots, then set from the network.

    The box is on qemu's user network this boot, with the host's time server (sntp_server.py)
    at 10.0.2.2. A home router hands out its own or a pool's; qemu's DHCP names none, so the
    test names the host in a runtime drop-in, which the image's timesyncd reads like any other.
    """
    clock = int(vm.must("date +%s"))
    check(clock_before - SAVE_INTERVAL - 5 <= clock < time.time() - 86400,
          "boot 2 started its clock at the time boot 1 saved on the state partition",
          f"box {time.ctime(clock)}, boot 1 ended at box time {time.ctime(clock_before)}")
    print(f"    boot 1 ended at box time {time.ctime(clock_before)}; boot 2 is at "
          f"{time.ctime(clock)}, {(time.time() - clock) / 86400:.0f} days behind this machine")
    pid = vm.must("systemctl show -P MainPID tabletap.service")
    vm.must("mkdir -p /run/systemd/timesyncd.conf.d && printf '[Time]\\nNTP=10.0.2.2\\n' "
            "> /run/systemd/timesyncd.conf.d/boot-test.conf && "
            "systemctl restart systemd-timesyncd.service")
    deadline = time.monotonic() + 120
    while vm.sh("test -e /run/systemd/timesync/synchronized")[0] != 0:
        if time.monotonic() > deadline:
            raise Failure("timesyncd never synchronized with the host:\n" + vm.sh(
                "journalctl -b -u systemd-timesyncd --no-pager | tail -20; ip -brief addr")[1])
        time.sleep(2)
    told = vm.must("journalctl -b -u systemd-timesyncd -o cat --no-pager | "
                   "grep 'Contacted time server' || true")
    print("    " + told.replace("\n", "\n    "))
    clock = float(vm.must("date +%s.%N"))
    check(abs(clock - time.time()) < 5 and "10.0.2.2:123" in told,
          "systemd-timesyncd set the box's clock from the network's time server",
          f"box {clock:.1f}, host {time.time():.1f}; timesyncd: {told}")
    saved = int(vm.must("stat -c %Y /var/lib/tabletap/.timesync/clock"))
    check(abs(saved - time.time()) < 60,
          "the synchronized time is saved on the state partition for the next boot",
          time.ctime(saved))
    check(vm.must("systemctl is-active tabletap.service") == "active" and
          vm.must("systemctl show -P MainPID tabletap.service") == pid,
          "the daemon kept running through the clock's jump forward")


def prepare(image: Path, work: Path) -> tuple[Path, Path, Path]:
    """A copy of the image in `work`, configured as a maker would (this test's tabletap.yaml on
    its boot partition), and the kernel and initrd taken from that partition: the disk, kernel
    and initrd `Machine` boots (also bench/live/cgroup_vm.py's)."""
    disk = work / "disk.img"
    subprocess.run(["cp", "--sparse=always", str(image), str(disk)], check=True)
    offset = partitions(disk)[0]["start"] * 512
    names = mtools(disk, offset, "mdir", "-b", "::/").split()
    found = []
    for prefix in ("::/vmlinuz", "::/initrd.img"):
        name = next(n for n in names if n.startswith(prefix))
        found.append(work / name[3:])
        mtools(disk, offset, "mcopy", "-o", name, str(found[-1]))
    config = work / "tabletap.yaml"
    config.write_text(CONFIG)
    mtools(disk, offset, "mcopy", "-o", str(config), "::/tabletap.yaml")
    return disk, found[0], found[1]


def main(argv: list[str]) -> int:
    image = Path(argv[1]).resolve()
    work = image.parent / "boot-test"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    started = time.monotonic()
    disk, kernel, initrd = prepare(image, work)
    built = built_cache(disk)
    log(f"the image's start cache: {', '.join(sorted(built)) or 'none'}")
    log(f"booting {image.name} ({kernel.name}) under qemu-system-aarch64 -M virt")

    times: dict[str, float] = {}
    try:
        clock_server = SNTPServer()
    except PermissionError as exc:
        print(exc, file=sys.stderr)
        return 1
    vm = Machine(work, disk, kernel, initrd, "boot1")
    try:
        state = first_boot(vm, times, built)
        clock = int(vm.must("date +%s"))
        log("power cut: qemu killed mid-game (SIGKILL)")
        vm.power_cut()
        log("boot 2 on qemu's user network, with a time server on this machine")
        vm = Machine(work, disk, kernel, initrd, "boot2", network=True)
        second_boot(vm, state, clock, times)
        vm.poweroff()
    except Failure as exc:
        print(exc, file=sys.stderr)
        print(f"serial console: {vm.console}", file=sys.stderr)
        return 1
    finally:
        vm.close()
        clock_server.close()
    times["whole test"] = time.monotonic() - started
    log("boot test passed; seconds: " + ", ".join(f"{k} {v:.0f}" for k, v in times.items()))
    log(f"serial consoles: {work}/console-boot1.log, console-boot2.log")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
