"""Play complete games through a real `tabletap run --sim` daemon (evenings.py, writes.py).

The soak (tools/soak.py) kills daemons in the middle of games; these tools need the other thing:
whole games, one after another, on one state folder, the way a family's table lives for years.
A `Table` starts the real daemon on a config, starts games over the control socket (`{"new":
...}`, what a game card does), and plays each to its end with legal actions chosen by the game's
own self-play policy (`{"do": ..., "id": ...}`, what `tabletap do` sends). The game is followed
locally from the journal's last entry, so the chance outcomes the daemon drew are the ones
followed, and nothing here reaches into the daemon's memory.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tabletap.controller.control_socket.server import NoAnswer, request, socket_path  # noqa: E402
from tabletap.controller.state.journal import Journal  # noqa: E402

TABLETAP = [sys.executable, "-m", "tabletap.controller.cli"]
READY_TIMEOUT = 60.0
MAX_MOVES = 5000  # a game still going after this many actions is abandoned (and counted)


@dataclass(frozen=True)
class Case:
    """One kind of game: the soak's cases (each game spec's `soak`), without those that need
    a different backend (a `new` request cannot change the daemon's outputs)."""

    label: str
    game: str
    players: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)


def cases(shipped_only: bool = True) -> list[Case]:
    """Every installed game's soak cases on the default backend; with `shipped_only`, only the
    games of tabletap itself (not examples/memory, when it is installed)."""
    from tabletap.controller.games import registry

    out = []
    for spec in registry.games():
        if shipped_only and not _shipped(spec.name):
            continue
        for case in spec.soak:
            extra = dict(case.extra)
            if set(extra) - {"options", "setup"}:
                continue  # another backend (the simulated Pico): the soak covers it
            out.append(Case(case.label, spec.name, tuple(case.players),
                            dict(extra.get("options", {})), dict(extra.get("setup", {}))))
    return out


def _shipped(game: str) -> bool:
    from importlib.metadata import entry_points

    return any(ep.name == game and ep.value.startswith("tabletap.")
               for ep in entry_points(group="tabletap.games"))


def rss_bytes(pid: int) -> int:
    """The process's resident set (VmRSS), in bytes; 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def last_entry(path: Path) -> dict[str, Any]:
    """The journal's last whole line, read from its tail only (a game's journal grows to
    hundreds of kilobytes; reading it whole after every move would be quadratic)."""
    with open(path, "rb") as fh:
        size = fh.seek(0, os.SEEK_END)
        fh.seek(max(0, size - 65536))
        lines = [ln for ln in fh.read().split(b"\n") if ln]
    return json.loads(lines[-1])


class Table:
    """One real daemon on one state folder, restarted as often as asked."""

    def __init__(self, folder: Path, log: Path, seed: int = 1, log_level: str | None = None
                 ) -> None:
        self.folder = folder
        self.log = log
        self.seed = seed
        self.log_level = log_level
        self.proc: subprocess.Popen[bytes] | None = None
        self.sock = socket_path(folder)
        self.journal = folder / "journal.jsonl"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self, case: Case) -> float:
        """Start the daemon; it resumes the unfinished game, or starts `case`'s. Returns the
        seconds to the first answered request."""
        config = {"state_dir": str(self.folder), "game": case.game, "players": list(case.players),
                  "seed": self.seed, "options": case.options, "setup": case.setup}
        if self.log_level:
            config["log_level"] = self.log_level
        path = self.folder.parent / f"{self.folder.name}.yaml"
        path.write_text(json.dumps(config))  # JSON is YAML
        started = time.monotonic()
        with open(self.log, "ab") as out:
            # stdout too: the simulator's console answers are the daemon's output as well
            self.proc = subprocess.Popen([*TABLETAP, "run", "--sim", "--config", str(path)],
                                         stdin=subprocess.PIPE, stdout=out, stderr=out, cwd=ROOT)
        while time.monotonic() - started < READY_TIMEOUT:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the daemon exited with {self.proc.returncode}; see {self.log}")
            try:
                if request(self.sock, {"state": True}, timeout=5).get("ok"):
                    return time.monotonic() - started
            except (OSError, NoAnswer):
                pass
            time.sleep(0.02)
        raise RuntimeError(f"the daemon was not ready in {READY_TIMEOUT:g} s; see {self.log}")

    def stop(self, how: int = signal.SIGTERM) -> None:
        """SIGTERM (the box shut down) or SIGKILL (the plug pulled)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(how)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        self.proc = None

    def new_game(self, case: Case) -> None:
        """What a game card does: a new game (the finished one is archived)."""
        reply = request(self.sock, {"new": {"game": case.game, "players": list(case.players),
                                            "options": case.options}}, timeout=30)
        if not reply.get("ok") or not reply.get("accepted", True):
            raise RuntimeError(f"the daemon refused a new {case.label} game: {reply}")

    def playing(self) -> bool:
        """Whether a game is under way (not over)."""
        engine, state = self._follow()
        return not engine.is_over(state)

    def _follow(self) -> tuple[Any, Any]:
        replayed = Journal(self.journal).replay(repair=False)
        return replayed.engine, replayed.state

    def play(self, rng: random.Random, max_moves: int = MAX_MOVES) -> tuple[int, bool]:
        """Play the game under way to its end. Returns (accepted moves, whether it ended)."""
        from tabletap.controller.games import registry

        engine, state = self._follow()
        game = Journal(self.journal).replay(repair=False).header.game
        # each game's policy for a family-length game (its spec's `selfplay.family_policy`):
        # random where uniform play ends in a family's time, purposeful where it wanders
        selfplay = registry.game(game).selfplay
        choose = selfplay.policies[selfplay.family_policy]
        moves = refused = 0
        while not engine.is_over(state):
            if moves >= max_moves:
                return moves, False
            legal = engine.legal_actions(state)
            if not legal:
                return moves, False
            data = dict(engine.action_to_json(choose(engine, state, legal, rng)))
            if "type" in data:  # an engine's own form; the console's is {action: ...}
                data["action"] = data.pop("type")
            data = {k: v for k, v in data.items() if v is not None}
            reply = request(self.sock, {"do": data, "id": uuid.uuid4().hex}, timeout=30)
            if not reply.get("ok"):
                raise RuntimeError(f"the daemon could not take {data}: {reply}")
            if not reply.get("accepted"):
                refused += 1  # a legal action the table layer refused (rare): choose again
                if refused > 100:
                    raise RuntimeError(f"the daemon refused 100 legal actions in a row: {reply}")
                continue
            moves, refused = moves + 1, 0
            entry = last_entry(self.journal)
            for action in entry.get("actions") or [entry.get("action")]:
                state = engine.apply(state, engine.action_from_json(action)).state
        return moves, True
