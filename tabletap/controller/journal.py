"""The journal: every accepted action, on disk before the table acts on it.

One JSON object per line. The first line names the game (players, seed, options, setup); every
later line is one accepted action as the engine resolved it (chance outcomes included), so replay
never draws again. Lines are appended and fsynced one by one; a new journal is created atomically.

Two more entry types keep a family's corrections and decisions in the same record: `undo` takes
back the last live action (`undoes` names its number; replay pops the state it left; action
numbers count live actions, so the next action after an undo takes the number again), and
`abandoned` marks a game the family gave up (it is archived at once; a journal that ends on it
after a power cut is never resumed).

A power cut can tear only the last line, and that line's action was never answered at the table
(the chest and lights act after the fsync), so a torn tail is dropped with a warning. Any other
line that does not parse or replay is a loud JournalError: silently skipping it would quietly
change a family's game.
"""

from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletap.controller.atomic import atomic_write, clean_leftovers, fsync_dir
from tabletap.controller.rules import engine_for
from tabletap.controller.rules.base import JSON, Engine, Rejection

FORMAT = 1
log = logging.getLogger("tabletap.journal")


class JournalError(RuntimeError):
    """The journal cannot be trusted; the message names the file and line."""


@dataclass(frozen=True)
class GameHeader:
    game: str
    players: list[str]
    seed: int
    options: JSON = field(default_factory=dict)
    setup: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"type": "game", "format": FORMAT, "game": self.game, "players": self.players,
                "seed": self.seed, "options": self.options, "setup": self.setup}


@dataclass(frozen=True)
class Played:
    """One live action and what it left behind, so undo can restore the state before it."""

    number: int
    action: JSON
    before: Any  # the state the action was applied to (states are immutable: shared, not copied)
    events: tuple[Any, ...] = ()


@dataclass
class Replayed:
    header: GameHeader
    engine: Engine[Any, Any]
    state: Any
    actions: int
    warnings: list[str]
    history: list[Played] = field(default_factory=list)  # live actions, oldest first
    abandoned: bool = False
    undos: int = 0  # undo entries since the last action (undo never crosses a handover twice)


