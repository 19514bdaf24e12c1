"""`make soak`: SIGKILL real `tabletap run --sim` daemons at random moments, for N cycles.

Each cycle starts a daemon on a state folder (resuming the game there), checks the resume, plays
random legal moves through the control socket (`do` requests with ids, as `tabletap do` sends
them) and SIGKILLs the daemon at a random moment: during start-up, between moves, or in the
middle of one. A share of the cycles (AIM_SHARE) aims its kill instead at the narrow window
between a move's journal write and its answer: it sends the request, polls the journal's size
and SIGKILLs the daemon the moment the journal grows, before the answer (at random, 0 of 63
mid-request kills landed there). Faults ride along at random: a reader unplugged and plugged
again, the simulated Pico's USB line unplugged or noisy (games on `backend: serial`), and a full
disk (every other game on a small tmpfs filled to the last byte, then freed; needs root to
mount, skipped otherwise; the other games on the machine's disk, where an fsync takes as long as
on a card, so the window is wide enough to hit).

Checked after every restart, from the journal and the daemon's answers:
- exact resume: the resumed state equals the state last answered before the kill (or, when the
  move in flight at the kill was saved, the journal replayed independently here);
- lost: a move the daemon answered as accepted that the journal does not hold;
- doubled: a request id the journal holds twice, or more moves than were accepted;
- start failures and restart-to-ready time (process start to the first answered request);
- where every kill that cut a request landed: before the move was saved, saved but unanswered
  (the window), or after the answer had left, from the journal after the kill and what the
  client received; and whether the window was handled: after the restart the move is in the
  journal exactly once, and the same request retried with the same id (what `tabletap do`
  does) is answered "already done" without acting again. A request cut before the save is
  retried the same way and must act as new.

    python tools/soak.py --cycles 1000        (make soak CYCLES=1000)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import shutil
import signal
import socket
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
AIM_SHARE = 0.35  # of the cycles that aim their kill at the saved-but-unanswered window
AIM_HITS_EXPECTED = 20  # aimed kills after which a window never hit means the aim broke
BEFORE, WINDOW, ANSWERED = "before-save", "saved-unanswered", "answered"


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
    aimed_kills: int = 0
    # where each kill that cut a request landed, by how it was timed ("aimed" or "random")
    landed: dict[str, dict[str, int]] = field(default_factory=lambda: {
        "aimed": {BEFORE: 0, WINDOW: 0, ANSWERED: 0}, "random": {BEFORE: 0, WINDOW: 0}})
    window_handled: int = 0
    window_mishandled: list[str] = field(default_factory=list)
    window_ended_game: int = 0  # saved-unanswered moves that ended the game
    # ...and their retry after the restart, which has started a new game by then
    window_ended_recognised: int = 0
    window_ended_not_recognised: list[str] = field(default_factory=list)
    retried_unsaved: int = 0
    retried_unsaved_wrong: list[str] = field(default_factory=list)

    @property
    def window_hits(self) -> int:
        return self.landed["aimed"][WINDOW] + self.landed["random"][WINDOW]

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
            "aimed_kills": self.aimed_kills, "kills_landed": self.landed,
            "window_hits": self.window_hits, "window_handled": self.window_handled,
            "window_mishandled": len(self.window_mishandled),
            "window_mishandled_samples": self.window_mishandled[:5],
            "window_hits_that_ended_the_game": self.window_ended_game,
            "game_ending_retries_recognised": self.window_ended_recognised,
            "game_ending_retries_not_recognised": len(self.window_ended_not_recognised),
            "game_ending_retry_samples": self.window_ended_not_recognised[:5],
            "unsaved_requests_retried": self.retried_unsaved,
            "unsaved_retries_wrong": len(self.retried_unsaved_wrong),
            "unsaved_retry_samples": self.retried_unsaved_wrong[:5],
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
    in_flight_action: dict[str, Any] | None = None  # what it asked, to retry it after restart
    in_flight_timing: str = "random"  # "aimed" when the kill was aimed at the window
    retry: tuple[str, dict[str, Any], bool] | None = None  # (id, action, saved) to retry
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
    """The request ids of the journal's action entries, in order (a repeat is a double)."""
    ids = []
    for line in path.read_bytes().split(b"\n")[1:]:
        if not line:
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue  # a torn tail: the daemon drops it at start
        if isinstance(entry, dict) and entry.get("type", "action") == "action" \
                and isinstance(entry.get("id"), str):
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
        tally.landed[run.in_flight_timing][WINDOW if saved else BEFORE] += 1
        if run.in_flight_action is not None:
            run.retry = (run.in_flight, run.in_flight_action, saved)
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
            tally.landed[run.in_flight_timing][WINDOW if saved else BEFORE] += 1
            tally.window_ended_game += saved
            if saved and run.in_flight_action is not None:
                _retry_after_the_end(run, tally, log)
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
        if run.retry is not None and not _retry(run, sock, tally):
            return False  # the retried move ended the game
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


