"""The daemon and the page as `tests/web/table.py` starts them, with what a box adds around
them: the page under a lowered descriptor limit (systemd's `LimitNOFILE=`), and each process
as its own user (the units' `User=`), the state folder made first as `StateDirectory=` would."""

from __future__ import annotations

import os
import resource
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tests.web.table import ENV, KINGDOMINO, Table, _wait, free_port

CLI = ["-m", "tabletap.controller.cli"]


@dataclass(frozen=True)
class User:
    """Who a process runs as: its uid, its primary group and its other groups."""

    uid: int
    gid: int
    groups: tuple[int, ...] = ()

    def popen(self) -> dict[str, Any]:
        return {"user": self.uid, "group": self.gid, "extra_groups": list(self.groups)}


def _reachable_by_all(path: Path) -> bool:
    """Whether any user may run `path`: every folder above it searchable by others."""
    real = path.resolve()
    folders = real.parents
    return all(stat.S_IMODE(p.stat().st_mode) & 0o001 for p in folders) and bool(
        stat.S_IMODE(real.stat().st_mode) & 0o001)


def python_for_others(shim: Path) -> tuple[str, dict[str, str]] | None:
    """A Python other uids may run with this checkout's packages, and its environment.

    The venv's interpreter may live under /root (pyenv), which no other user may enter; then
    the system's Python of the same version runs with the venv's site-packages added by a
    `sitecustomize` in `shim` (a folder others can read). None when there is neither."""
    if _reachable_by_all(Path(sys.executable)):
        return sys.executable, dict(ENV)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    system = shutil.which(version, path="/usr/bin:/usr/local/bin")
    if system is None or not _reachable_by_all(Path(system)):
        return None
    site_packages = next(p for p in sys.path if p.endswith("site-packages")
                         and p.startswith(sys.prefix))
    shim.mkdir(parents=True, exist_ok=True)
    (shim / "sitecustomize.py").write_text(
        f"import site\nsite.addsitedir({site_packages!r})\n")
    shim.chmod(0o755)
    return system, {**ENV, "PYTHONPATH": str(shim)}


def _nofile(limit: int) -> Callable[[], None]:
    def lower() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
    return lower


class BoxTable(Table):
    """A `Table` whose page may have at most `web_nofile` descriptors and whose processes may
    run as `daemon_as` and `web_as`; the config and state folder are laid out for them."""

    def __init__(self, folder: Path, *, web_nofile: int | None = None,
                 daemon_as: User | None = None, web_as: User | None = None,
                 pairing_attempts: int = 5, python: str = sys.executable,
                 env: dict[str, str] | None = None) -> None:
        self.folder = folder
        self.python, self.env = python, env or ENV
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.daemon_as, self.web_as = daemon_as, web_as
        config = {"state_dir": "state", **KINGDOMINO,
                  "web": {"enabled": True, "port": self.port, "bind": "127.0.0.1",
                          "mdns": False, "public": True, "pairing_seconds": 10,
                          "pairing_attempts": pairing_attempts}}
        self.config = folder / "table.yaml"
        self.config.write_text(yaml.safe_dump(config))
        state = folder / "state"
        if daemon_as is not None:
            # As StateDirectory=tabletap with StateDirectoryMode=0710 makes it on the box.
            state.mkdir(mode=0o710)
            state.chmod(0o710)
            os.chown(state, daemon_as.uid, daemon_as.gid)
            os.chown(self.config, 0, daemon_as.gid)
            self.config.chmod(0o640)
        self.sock = state / "control.sock"
        self.daemon_log = open(folder / "daemon.log", "w")  # noqa: SIM115 - closed in stop()
        self.web_log = open(folder / "web.log", "w")  # noqa: SIM115
        self.daemon = self.start_daemon()
        extra: dict[str, Any] = web_as.popen() if web_as is not None else {}
        if web_nofile is not None:
            extra["preexec_fn"] = _nofile(web_nofile)
        self.web = subprocess.Popen([self.python, *CLI, "web", "--config", str(self.config)],
                                    stdout=self.web_log, stderr=subprocess.STDOUT, env=self.env,
                                    cwd=folder, **extra)
        try:
            _wait(self.sock.exists, "the daemon's control socket")
            _wait(self._web_up, "the page")
        except AssertionError:
            self.stop()
            raise

    def start_daemon(self) -> subprocess.Popen[str]:
        extra = self.daemon_as.popen() if self.daemon_as is not None else {}
        return subprocess.Popen([self.python, *CLI, "run", "--sim", "--config",
                                 str(self.config)],
                                stdin=subprocess.PIPE, stdout=self.daemon_log,
                                stderr=subprocess.STDOUT, text=True, env=self.env,
                                cwd=self.folder,
                                **extra)

    def web_log_text(self) -> str:
        if not self.web_log.closed:
            self.web_log.flush()
        return (self.folder / "web.log").read_text()
