"""The real daemon at a simulated table: `tabletap run` (no `--sim`) in its own process, with its
reader on a pseudo-terminal served by the emulated PN532 and its chest and lights on the
simulated Pico behind another, both in this process.

So the path measured is the one a family's box runs: real pyserial and the real adafruit_pn532
driver, tabletap's reader adapter, presence, the rules, the journal's append and fsync on the
state folder, the Pico link's framing, and the firmware's own code executing the command. The
daemon may be started under a CPU quota (cgroup.py); the emulators never are. Readiness is
systemd's: the daemon's READY=1 arrives on a notify socket this rig listens on.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from bench.demo import demo_game
from bench.live.cgroup import Quota
from bench.live.procstat import cpu_s
from tabletap.controller.control_socket.server import request
from tabletap.sim.board import SimBoard
from tabletap.sim.board.standins import Executed
from tabletap.sim.pn532.chip import Pn532Chip
from tabletap.sim.pn532.pty import PtyChip
from tabletap.sim.pn532.timing import default_timing
from tabletap.sim.world import SimTag, SimWorld

TABLETAP = str(Path(sys.executable).with_name("tabletap"))
BAUD = 115200
# Short chest and light times, so a trial's answer has finished before the next tap; they
# change when the latch relocks and the lights settle, nothing on the path measured.
OPEN_SECONDS = 0.25
FEEDBACK_SECONDS = 0.2


def bytecode_folder() -> Path:
    """Where the bench's daemons keep their bytecode between starts, as the box's installed
    wheel is kept compiled: this user's own cache folder ($XDG_CACHE_HOME, else ~/.cache),
    owner-only. It was a fixed folder in /tmp, shared by every user. After `sudo make bench`
    a developer's own run could not write there, so every start compiled the daemon again
    (start to READY 0.357 s and 2,733 M instructions where 0.078 s and 368 M were right); and
    a root run would load bytecode from a folder any local user could make first."""
    given = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(given) if os.path.isabs(given) else Path.home() / ".cache"
    folder = base / "tabletap-bench" / "pycache"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


# BENCH_DAEMON_PREFIX="python -m cProfile -o out.prof": the daemon run under a profiler
PREFIX = os.environ.get("BENCH_DAEMON_PREFIX", "").split()
# BENCH_DAEMON_PYTHONPATH: the daemon's code from elsewhere (a worktree of another commit), the
# emulators staying the bench's own
DAEMON_PATH = os.environ.get("BENCH_DAEMON_PYTHONPATH", "")


class LogTail:
    """The daemon's log lines, each stamped with the monotonic clock as it arrives."""

    def __init__(self, stream: Any) -> None:
        self.lines: list[tuple[float, str]] = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            with self.cond:
                self.lines.append((time.monotonic(), line.rstrip("\n")))
                self.cond.notify_all()

    def wait_for(self, text: str, after: float, timeout: float) -> float | None:
        """When the first line containing `text` arrived after `after`; None on timeout.

        The first, not the latest: a trial times its placement and its lift from the moment it
        made them, and a line that came later (another pass's) is not that answer. The lines
        are in arrival order, so the search starts at the first one after `after`."""
        def found() -> float | None:
            start = bisect.bisect_right(self.lines, after, key=lambda stamped: stamped[0])
            return next((t for t, line in self.lines[start:] if text in line), None)
        with self.cond:
            self.cond.wait_for(lambda: found() is not None, timeout)
            return found()


