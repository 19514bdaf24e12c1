"""`make soak`: SIGKILL real `tabletap run --sim` daemons at random moments, for N cycles.

Each cycle starts a daemon on a state folder (resuming the game there), checks the resume, plays
random legal moves through the control socket (`do` requests with ids, as `tabletap do` sends
them) and SIGKILLs the daemon at a random moment: during start-up, between moves, or in the
middle of one. Faults ride along at random: a reader unplugged and plugged again, the simulated
Pico's USB line unplugged or noisy (games on `backend: serial`), and a full disk (a small tmpfs
filled to the last byte, then freed; needs root to mount, skipped otherwise).

Checked after every restart, from the journal and the daemon's answers:
- exact resume: the resumed state equals the state last answered before the kill (or, when the
  move in flight at the kill was saved, the journal replayed independently here);
- lost: a move the daemon answered as accepted that the journal does not hold;
- doubled: a request id the journal holds twice, or more moves than were accepted;
- start failures and restart-to-ready time (process start to the first answered request).

    python tools/soak.py --cycles 1000        (make soak CYCLES=1000)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tabletap.controller.control_socket.server import NoAnswer, request, socket_path  # noqa: E402
from tabletap.controller.state.journal import Journal, JournalError  # noqa: E402

TABLETAP = [sys.executable, "-m", "tabletap.controller.cli"]
READY_TIMEOUT = 60.0


def _games() -> list[tuple[str, str, tuple[str, ...], dict[str, Any]]]:
    """(label, game, players, extra config) of every installed game's soak cases (its spec's
    `soak`)."""
    from tabletap.controller.games import registry

    return [(case.label, spec.name, case.players, dict(case.extra))
            for spec in registry.games() for case in spec.soak]


@dataclass
class Tally:
    cycles: int = 0
    resumes_checked: int = 0
    exact: int = 0
    inexact: list[str] = field(default_factory=list)
    lost: int = 0
    doubled: int = 0
    start_failures: list[str] = field(default_factory=list)
    ready_seconds: list[float] = field(default_factory=list)
    kills_in_startup: int = 0
    kills_mid_request: int = 0
    in_flight_saved: int = 0
    in_flight_not_saved: int = 0
    accepted: int = 0
    rejected: int = 0
    disk_full_refusals: int = 0
    disk_full_episodes: int = 0
    reader_unplugs: int = 0
    pico_faults: int = 0
    games_finished: int = 0
    games: dict[str, int] = field(default_factory=dict)

    def report(self) -> dict[str, Any]:
        ready = sorted(self.ready_seconds)

        def pct(p: float) -> float:
            return round(ready[min(len(ready) - 1, int(p * len(ready)))], 3) if ready else 0.0

        return {
            "cycles": self.cycles, "resumes_checked": self.resumes_checked,
            "exact_resumes": self.exact, "inexact_resumes": self.inexact[:10],
            "lost_actions": self.lost, "doubled_actions": self.doubled,
            "start_failures": len(self.start_failures),
            "start_failure_samples": self.start_failures[:5],
            "restart_to_ready_s": {"median": round(statistics.median(ready), 3) if ready else 0,
                                   "p95": pct(0.95), "max": round(max(ready), 3) if ready else 0},
            "kills_in_startup": self.kills_in_startup,
            "kills_mid_request": self.kills_mid_request,
            "in_flight_saved": self.in_flight_saved,
            "in_flight_not_saved": self.in_flight_not_saved,
            "accepted_moves": self.accepted, "rejected_moves": self.rejected,
            "disk_full_episodes": self.disk_full_episodes,
            "disk_full_refusals": self.disk_full_refusals,
            "reader_unplugs": self.reader_unplugs, "pico_faults": self.pico_faults,
            "games_finished": self.games_finished, "cycles_per_game": self.games,
        }


@dataclass
class Run:
    """One game on one state folder, across as many daemon lifetimes as it takes."""

    label: str
    game: str
    folder: Path
    config: Path
    engine: Any = None
    state: Any = None
    acked: set[str] = field(default_factory=set)  # request ids answered `accepted`
    last_view: dict[str, Any] | None = None  # the state last answered, after the last ack
    in_flight: str | None = None  # a `do` sent whose answer never came
    header_seed: int | None = None

    @property
    def journal(self) -> Path:
        return self.folder / "journal.jsonl"


def _new_run(rng: random.Random, base: Path, n: int) -> Run:
    games = _games()
    label, game, seats, extra = games[n % len(games)]
    folder = base / f"run{n:04d}-{label}"
    players = list(seats)
    config = {"state_dir": str(folder), "game": game, "players": players,
              "seed": rng.randrange(2**31), "log_level": "warning", **extra}
    base.mkdir(parents=True, exist_ok=True)
    path = base / f"run{n:04d}.yaml"
    path.write_text(json.dumps(config))  # JSON is YAML
    return Run(label, game, folder, path)


def _journal_ids(path: Path) -> list[str]:
    ids = []
    for line in path.read_bytes().split(b"\n")[1:]:
        if not line:
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue  # a torn tail: the daemon drops it at start
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            ids.append(entry["id"])
    return ids


def _ready(proc: subprocess.Popen[bytes], sock: Path, started: float
           ) -> tuple[dict[str, Any] | None, str]:
    """The first answered state request, or None and why."""
    while time.monotonic() - started < READY_TIMEOUT:
        if proc.poll() is not None:
            return None, f"exited with {proc.returncode}"
        try:
            reply = request(sock, {"state": True, "reveal": True}, timeout=5)
            if reply.get("ok"):
                return reply, ""
        except (OSError, NoAnswer):
            pass
        time.sleep(0.02)
    return None, f"not ready in {READY_TIMEOUT:g} s"


def _load_local(run: Run) -> None:
    replayed = Journal(run.journal).replay(repair=False)
    run.engine, run.state = replayed.engine, replayed.state


def _apply_last_entry(run: Run) -> None:
    """Follow the game locally: apply the actions of the journal's last entry."""
    lines = [ln for ln in run.journal.read_bytes().split(b"\n") if ln]
    entry = json.loads(lines[-1])
    actions = entry.get("actions") or [entry.get("action")]
    for action in actions:
        run.state = run.engine.apply(run.state, run.engine.action_from_json(action)).state