class Journal:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        # The size of the journal's last whole entry, once known: a failed append is cut back
        # to it, and the next append first cuts any leftover the cut itself could not remove.
        self._size: int | None = None

    @classmethod
    def in_dir(cls, state_dir: str | Path) -> Journal:
        folder = Path(state_dir)
        folder.mkdir(parents=True, exist_ok=True)
        clean_leftovers(folder)
        return cls(folder / "journal.jsonl")

    def exists(self) -> bool:
        return self.path.exists()

    def start(self, header: GameHeader) -> None:
        """Begin a new game's journal, archiving any previous one first (nothing is lost)."""
        if self.path.exists():
            self.archive()
        text = json.dumps(header.to_json(), sort_keys=True) + "\n"
        atomic_write(self.path, text)
        self._size = len(text.encode("utf-8"))

    def archive(self) -> Path:
        games = self.path.parent / "games"
        games.mkdir(exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = games / f"{stamp}-{os.getpid()}.jsonl"
        n = 1
        while target.exists():
            target = games / f"{stamp}-{os.getpid()}-{n}.jsonl"
            n += 1
        os.replace(self.path, target)
        fsync_dir(self.path.parent)
        fsync_dir(games)
        return target

    def append(self, number: int, *actions: JSON) -> None:
        """Append actions numbered from `number`, in one write and one fsync.

        All or nothing: on a full disk the kernel may write part of the line before ENOSPC;
        the part is cut off again before the OSError reaches the caller (who refuses the move),
        so the next append, once space returns, starts on a clean line."""
        lines = "".join(
            json.dumps({"type": "action", "n": number + i, "action": action}, sort_keys=True)
            + "\n" for i, action in enumerate(actions)
        )
        self._append_bytes(lines.encode("utf-8"))

    def _append_bytes(self, data: bytes) -> None:
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
        try:
            good = os.fstat(fd).st_size
            if self._size is not None and good != self._size:
                os.ftruncate(fd, self._size)  # a leftover of an earlier failed append
                good = self._size
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            except OSError:
                self._size = good
                try:
                    os.ftruncate(fd, good)
                    os.fsync(fd)
                except OSError as exc:  # retried before the next append
                    log.error("%s: could not cut a failed append back: %s", self.path, exc)
                raise
            self._size = good + len(data)
        finally:
            os.close(fd)

    def append_undo(self, number: int) -> None:
        """Take back live action `number` (the last one): journaled like any action, fsynced
        before the table answers, so a power cut never half-undoes."""
        self._append_entry({"type": "undo", "undoes": number})

    def append_abandoned(self) -> None:
        self._append_entry({"type": "abandoned"})

    def _append_entry(self, entry: JSON) -> None:
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry, sort_keys=True) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def replay(self, repair: bool = True) -> Replayed:
        """Rebuild the game from the journal; JournalError for anything but a torn last line.

        Only the daemon repairs (truncates a torn tail); a read-only caller such as
        `tabletap state` must not cut a line the running daemon is writing."""
        try:
            raw = self.path.read_bytes()
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot read the journal: {exc}") from None
        warnings: list[str] = []
        lines = raw.split(b"\n")
        tail = lines.pop()  # after the final newline: empty unless the last write was torn
        if tail:
            warnings.append(
                f"{self.path}: dropped a torn last line ({len(tail)} bytes) left by a power cut; "
                "its action had not been answered at the table"
            )
        if tail and repair:
            with open(self.path, "r+b") as fh:
                fh.truncate(len(raw) - len(tail))
                fh.flush()
                os.fsync(fh.fileno())
        if repair:
            self._size = len(raw) - len(tail)
        if not lines:
            raise JournalError(f"{self.path}: the journal is empty (no game header)")
        header = self._header(lines[0])
        try:
            engine = engine_for(header.game)
            state = engine.new_game(header.players, header.seed, header.options, header.setup)
        except Rejection as exc:
            raise JournalError(f"{self.path}:1: the game header does not start a game: "
                               f"{exc.message}") from None
        history: list[Played] = []
        abandoned = False
        undos = 0
        for lineno, line in enumerate(lines[1:], start=2):
            entry = self._parse(line, lineno)
            if abandoned:
                raise JournalError(f"{self.path}:{lineno}: an entry after the game was abandoned")
            if entry.get("type") == "undo":
                if not history or entry.get("undoes") != history[-1].number:
                    raise JournalError(f"{self.path}:{lineno}: undo of action "
                                       f"{entry.get('undoes')}, which is not the last live one")
                state = history.pop().before
                undos += 1
                continue
            if entry.get("type") == "abandoned":
                abandoned = True
                continue
            if entry.get("type") != "action" or "action" not in entry:
                raise JournalError(f"{self.path}:{lineno}: not an action entry")
            try:
                action = engine.action_from_json(entry["action"])
                outcome = engine.apply(state, action)
            except Rejection as exc:
                raise JournalError(
                    f"{self.path}:{lineno}: action {entry['action']} does not replay "
                    f"({exc.code}: {exc.message})"
                ) from None
            history.append(Played(len(history) + 1, entry["action"], state, outcome.events))
            undos = 0
            state = outcome.state
        return Replayed(header, engine, state, len(history), warnings, history, abandoned, undos)

    def _parse(self, line: bytes, lineno: int) -> JSON:
        try:
            entry = json.loads(line)
        except (ValueError, UnicodeDecodeError) as exc:
            raise JournalError(f"{self.path}:{lineno}: not valid JSON ({exc})") from None
        if not isinstance(entry, dict):
            raise JournalError(f"{self.path}:{lineno}: not a JSON object")
        return entry

    def _header(self, line: bytes) -> GameHeader:
        entry = self._parse(line, 1)
        if entry.get("type") != "game" or entry.get("format") != FORMAT:
            raise JournalError(f"{self.path}:1: not a tabletap journal header (format {FORMAT})")
        try:
            return GameHeader(str(entry["game"]), list(entry["players"]), int(entry["seed"]),
                              dict(entry.get("options") or {}), dict(entry.get("setup") or {}))
        except (KeyError, TypeError, ValueError) as exc:
            raise JournalError(f"{self.path}:1: the game header is incomplete ({exc})") from None