def _retry(run: Run, sock: Path, tally: Tally) -> bool:
    """Ask the restarted daemon the request cut by the kill once more, with its id, as `tabletap
    do` does. Saved before the kill: it must be answered "already done" and change nothing (the
    journal holds it once, the state is the same). Not saved: it must act as a new request.
    Returns False when the retried move ended the game."""
    assert run.retry is not None
    rid, action, saved = run.retry
    run.retry = None
    before = run.journal.read_bytes()
    try:
        answer = request(sock, {"do": action, "id": rid}, timeout=10)
        view = request(sock, {"state": True, "reveal": True}, timeout=10).get("state")
    except (NoAnswer, OSError) as exc:
        (tally.window_mishandled if saved else tally.retried_unsaved_wrong).append(
            f"{run.folder.name}: the retry got no answer ({exc})")
        return True
    if saved:
        problems = []
        if not (answer.get("ok") and answer.get("accepted") and answer.get("repeated")):
            problems.append(f"the retry was not recognised: {answer}")
        if run.journal.read_bytes() != before or _journal_ids(run.journal).count(rid) != 1:
            problems.append("the retry changed the journal")
        if view != run.last_view:
            problems.append("the retry changed the state")
        if problems:
            tally.window_mishandled.append(f"{run.folder.name}: {'; '.join(problems)}")
        else:
            tally.window_handled += 1
        return True
    tally.retried_unsaved += 1
    if answer.get("repeated"):
        tally.retried_unsaved_wrong.append(f"{run.folder.name}: an unsaved request was "
                                           f"answered as already done: {answer}")
        return True
    if answer.get("ok") and answer.get("accepted"):
        tally.accepted += 1
        run.acked.add(rid)
        _apply_last_entry(run)
        run.last_view = view
        if run.engine.is_over(run.state):
            tally.games_finished += 1
            return False
    return True


def _retry_after_the_end(run: Run, tally: Tally, log: Path) -> None:
    """The retry of a saved-but-unanswered move that ended the game. The restarted daemon
    archives the finished game and starts a new one (the config names a game), and the new
    journal's header carries the finished game's request ids (state/journal.py, CARRIED_IDS), so
    the retry must be answered "already done" there too; a retry taken as new fails the soak."""
    assert run.in_flight is not None and run.in_flight_action is not None
    sock = socket_path(run.folder)
    with open(log, "ab") as err:
        started = time.monotonic()
        proc = subprocess.Popen([*TABLETAP, "run", "--sim", "--config", str(run.config)],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err,
                                cwd=ROOT)
    try:
        reply, why = _ready(proc, sock, started)
        if reply is None:
            tally.start_failures.append(f"{run.folder.name}: {why}")
            return
        try:
            answer = request(sock, {"do": run.in_flight_action, "id": run.in_flight}, timeout=10)
        except (NoAnswer, OSError) as exc:
            answer = {"ok": False, "error": str(exc)}
        if answer.get("repeated"):
            tally.window_ended_recognised += 1
        else:
            what = "applied again, to the new game" if answer.get("accepted") else \
                f"answered as new: {answer.get('rejected') or answer.get('error')}"
            tally.window_ended_not_recognised.append(f"{run.folder.name}: {what}")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if proc.stdin is not None:
            proc.stdin.close()