def _pick(run: Run, rng: random.Random) -> dict[str, Any] | None:
    legal = run.engine.legal_actions(run.state)
    if not legal:
        return None
    data = dict(run.engine.action_to_json(rng.choice(legal)))
    if "type" in data:  # an engine's own form; the console's is {action: ...}
        data["action"] = data.pop("type")
    return {k: v for k, v in data.items() if v is not None}


class DiskFiller:
    """A small tmpfs that can be filled to the last byte and freed again."""

    def __init__(self, mount: Path) -> None:
        self.mount = mount
        self.filler = mount / "filler"

    def fill(self) -> None:
        with open(self.filler, "ab", buffering=0) as fh:
            while True:
                try:
                    if not fh.write(b"\0" * 4096):
                        return
                except OSError:
                    return

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)


def _mount_tmpfs(path: Path, size: str) -> bool:
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs",
                           str(path)], capture_output=True)
    return done.returncode == 0


def _check_resume(run: Run, view: dict[str, Any], tally: Tally) -> None:
    """Exactness, losses and doubles, right after a restart."""
    ids = _journal_ids(run.journal)
    counts: dict[str, int] = {}
    for i in ids:
        counts[i] = counts.get(i, 0) + 1
    tally.doubled += sum(c - 1 for c in counts.values() if c > 1)
    tally.lost += len(run.acked - set(counts))
    run.acked &= set(counts)  # each loss counted once
    saved = run.in_flight is not None and run.in_flight in counts
    if run.in_flight is not None:
        if saved:
            tally.in_flight_saved += 1
        else:
            tally.in_flight_not_saved += 1
    if run.in_flight is not None and saved:
        run.acked.add(run.in_flight)
    extra = set(counts) - run.acked
    tally.doubled += len(extra)  # saved moves nobody was told about, beyond the one in flight
    try:
        replayed = Journal(run.journal).replay(repair=False)
        independent = json.loads(json.dumps(replayed.engine.public_view(replayed.state, True)))
    except JournalError as exc:
        tally.inexact.append(f"{run.folder.name}: {exc}")
        return
    tally.resumes_checked += 1
    problems = []
    if view != independent:
        problems.append("the daemon's state differs from the journal's")
    if run.last_view is not None and not saved and view != run.last_view:
        problems.append("the resumed state differs from the last state answered before the kill")
    if problems:
        tally.inexact.append(f"{run.folder.name}: {'; '.join(problems)}")
    else:
        tally.exact += 1
    run.in_flight = None
    run.last_view = view


def cycle(run: Run, rng: random.Random, tally: Tally, disk: DiskFiller | None,
          log: Path) -> bool:
    """One daemon lifetime. Returns False when the run's game is over (start a new run)."""
    if run.engine is not None and run.in_flight is not None:
        # The move in flight at the last kill may have ended the game; a daemon would then
        # start a new one over it. Account for it from the journal before that can happen.
        _load_local(run)
        if run.engine.is_over(run.state):
            saved = run.in_flight in _journal_ids(run.journal)
            tally.in_flight_saved += saved
            tally.games_finished += 1
            return False
    tally.cycles += 1
    tally.games[run.label] = tally.games.get(run.label, 0) + 1
    sock = socket_path(run.folder)
    kill_in_startup = rng.random() < 0.1
    with open(log, "ab") as err:
        started = time.monotonic()
        proc = subprocess.Popen([*TABLETAP, "run", "--sim", "--config", str(run.config)],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err,
                                cwd=ROOT)
    try:
        if kill_in_startup:
            time.sleep(rng.uniform(0.0, 1.0))
            if proc.poll() is None:
                tally.kills_in_startup += 1
                return True
        reply, why = _ready(proc, sock, started)
        if reply is None:
            tally.start_failures.append(f"{run.folder.name}: {why}")
            return True
        tally.ready_seconds.append(time.monotonic() - started)
        view = reply["state"]
        if run.journal.exists() and run.engine is None and run.last_view is None \
                and not run.acked:
            pass  # first start of this run: nothing to compare yet
        else:
            _check_resume(run, view, tally)
        run.last_view = view
        _load_local(run)
        return _play(run, proc, rng, tally, disk)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait()
        if proc.stdin is not None:
            try:
                proc.stdin.close()
            except OSError:
                pass