class Rig:
    """One table: emulators here, the daemon there. `start(quota)` runs a daemon (again)."""

    def __init__(self, folder: Path | None = None, open_seconds: float = OPEN_SECONDS,
                 feedback_seconds: float = FEEDBACK_SECONDS) -> None:
        """`open_seconds` and `feedback_seconds`: the chest's and the lights' times, the
        bench's short ones unless a run asks for the box's (bench.live.open_chest)."""
        self.open_seconds, self.feedback_seconds = open_seconds, feedback_seconds
        self._tmp = tempfile.TemporaryDirectory() if folder is None else None
        self.folder = Path(self._tmp.name) if self._tmp else Path(folder)  # type: ignore[arg-type]
        self.world = SimWorld(clock=time)  # type: ignore[arg-type]  # now() is not used
        self.chip = Pn532Chip(field=lambda: [t.memory for t in self.world.field_of("chest")],
                              timing=default_timing())
        self.pty = PtyChip(self.chip, baud=BAUD, armed_step=0.5)
        self.spec, self.demo = demo_game()
        self.board = SimBoard(inputs=self.world.inputs, seed=1).start()
        self.config = self.folder / "table.yaml"
        # The state folder exists before the daemon starts, as systemd makes the unit's
        # StateDirectory= (mode 0710) before its exec.
        (self.folder / "state").mkdir(mode=0o710, exist_ok=True)
        config = self._config()
        self.web_port = int(config["web"]["port"])
        self.config.write_text(yaml.safe_dump(config), encoding="utf-8")
        self.sock = self.folder / "state" / "control.sock"
        self.proc: subprocess.Popen[str] | None = None
        self.log: LogTail | None = None
        self.ready_s = 0.0
        self.ready_cpu_s = 0.0

    def _config(self) -> dict[str, Any]:
        return {
            "state_dir": str(self.folder / "state"),
            "game": self.spec.name, "players": list(self.demo.players), "seed": 1,
            "setup": dict(self.demo.setup), "options": dict(self.demo.options),
            "backend": "serial", "serial": {"port": self.board.port},
            "readers": {"chest": {"transport": "uart", "port": self.pty.port, "baud": BAUD}},
            "chest": {"open_seconds": self.open_seconds},
            "lights": {"feedback_seconds": self.feedback_seconds},
            "voice": {"enabled": False},
            "web": {"enabled": True, "port": _free_port(), "bind": "127.0.0.1", "mdns": False},
        }

    def start(self, quota: Quota | None = None, new: bool = True,
              prefix: list[str] | None = None, ready_timeout: float = 30) -> float:
        """Start `tabletap run` (under `quota` from before its exec, behind `prefix`, a
        profiler's command, BENCH_DAEMON_PREFIX by default); returns exec-to-READY."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
            path = self.folder / "notify.sock"
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            notify.bind(str(path))
            # NOTIFY_SOCKET and STATE_DIRECTORY as the box's unit gives them (Type=notify,
            # StateDirectory=): the daemon keeps its parsed YAML there between starts.
            env = {**os.environ, "NOTIFY_SOCKET": str(path), "PYTHONUNBUFFERED": "1",
                   "PYTHONPYCACHEPREFIX": str(bytecode_folder()),
                   "STATE_DIRECTORY": str(self.folder / "state")}
            # As the unit's stderr is the journal: systemd sets JOURNAL_STREAM, and the daemon
            # then logs every record with its sd-daemon priority and its play-by-play as records
            # too (service.py), where a shell's daemon prints the play-by-play. The value names
            # the stream's device and inode; the daemon only asks whether it is set.
            env["JOURNAL_STREAM"] = "0:0"
            if DAEMON_PATH:  # another commit's daemon (bench/live/compare.py)
                env["PYTHONPATH"] = DAEMON_PATH
            # As on the box, whose wheel is installed compiled: bytecode is kept (in a cache of
            # the bench's own, outside the tree), not compiled anew at every start.
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            started = time.monotonic()
            self.proc = subprocess.Popen(
                [*(PREFIX if prefix is None else prefix), TABLETAP, "run",
                 "--config", str(self.config), *(["--new"] if new else [])],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                text=True, env=env, cwd=self.folder,
                preexec_fn=quota.enter if quota is not None else None,  # noqa: PLW1509
            )
            notify.settimeout(ready_timeout)
            while b"READY=1" not in notify.recv(4096):
                pass
            self.ready_s = time.monotonic() - started
            self.ready_cpu_s = cpu_s(self.proc.pid)
        assert self.proc.stderr is not None
        self.log = LogTail(self.proc.stderr)
        self.wait_settled()
        return self.ready_s

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def ask(self, payload: dict[str, Any]) -> dict[str, Any]:
        return request(self.sock, payload, timeout=30)

    def wait_settled(self, quiet: float = 0.3, limit: float = 10.0) -> None:
        """Until the board has executed nothing for `quiet` seconds (start-up's commands, the
        last trial's relock and resting lights)."""
        rec = self.board.recorder
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            last = rec.executed[-1].t if rec.executed else 0.0
            if time.monotonic() - last >= quiet:
                return
            time.sleep(quiet / 3)

    def executed(self, after: float, match: Callable[[dict[str, Any]], bool],
                 timeout: float) -> float | None:
        """When the board first executed a command `match` accepts, after `after`."""
        rec = self.board.recorder

        def first() -> Executed | None:
            return next((e for e in rec.executed if e.t > after and match(e.body)), None)
        rec.wait_for(lambda: first() is not None, timeout)
        found = first()
        return None if found is None else found.t

    def place(self, tag: SimTag) -> float:
        t = time.monotonic()
        self.world.place("chest", tag)
        self.pty.poke()
        return t

    def lift(self, tag: SimTag) -> float:
        t = time.monotonic()
        self.world.remove("chest", tag.uid)
        self.pty.poke()
        return t

    def web(self) -> subprocess.Popen[bytes]:
        """`tabletap web` on the same config (the page's process), from the daemon's code
        (BENCH_DAEMON_PYTHONPATH): the two speak one protocol."""
        env = {**os.environ, "PYTHONPATH": DAEMON_PATH} if DAEMON_PATH else None
        return subprocess.Popen([TABLETAP, "web", "--config", str(self.config)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                cwd=self.folder, env=env)

    @property
    def web_url(self) -> str:
        return f"http://127.0.0.1:{self.web_port}"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def close(self) -> None:
        self.stop()
        self.board.close()
        self.pty.close()
        if self._tmp is not None:
            self._tmp.cleanup()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
