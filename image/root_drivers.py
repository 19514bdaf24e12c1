"""The drivers each Raspberry Pi needs to reach its root filesystem, read from its device tree.

A board boots only if every driver on the path from the kernel to the SD card is built into the
kernel or in the initramfs: the SD host controller, and everything its probe waits for (its
clocks, resets, pin control, the regulators that power the card and, on a Pi 4, the GPIO
expander behind the firmware that switches one of them). A missing one is not an error the
kernel reports: the probe is deferred for ever and the initramfs says `ALERT! PARTUUID=... does
not exist`. So the list is derived, for every device tree the image claims, from the tree itself
and the kernel's own module aliases, never from a hand list alone:

    root_drivers.py derive ROOT              the modules for the initramfs, one a line
    root_drivers.py check ROOT BOOTFS        fails unless BOOTFS's initrd holds them all and
                                             every claimed device tree is on BOOTFS

ROOT is the image's root (its /usr/lib/modules/KVER and /usr/lib/linux-image-KVER), BOOTFS its
boot partition as a folder. Runs on the build machine with its own Python (no dependency).
"""

from __future__ import annotations

import fnmatch
import re
import struct
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

# The boards the image claims, by the device tree the firmware loads for each (the Pi's firmware
# picks it by name from the boot partition; raspi-firmware copies the kernel's trees there).
CLAIMED: dict[str, str] = {
    "Raspberry Pi 3 Model B": "bcm2837-rpi-3-b.dtb",
    "Raspberry Pi 3 Model B+": "bcm2837-rpi-3-b-plus.dtb",
    "Raspberry Pi 3 Model A+": "bcm2837-rpi-3-a-plus.dtb",
    "Raspberry Pi Zero 2 W": "bcm2837-rpi-zero-2-w.dtb",
    "Raspberry Pi 4 Model B": "bcm2711-rpi-4-b.dtb",
    "Raspberry Pi 400": "bcm2711-rpi-400.dtb",
    "Raspberry Pi Compute Module 4 (IO board)": "bcm2711-rpi-cm4-io.dtb",
}

# Properties that point at other nodes a probe waits for, with the provider's "#...-cells"
# property that says how many argument cells follow each phandle (None: a bare phandle list).
PHANDLE_LISTS: dict[str, str | None] = {
    "clocks": "#clock-cells",
    "resets": "#reset-cells",
    "mboxes": "#mbox-cells",
    "dmas": "#dma-cells",
    "power-domains": "#power-domain-cells",
    "gpio": "#gpio-cells",
    "gpios": "#gpio-cells",
    "firmware": None,
}
PHANDLE_SUFFIXES: dict[str, str | None] = {"-gpios": "#gpio-cells", "-gpio": "#gpio-cells",
                                           "-supply": None}
# Set up before any driver probes (CLK_OF_DECLARE, IRQCHIP_DECLARE, the bus itself): they have
# no module alias because they are never modules.
EARLY = {"simple-bus", "fixed-clock", "fixed-factor-clock", "brcm,bcm2835-pinctrl-group"}