def _console(proc: subprocess.Popen[bytes], line: str) -> None:
    try:
        assert proc.stdin is not None
        proc.stdin.write(line.encode() + b"\n")
        proc.stdin.flush()
    except OSError:
        pass


def _play(run: Run, proc: subprocess.Popen[bytes], rng: random.Random, tally: Tally,
          disk: DiskFiller | None) -> bool:
    sock = socket_path(run.folder)
    deadline = time.monotonic() + rng.uniform(0.05, 2.0)
    killer = threading.Timer(max(0.0, deadline - time.monotonic()),
                             lambda: proc.poll() is None and proc.send_signal(signal.SIGKILL))
    killer.start()
    full = False
    try:
        while proc.poll() is None:
            roll = rng.random()
            if roll < 0.04:
                _console(proc, f"{rng.choice(['unplug', 'plug'])} chest")
                tally.reader_unplugs += 1
            elif roll < 0.08 and run.label.endswith("pico"):
                _console(proc, rng.choice(["pico unplug", "pico plug", "pico noise 0.02",
                                           "pico noise 0"]))
                tally.pico_faults += 1
            elif roll < 0.11 and disk is not None and not full:
                disk.fill()
                full = True
                tally.disk_full_episodes += 1
            elif full and roll < 0.08:
                disk.free()  # type: ignore[union-attr]
                full = False
            action = _pick(run, rng)
            if action is None:  # no legal move: the game is over
                tally.games_finished += 1
                return False
            rid = uuid.uuid4().hex
            run.in_flight = rid
            try:
                answer = request(sock, {"do": action, "id": rid}, timeout=10)
            except (NoAnswer, OSError):
                tally.kills_mid_request += 1
                return True  # killed mid-request: the in-flight id is checked at restart
            run.in_flight = None
            if not answer.get("ok"):
                continue
            if answer.get("accepted"):
                tally.accepted += 1
                run.acked.add(rid)
                _apply_last_entry(run)
                if run.engine.is_over(run.state):
                    tally.games_finished += 1
                    return False  # the next start would begin a new game: a new run
                try:
                    state = request(sock, {"state": True, "reveal": True}, timeout=10)
                    run.last_view = state["state"]
                except (NoAnswer, OSError, KeyError):
                    run.last_view = None  # killed before we saw it: the journal decides
                    return True
            else:
                tally.rejected += 1
                if answer.get("rejected") == "journal-error":
                    tally.disk_full_refusals += 1
        return True
    finally:
        killer.cancel()
        if disk is not None:
            disk.free()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cycles", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write the report here as JSON too")
    parser.add_argument("--keep", action="store_true", help="keep the state folders")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # still unmount and report
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="tabletap-soak-"))
    disk_mount = work / "disk"
    disk = DiskFiller(disk_mount) if _mount_tmpfs(disk_mount, "2m") else None
    if disk is None:
        print("note: no tmpfs (needs root): the full-disk fault is skipped", flush=True)
    tally = Tally()
    log = work / "daemons.log"
    n = 0
    run = _new_run(rng, disk_mount if disk else work, n)
    started = time.monotonic()
    try:
        while tally.cycles < args.cycles:
            if not cycle(run, rng, tally, disk, log):
                if run.folder.exists() and not args.keep:
                    shutil.rmtree(run.folder, ignore_errors=True)
                n += 1
                run = _new_run(rng, disk_mount if disk else work, n)
            elif rng.random() < 0.1:  # move on to another game now and then
                n += 1
                run = _new_run(rng, disk_mount if disk else work, n)
            if tally.cycles % 25 == 0:
                r = tally.report()
                print(f"[{time.monotonic() - started:6.0f} s] {r['cycles']} cycles: "
                      f"{r['exact_resumes']}/{r['resumes_checked']} exact, lost "
                      f"{r['lost_actions']}, doubled {r['doubled_actions']}, start failures "
                      f"{r['start_failures']}", flush=True)
    finally:
        if disk is not None:
            disk.free()
            subprocess.run(["umount", "-l", str(disk_mount)], check=False)
        report = tally.report()
        report["wall_seconds"] = round(time.monotonic() - started)
        report["daemon_log"] = str(log)
        print(json.dumps(report, indent=2))
        if args.out:
            args.out.write_text(json.dumps(report, indent=2) + "\n")
    bad = report["lost_actions"] or report["doubled_actions"] or report["start_failures"] \
        or report["exact_resumes"] != report["resumes_checked"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