def _aimed_request(run: Run, proc: subprocess.Popen[bytes], payload: dict[str, Any]
                   ) -> tuple[dict[str, Any] | None, bool]:
    """Send `payload` and SIGKILL the daemon the moment its journal grows: after the move's
    write, before (usually) its answer. Returns (the answer, if one came whole; whether the
    daemon was killed). Polling the size from outside needs no hook in the daemon: the journal
    is written in one write() before the fsync, the durable record and the answer, so the
    window is the fsync and everything after it (microseconds on tmpfs, milliseconds on a
    card), and a stat costs about a microsecond."""
    sock = socket_path(run.folder)
    size = run.journal.stat().st_size
    killed = False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        s.connect(str(sock))
        s.sendall(json.dumps(payload).encode() + b"\n")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                grown = os.stat(run.journal).st_size != size
            except FileNotFoundError:
                grown = True  # replaced: not by a `do`, but the daemon acted
            if grown:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                killed = True
                break
            if select.select([s], [], [], 0)[0]:
                break  # the answer (a refusal) came first: nothing was written
        raw = b""
        try:
            while not raw.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                raw += chunk
        except OSError:
            pass
    if not raw.endswith(b"\n"):
        return None, killed
    try:
        answer = json.loads(raw)
    except ValueError:
        return None, killed
    return (answer if isinstance(answer, dict) else None), killed


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
    aim = rng.random() < AIM_SHARE
    aim_from = rng.randrange(4)  # moves played normally before the aimed one
    # an aimed cycle ends with its aimed kill; the timer only guards against a hang
    deadline = time.monotonic() + (30.0 if aim else rng.uniform(0.05, 2.0))
    moves = 0
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
            run.in_flight, run.in_flight_action = rid, action
            moves += 1
            if aim and moves > aim_from:
                run.in_flight_timing = "aimed"
                try:
                    got, killed = _aimed_request(run, proc, {"do": action, "id": rid})
                except OSError:
                    got, killed = None, proc.poll() is not None
                if killed:
                    tally.aimed_kills += 1
                    tally.kills_mid_request += 1
                    if got is None:
                        return True  # the in-flight id is checked at restart
                    tally.landed["aimed"][ANSWERED] += 1
                    run.in_flight = None
                    if got.get("accepted"):
                        tally.accepted += 1
                        run.acked.add(rid)
                        _apply_last_entry(run)
                        run.last_view = None  # the journal decides at restart
                        if run.engine.is_over(run.state):
                            tally.games_finished += 1
                            return False
                    return True
                if got is None:
                    tally.kills_mid_request += 1
                    return True  # died of its own (the timer): checked at restart
                answer = got
            else:
                run.in_flight_timing = "random"
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

    def base(n: int) -> Path:
        """Every other game on the small tmpfs (the full-disk fault), the rest on the machine's
        disk, whose fsync takes milliseconds as on a card: on tmpfs the saved-but-unanswered
        window is tens of microseconds and most aimed kills land after the answer."""
        return disk_mount if disk is not None and n % 2 == 0 else work

    run = _new_run(rng, base(n), n)
    started = time.monotonic()
    try:
        while tally.cycles < args.cycles:
            on_tmpfs = disk is not None and run.folder.parent == disk_mount
            if not cycle(run, rng, tally, disk if on_tmpfs else None, log):
                if run.folder.exists() and not args.keep:
                    shutil.rmtree(run.folder, ignore_errors=True)
                    run.config.unlink(missing_ok=True)
                n += 1
                run = _new_run(rng, base(n), n)
            elif rng.random() < 0.1 and run.in_flight is None:  # another game now and then
                # (not while a request cut by the kill waits to be checked at the next start)
                if on_tmpfs and not args.keep:  # the 2 MiB tmpfs would fill with left games
                    shutil.rmtree(run.folder, ignore_errors=True)
                    run.config.unlink(missing_ok=True)
                n += 1
                run = _new_run(rng, base(n), n)
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
        print(f"saved-but-unanswered window (journal written, answer not yet sent): hit "
              f"{report['window_hits']} times ({tally.landed['aimed'][WINDOW]} of "
              f"{tally.aimed_kills} aimed kills, {tally.landed['random'][WINDOW]} random); "
              f"handled {report['window_handled']} (the move once, the retry recognised), "
              f"mishandled {report['window_mishandled']}; "
              f"{report['window_hits_that_ended_the_game']} ended the game, whose retry after "
              f"the restart (a new game by then) was recognised "
              f"{report['game_ending_retries_recognised']} times and not "
              f"{report['game_ending_retries_not_recognised']}", flush=True)
        if args.out:
            args.out.write_text(json.dumps(report, indent=2) + "\n")
    aim_broken = tally.aimed_kills >= AIM_HITS_EXPECTED and not tally.window_hits
    if aim_broken:
        print(f"the aim is broken: {tally.aimed_kills} aimed kills and the window never hit",
              file=sys.stderr)
    bad = report["lost_actions"] or report["doubled_actions"] or report["start_failures"] \
        or report["exact_resumes"] != report["resumes_checked"] \
        or report["window_mishandled"] or report["unsaved_retries_wrong"] or aim_broken \
        or report["game_ending_retries_not_recognised"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
