"""`doctor` for the running table, as the phone page shows it.

`tabletap doctor` opens every device itself, which it cannot while the daemon holds them; this
checks what the daemon has open, without moving anything a family is using: each reader answers
one extra poll (as `tabletap doctor` asks it, with the same hints), and the state folder, which
holds the journal, must be writable with room to spare. The chest and the lights are not swept
or flashed in the middle of a game; `tabletap doctor` at a console does that.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from tabletap.controller.commands.doctor import Finding, _guard, check_reader

LOW_SPACE = 50 * 1024 * 1024  # the journal is small, but a full card loses the next move


def check_state_folder(folder: str | Path) -> Finding:
    device = "state folder"
    path = Path(folder)
    if not os.access(path, os.W_OK):
        return Finding("failed", device, f"{path} is not writable: moves cannot be saved")
    free = shutil.disk_usage(path).free
    if free < LOW_SPACE:
        return Finding("warning", device, f"{path}: only {free // 2**20} MiB free; make room "
                       "before the card fills and a move cannot be saved")
    return Finding("ok", device, f"{path}: writable, {free // 2**20} MiB free")


def table_findings(daemon: Any) -> list[Finding]:
    config = daemon.session.config
    findings: list[Finding] = []
    for name, reader in daemon.readers.items():
        transport = config.readers[name].transport
        findings += _guard(f"reader {name}",
                           lambda n=name, r=reader, t=transport: check_reader(n, r, t))
    findings.append(check_state_folder(config.state_dir))
    return findings