@dataclass
class Node:
    path: str
    props: dict[str, bytes] = field(default_factory=dict)
    children: list[Node] = field(default_factory=list)
    parent: Node | None = None

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1].split("@", 1)[0] or "/"

    def strings(self, prop: str) -> list[str]:
        raw = self.props.get(prop)
        return [s.decode() for s in raw.split(b"\0") if s] if raw else []

    def cells(self, prop: str) -> list[int]:
        raw = self.props.get(prop, b"")
        return list(struct.unpack(f">{len(raw) // 4}I", raw[: len(raw) // 4 * 4]))

    @property
    def enabled(self) -> bool:
        return self.strings("status") in ([], ["okay"], ["ok"])


def parse_fdt(blob: bytes) -> Node:
    """A flattened device tree (the .dtb format): header, structure block, strings block."""
    magic, _size, off_struct, off_strings = struct.unpack_from(">IIII", blob)
    if magic != 0xD00DFEED:
        raise ValueError("not a device tree blob")
    pos, stack = off_struct, []
    root: Node | None = None
    while True:
        (token,) = struct.unpack_from(">I", blob, pos)
        pos += 4
        if token == 1:  # FDT_BEGIN_NODE
            end = blob.index(b"\0", pos)
            name = blob[pos:end].decode()
            pos = (end + 4) & ~3
            parent = stack[-1] if stack else None
            path = "/" if parent is None else f"{parent.path.rstrip('/')}/{name}"
            node = Node(path, parent=parent)
            if parent is None:
                root = node
            else:
                parent.children.append(node)
            stack.append(node)
        elif token == 2:  # FDT_END_NODE
            stack.pop()
        elif token == 3:  # FDT_PROP
            length, nameoff = struct.unpack_from(">II", blob, pos)
            pos += 8
            pname = blob[off_strings + nameoff: blob.index(b"\0", off_strings + nameoff)].decode()
            stack[-1].props[pname] = blob[pos: pos + length]
            pos = (pos + length + 3) & ~3
        elif token == 4:  # FDT_NOP
            continue
        elif token == 9:  # FDT_END
            break
        else:
            raise ValueError(f"bad device tree token {token}")
    assert root is not None
    return root


class Tree:
    def __init__(self, blob: bytes) -> None:
        self.root = parse_fdt(blob)
        self.by_phandle: dict[int, Node] = {}
        self.by_path: dict[str, Node] = {}
        for node in self.walk():
            self.by_path[node.path] = node
            for key in ("phandle", "linux,phandle"):
                if key in node.props:
                    self.by_phandle[node.cells(key)[0]] = node

    def walk(self, node: Node | None = None) -> Iterator[Node]:
        node = node or self.root
        yield node
        for child in node.children:
            yield from self.walk(child)

    def alias(self, name: str) -> Node | None:
        aliases = self.by_path.get("/aliases")
        target = aliases.strings(name) if aliases else []
        return self.by_path.get(target[0]) if target else None

    def referenced(self, node: Node) -> list[Node]:
        """The nodes `node` points at through the properties a probe waits for."""
        out: list[Node] = []
        for prop in node.props:
            if prop == "clocks" and "#clock-cells" in node.props:
                continue  # a clock controller's own parents (the DSI PHYs' clocks of the
                # cprman) are optional inputs: it probes without them
            if prop.startswith("pinctrl-") and prop != "pinctrl-names":
                out += [self.by_phandle[p] for p in node.cells(prop) if p in self.by_phandle]
                continue
            cells_name = PHANDLE_LISTS.get(prop, "")
            if cells_name == "":
                cells_name = next((c for s, c in PHANDLE_SUFFIXES.items() if prop.endswith(s)),
                                  "")
                if cells_name == "" or prop.startswith("#"):
                    continue
            values, i = node.cells(prop), 0
            while i < len(values):
                target = self.by_phandle.get(values[i])
                if target is None:
                    break
                out.append(target)
                i += 1 + (target.cells(cells_name)[0] if cells_name and cells_name in
                          target.props else 0)
        return out

    def sd_hosts(self) -> list[Node]:
        """The enabled MMC hosts that can hold the root: not an SDIO bus for the Wi-Fi chip."""
        hosts = []
        for node in self.walk():
            if node.name not in ("mmc", "sdhci", "mmcnr", "emmc2") or not node.enabled:
                continue
            if "bus-width" not in node.props and not node.strings("compatible"):
                continue
            if any("fmac" in c for child in node.children for c in child.strings("compatible")):
                continue  # the Wi-Fi chip's SDIO: the root is never there
            hosts.append(node)
        return hosts

    def root_path(self) -> list[Node]:
        """Every node the SD hosts' probes wait for, with their parents, transitively."""
        seen: dict[str, Node] = {}
        todo = self.sd_hosts()
        while todo:
            node = todo.pop()
            if node.path in seen:
                continue
            seen[node.path] = node
            todo += self.referenced(node)
            if node.parent is not None and node.parent.path != "/":
                todo.append(node.parent)
        return list(seen.values())


def modalias(node: Node) -> str:
    """The modalias the kernel gives a device-tree device (of_device_uevent_modalias)."""
    device_type = node.strings("device_type")
    return (f"of:N{node.name}T{device_type[0] if device_type else '<NULL>'}"
            + "".join(f"C{c}" for c in node.strings("compatible")))


def kernel_image(path: Path) -> bytes:
    """The uncompressed kernel: Debian's arm64 vmlinuz is a gzip stream, possibly inside an EFI
    zboot wrapper (so the stream is looked for, not assumed at the start)."""
    import zlib

    raw = path.read_bytes()
    start = raw.find(b"\x1f\x8b\x08")
    if start < 0:
        return raw
    return zlib.decompressobj(wbits=31).decompress(raw[start:])


@dataclass
class Kernel:
    version: str
    aliases: list[tuple[str, str]]  # (pattern, module) from modules.alias
    builtin: list[tuple[str, str]]  # (pattern, module) from modules.builtin.modinfo
    dtbs: Path
    # The uncompressed kernel image: a built-in driver's match table holds its compatible
    # strings there (built-in drivers have no entry in modules.alias, and modules.builtin.modinfo
    # lists only their MODULE_ALIAS()es)
    image: bytes = b""

    @classmethod
    def of_root(cls, root: Path) -> Kernel:
        (moddir,) = [p for p in (root / "usr/lib/modules").iterdir() if p.is_dir()]
        aliases = []
        for line in (moddir / "modules.alias").read_text().splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[0] == "alias" and parts[1].startswith("of:"):
                aliases.append((parts[1], parts[2]))
        builtin = []
        for entry in (moddir / "modules.builtin.modinfo").read_bytes().split(b"\0"):
            text = entry.decode(errors="replace")
            mod, _, rest = text.partition(".alias=")
            if rest.startswith("of:"):
                builtin.append((rest, mod))
        dtbs = root / f"usr/lib/linux-image-{moddir.name}/broadcom"
        vmlinuz = next((p for p in (root / f"boot/vmlinuz-{moddir.name}",
                                    root / f"boot/firmware/vmlinuz-{moddir.name}") if p.is_file()),
                       None)
        if vmlinuz is None:
            raise FileNotFoundError(f"no vmlinuz-{moddir.name} in {root}/boot")
        return cls(moddir.name, aliases, builtin, dtbs, kernel_image(vmlinuz))

    def drivers(self, node: Node) -> tuple[set[str], set[str]]:
        """(modules, built-in drivers) that bind this node. A module wins over a compatible
        string found in the kernel image: the module must then be in the initramfs."""
        alias = modalias(node)
        mods = {m for p, m in self.aliases if fnmatch.fnmatchcase(alias, p)}
        built = {m for p, m in self.builtin if fnmatch.fnmatchcase(alias, p)}
        if not mods and not built:
            built = {f"built in ({c})" for c in node.strings("compatible")
                     if b"\0" + c.encode() + b"\0" in self.image}
        return mods, built


@dataclass
class Need:
    node: str
    compatible: list[str]
    modules: set[str]
    builtin: set[str]


def needs(tree: Tree, kernel: Kernel) -> list[Need]:
    out = []
    for node in tree.root_path():
        compatible = node.strings("compatible")
        if not compatible or set(compatible) & EARLY:
            continue
        mods, built = kernel.drivers(node)
        out.append(Need(node.path, compatible, mods, built))
    return out


def derive(root: Path) -> tuple[list[str], list[str]]:
    """(modules for the initramfs, problems) over every claimed device tree."""
    kernel = Kernel.of_root(root)
    modules: set[str] = set()
    problems = []
    for model, dtb in CLAIMED.items():
        path = kernel.dtbs / dtb
        if not path.is_file():
            problems.append(f"{model}: {dtb} is not in the kernel package")
            continue
        tree = Tree(path.read_bytes())
        if not tree.sd_hosts():
            problems.append(f"{model}: {dtb} has no enabled SD host")
        for need in needs(tree, kernel):
            if not need.modules and not need.builtin:
                problems.append(f"{model}: no driver in this kernel for {need.node} "
                                f"({', '.join(need.compatible)})")
            if not need.builtin:
                modules |= need.modules
    return sorted(modules), problems


def initrd_files(initrd: Path) -> list[str]:
    """The paths in a (zstd, gzip or plain) newc cpio initramfs."""
    raw = initrd.read_bytes()
    if raw[:4] == b"\x28\xb5\x2f\xfd":
        raw = subprocess.run(["zstd", "-dc"], input=raw, capture_output=True, check=True).stdout
    elif raw[:2] == b"\x1f\x8b":
        import gzip
        raw = gzip.decompress(raw)
    names, pos = [], 0
    while pos + 110 <= len(raw):
        if raw[pos:pos + 6] not in (b"070701", b"070702"):
            pos += 1  # padding between concatenated archives
            continue
        namesize = int(raw[pos + 94: pos + 102], 16)
        filesize = int(raw[pos + 54: pos + 62], 16)
        name = raw[pos + 110: pos + 110 + namesize - 1].decode()
        pos = (pos + 110 + namesize + 3) & ~3
        pos = (pos + filesize + 3) & ~3
        if name == "TRAILER!!!":
            continue
        names.append(name)
    return names


def norm(module: str) -> str:
    return module.replace("-", "_")


def check(root: Path, bootfs: Path) -> list[str]:
    """Problems that would keep a claimed board from reaching its root; [] when none."""
    kernel = Kernel.of_root(root)
    problems = []
    initrds = sorted(bootfs.glob("initrd.img*"))
    if not initrds:
        return [f"no initrd on {bootfs}"]
    packed = {norm(re.sub(r"\.ko(\.\w+)?$", "", Path(f).name)) for f in initrd_files(initrds[-1])
              if re.search(r"\.ko(\.\w+)?$", f)}
    for model, dtb in CLAIMED.items():
        if not (bootfs / dtb).is_file():
            problems.append(f"{model}: {dtb} is not on the boot partition")
            continue
        tree = Tree((bootfs / dtb).read_bytes())
        if not tree.sd_hosts():
            problems.append(f"{model}: {dtb} has no enabled SD host")
        for need in needs(tree, kernel):
            if need.builtin:
                continue
            if not need.modules:
                problems.append(f"{model}: no driver in this kernel for {need.node} "
                                f"({', '.join(need.compatible)})")
            elif not {norm(m) for m in need.modules} & packed:
                problems.append(f"{model}: {need.node} ({need.compatible[0]}) needs "
                                f"{' or '.join(sorted(need.modules))}, which is a module and not "
                                f"in {initrds[-1].name}: the SD card would never appear")
    return problems


def report(root: Path) -> str:
    """Per board: each node on the root path and what drives it (for the build log)."""
    kernel = Kernel.of_root(root)
    lines = []
    for model, dtb in CLAIMED.items():
        path = kernel.dtbs / dtb
        if not path.is_file():
            continue
        lines.append(f"{model} ({dtb}):")
        for need in sorted(needs(Tree(path.read_bytes()), kernel), key=lambda n: n.node):
            how = ("built in" if need.builtin else
                   "module " + ",".join(sorted(need.modules)) if need.modules else "NO DRIVER")
            lines.append(f"  {need.node} [{need.compatible[0]}]: {how}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "derive":
        modules, problems = derive(Path(argv[1]))
        for p in problems:
            print(f"root_drivers: {p}", file=sys.stderr)
        print("\n".join(modules))
        return 1 if problems else 0
    if len(argv) >= 2 and argv[0] == "report":
        print(report(Path(argv[1])))
        return 0
    if len(argv) >= 3 and argv[0] == "check":
        problems = check(Path(argv[1]), Path(argv[2]))
        for p in problems:
            print(f"root_drivers: {p}", file=sys.stderr)
        if not problems:
            print(f"   every claimed board reaches its root: {', '.join(CLAIMED)}")
        return 1 if problems else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
