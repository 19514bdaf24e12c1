"""`python -m bench.live.cgroup_vm [IMAGE]`: the bench's CPU quota checked on cgroup v2.

The development machine has cgroup v1, where `make bench` makes its quotas with `cpu.cfs_*`;
most developers' machines (Debian 12 and later, Ubuntu 22.04 and later) have cgroup v2 alone,
where it writes `cpu.max`. The built image's trixie under qemu-system-aarch64 is such a
machine (systemd 257, cgroup2 only), so this boots a copy of it with image/boot_test.py's
`Machine` (a root shell on a virtio console), copies bench/live/cgroup.py in (it needs only
the standard library) and runs it as root there:
 1. each quota of the bench is made and bites: a spinning child is slowed about 1 / share;
 2. nothing is left under /sys/fs/cgroup after;
 3. a cgroup whose own processes keep it from enabling the cpu controller for its children
    (as in a container) gives a clear QuotaUnavailable and leaves nothing behind.
Two to four minutes, after `make image`. Exit 0 when all three hold.
"""

from __future__ import annotations

import base64
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "image"))

from boot_test import Failure, Machine, prepare  # noqa: E402

IMAGE = ROOT / "build/image/tabletap-0.1.0-arm64.img"
SOURCE = Path(__file__).with_name("cgroup.py")
# A cgroup with processes of its own: the box's debug shell, which runs this check.
BUSY = "/sys/fs/cgroup/system.slice/debug-shell.service"
LINE = 2000  # base64 characters a line: the console's line discipline takes 4095 at most


def _boot(image: Path, work: Path) -> Machine:
    disk, kernel, initrd = prepare(image, work)
    return Machine(work, disk, kernel, initrd, "cgroup")


def _check(vm: Machine) -> bool:
    print("booted; shell after", round(vm.wait_for_shell(900)), "s", flush=True)
    # the box's own start would compete with the spinning child for the emulated cores
    print("tabletap.service ready after", round(vm.wait_ready(1200)), "s", flush=True)
    print(vm.must("uname -r; stat -fc %T /sys/fs/cgroup; systemctl --version | head -1; "
                  "python3 --version"))
    text = base64.b64encode(SOURCE.read_bytes()).decode()
    vm.must("mkdir -p /tmp/cg && rm -f /tmp/cg/cgroup.b64")
    for start in range(0, len(text), LINE):
        vm.must(f"echo {text[start:start + LINE]} >> /tmp/cg/cgroup.b64")
    vm.must("base64 -d /tmp/cg/cgroup.b64 > /tmp/cg/cgroup.py")
    print("the root's cgroup.subtree_control:",
          vm.must("cat /sys/fs/cgroup/cgroup.subtree_control"))
    status, out = vm.sh("cd /tmp/cg && python3 cgroup.py", 1800)
    print(f"1. python3 cgroup.py (exit {status}):\n{out}")
    bites = status == 0
    left = vm.sh("ls -d /sys/fs/cgroup/tabletap-*")[0] == 0
    print(f"2. left under /sys/fs/cgroup: {'yes' if left else 'nothing'}")
    status, out = vm.sh(
        "cd /tmp/cg && python3 -c \"import cgroup; from pathlib import Path; "
        f"cgroup.V2 = Path('{BUSY}'); cgroup.Quota.make('tabletap-bench-tenth', 0.1)\" "
        "2>&1 | tail -1", 300)
    clear = "QuotaUnavailable: the cpu controller cannot be enabled" in out
    busy_left = vm.sh(f"ls -d {BUSY}/tabletap-*")[0] == 0
    print(f"3. in a cgroup that holds processes: {out}\n   left there: "
          f"{'yes' if busy_left else 'nothing'}")
    return bites and not left and clear and not busy_left


def main(argv: list[str]) -> int:
    image = Path(argv[1]) if len(argv) > 1 else IMAGE
    if not image.exists():
        print(f"{image}: no image; run `make image` first", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="tabletap-cgroup-"))
    print(f"booting a copy of {image} under qemu-system-aarch64 (a few minutes)", flush=True)
    vm = _boot(image, work)
    try:
        ok = _check(vm)
    except Failure as exc:
        print(exc, file=sys.stderr)
        ok = False
    finally:
        vm.close()
        shutil.rmtree(work, ignore_errors=True)
    print("the quota holds on cgroup v2" if ok else "the quota check failed on cgroup v2")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
