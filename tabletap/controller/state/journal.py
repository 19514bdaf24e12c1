"""The journal: every accepted action, on disk before the table acts on it.

One JSON object per line. The first line names the game (players, seed, options, setup, and a
random `journal` id); every later line is one entry: the actions of one table gesture as the
engine resolved them (chance outcomes included), so replay never draws again. Entries are
appended and fsynced one by one; a new journal is created atomically.

Format 2 makes the journal check itself: every line carries a CRC-32 of its own content, every
entry the number of its first action (so a lost or repeated line is found), and a gesture that
stands for several actions (a move and a try with digital dice, say) is one entry, so a
power cut keeps all of it or none. An entry may also carry the console request id that made it,
so a retried request is recognised after a restart instead of acting twice.

Two more entry types keep a family's corrections and decisions in the same record: `undo` takes
back the last live action (`undoes` names its number; replay pops the state it left; action
numbers count live actions, so the next action after an undo takes the number again), and
`abandoned` marks a game the family gave up (it is archived at once; a journal that ends on it
after a power cut is never resumed).

A power cut can tear only the entry being written, and that entry was never answered at the
table (the chest and lights act after the fsync). The journal alone cannot tell such a torn
write from a lost end (a zeroed block, a file cut short, a flipped final newline), so after
each entry's fsync a durable record beside it (state/durable.py: 128 bytes and one fdatasync
per move) says how far the journal is known durable. At replay:

- whole entries past the durable point are kept (the cut came between the two fsyncs);
- what follows the last newline is a torn write, dropped with a warning, only if it lies past
  the durable point, is shorter than the longest entry the journal writes (MAX_ENTRY_BYTES),
  holds no NUL byte and is not a whole entry that passes its checksum;
- anything else is damage: a loud JournalError naming the file and line, and saying how many
  actions the record says were answered. So is a journal that ends before the durable point,
  however cleanly it ends. A missing record (a journal from before it, a fresh state folder)
  leaves only the tail's own checks, with a note; a damaged one is reported and not trusted.

Nothing damaged is ever cut: the daemon starts held (table/runtime.py) and `tabletap journal
repair` keeps everything before the damaged line, after saving the journal whole in games/.
Format 1 journals (one line per action, no checksums) still resume.
"""
from __future__ import annotations

import errno
import json
import logging
import os
import time
import zlib
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msgspec import Struct
from msgspec import field as struct_field

from tabletap.controller import unguessable
from tabletap.controller.games.registry import engine_for
from tabletap.controller.loading.bounded import load_json
from tabletap.controller.rules.base import JSON, Engine, Rejection
from tabletap.controller.state.archive import prune
from tabletap.controller.state.atomic import atomic_write, clean_leftovers, fsync_dir
from tabletap.controller.state.durable import DurablePoint, DurableRecord
from tabletap.controller.state.folder import StateFolder, make_state_dir

FORMAT = 2
FORMATS = (1, 2)
MAX_JOURNAL_BYTES = 64 * 1024 * 1024  # a long game is a few hundred kilobytes
# The longest entry append writes (a gesture's entry is a few hundred bytes): a tail as long is
# more than the one entry a power cut can tear.
MAX_ENTRY_BYTES = 16 * 1024
# Console request ids a new game's header carries over from the game before it: the move that
# ended a game may have been saved and its answer lost, and the client's retry (same id) reaches
# the daemon after it has started the next game; it must be recognised there, not played again.
CARRIED_IDS = 32
log = logging.getLogger("tabletap.journal")

# The console request being answered, if any: its id is written into the entry it makes (set by
# the control server around its handler; the session never needs to know).
REQUEST_ID: ContextVar[str | None] = ContextVar("tabletap_request_id", default=None)


class JournalError(RuntimeError):
    """The journal cannot be trusted; the message names the file and line (`line`, 1-based;
    None when the whole file is unreadable)."""

    def __init__(self, message: str, line: int | None = None, saved: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.saved = saved  # the actions the durable record says were answered, if it is known


def checksum(entry: JSON) -> str:
    """CRC-32 of an entry's canonical JSON, without its own `crc` key."""
    body = {k: v for k, v in entry.items() if k != "crc"}
    text = json.dumps(body, sort_keys=True, ensure_ascii=True)
    return f"{zlib.crc32(text.encode('ascii')):08x}"


def sealed(entry: JSON) -> str:
    """One journal line: the entry with its checksum."""
    return json.dumps({**entry, "crc": checksum(entry)}, sort_keys=True) + "\n"


@dataclass(frozen=True)
class GameHeader:
    game: str
    players: list[str]
    seed: int
    options: JSON = field(default_factory=dict)
    setup: JSON = field(default_factory=dict)

    def to_json(self, format: int = FORMAT) -> JSON:
        return {"type": "game", "format": format, "game": self.game, "players": self.players,
                "seed": self.seed, "options": self.options, "setup": self.setup}


class Played(Struct, frozen=True):
    """One live action and what it left behind, so undo can restore the state before it."""

    number: int
    action: JSON
    before: Any  # the state the action was applied to (states are immutable: shared, not copied)
    events: tuple[Any, ...] = ()


class Replayed(Struct):
    header: GameHeader
    engine: Engine[Any, Any]
    state: Any
    actions: int
    warnings: list[str]
    history: list[Played] = struct_field(default_factory=list)  # live actions, oldest first
    abandoned: bool = False
    undos: int = 0  # undo entries since the last action (undo never crosses a handover twice)
    format: int = FORMAT
    # console request id -> action n
    request_ids: dict[str, int] = struct_field(default_factory=dict)


class Journal:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        # The size of the journal's last whole entry, once known: a failed append is cut back
        # to it, and the next append first cuts any leftover the cut itself could not remove.
        self._size: int | None = None
        self.format = FORMAT  # what appends write: the format of the journal replayed
        self.request_ids: dict[str, int] = {}  # console request id -> its entry's first action
        self.durable = DurableRecord(StateFolder(self.path.parent).durable)
        # What the durable record is told after each append: the journal's id, its whole lines
        # and live actions (learnt from start, replay or, failing those, the file itself).
        self._key: str | None = None
        self._entries: int | None = None
        self._live = 0
        # Set by the daemon while it holds a damaged journal: a new game first saves it whole
        # in games/ under a `-damaged` name, and says where.
        self.damaged = False
        self.damaged_copy: Path | None = None

    @classmethod
    def in_dir(cls, state_dir: str | Path) -> Journal:
        folder = make_state_dir(state_dir)
        clean_leftovers(folder)
        journal = cls(StateFolder(folder).journal)
        journal._owner_only()
        return journal

    def _owner_only(self) -> None:
        """A journal from before the daemon set its own modes may be world-readable: the seed
        in it gives every fake key away, so it is tightened (when it is ours to change)."""
        try:
            st = self.path.stat()
            if st.st_mode & 0o077 and st.st_uid == os.geteuid():
                os.chmod(self.path, 0o600)
                log.info("%s was readable by others; now owner-only", self.path)
        except OSError:
            pass

    def exists(self) -> bool:
        return self.path.exists()

    def start(self, header: GameHeader) -> None:
        """Begin a new game's journal, archiving any previous one first (nothing is lost; a
        damaged one the daemon held is saved under a `-damaged` name). The header carries a
        fresh random id, which the durable record names, so a record of an older game is never
        applied to this one."""
        if self.path.exists():
            copy = self.archive("-damaged" if self.damaged else "")
            self.damaged_copy = copy if self.damaged else None
        key = unguessable.token_hex(8)
        carried = dict(list(self.request_ids.items())[-CARRIED_IDS:])
        text = sealed({**header.to_json(), "journal": key,
                       **({"earlier_ids": carried} if carried else {})})
        atomic_write(self.path, text, mode=0o600)
        self._size = len(text.encode("utf-8"))
        self.format, self.request_ids, self.damaged = FORMAT, carried, False
        self._key, self._entries, self._live = key, 1, 0
        try:
            self.durable.reset(key, 1, self._size, 0)
        except OSError as exc:  # the game is started: a missing record only weakens the check
            log.error("%s: could not start the durable record: %s", self.durable.path, exc)

    def archive(self, suffix: str = "") -> Path:
        games = StateFolder(self.path.parent).archive
        games.mkdir(mode=0o700, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = games / f"{stamp}-{os.getpid()}{suffix}.jsonl"
        n = 1
        while target.exists():
            target = games / f"{stamp}-{os.getpid()}-{n}{suffix}.jsonl"
            n += 1
        os.replace(self.path, target)
        fsync_dir(self.path.parent)
        fsync_dir(games)
        prune(games)  # the archive stays within its bound (state/archive.py)
        return target

    def append(self, number: int, *actions: JSON) -> None:
        """Append one gesture's actions, numbered from `number`: one entry, one write, one
        fsync, carrying the id of the console request being answered, if any; then the durable
        record is moved past it.

        All or nothing: on a full disk the kernel may write part of the line before ENOSPC;
        the part is cut off again before the OSError reaches the caller (who refuses the move),
        so the next append, once space returns, starts on a clean line."""
        request_id = REQUEST_ID.get()
        if self.format == 1:
            lines = "".join(
                json.dumps({"type": "action", "n": number + i, "action": action}, sort_keys=True)
                + "\n" for i, action in enumerate(actions)
            )
        else:
            entry: JSON = {"type": "action", "n": number, "actions": list(actions)}
            if request_id is not None:
                entry["id"] = request_id
            lines = sealed(entry)
        self._append_bytes(lines.encode("utf-8"), number + len(actions) - 1)
        if request_id is not None:
            self.request_ids[request_id] = number

    def append_undo(self, number: int) -> None:
        """Take back live action `number` (the last one): journaled like any action, fsynced
        before the table answers, so a power cut never half-undoes."""
        self._append_entry({"type": "undo", "undoes": number}, number - 1)

    def append_abandoned(self) -> None:
        self._append_entry({"type": "abandoned"}, self._live)

    def _append_entry(self, entry: JSON, actions: int) -> None:
        line = json.dumps(entry, sort_keys=True) + "\n" if self.format == 1 else sealed(entry)
        self._append_bytes(line.encode("utf-8"), actions)

    def recall(self, request_id: str) -> int | None:
        """The first action number of the entry a console request made, if it made one."""
        return self.request_ids.get(request_id)

    def _append_bytes(self, data: bytes, actions: int) -> None:
        if len(data) > MAX_ENTRY_BYTES:  # replay would take its torn half for damage
            raise OSError(errno.EFBIG, f"an entry of {len(data)} bytes is longer than the "
                          f"journal's limit of {MAX_ENTRY_BYTES}")
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
        self._mark_durable(data.count(b"\n"), actions)

    def _mark_durable(self, lines: int, actions: int) -> None:
        """Move the durable record past the entry just fsynced, before the table answers. A
        record that cannot be written is logged, not raised: the entry is safe on disk, and a
        record that lags behind is still true (replay keeps whole entries past it)."""
        try:
            if self._key is None or self._entries is None:
                self._learn()
            else:
                self._entries += lines
            self._live = actions
            assert self._key is not None and self._entries is not None and self._size is not None
            self.durable.advance(self._key, self._entries, self._size, actions)
        except (OSError, JournalError, ValueError) as exc:
            log.error("%s: could not update the durable record: %s", self.durable.path, exc)

    def _learn(self) -> None:
        """The journal's id and line count from the file (a Journal that appends without
        having started or replayed it)."""
        raw = self.path.read_bytes()
        if self._size is None:
            self._size = len(raw)
        raw = raw[:self._size]
        self._key = self._header(raw.split(b"\n", 1)[0])[2]
        self._entries = raw.count(b"\n")

    def cut_at_damage(self) -> tuple[Replayed, JournalError, Path] | None:
        """Keep everything before the first damaged line (`tabletap journal repair`).

        The damaged journal is first copied whole to games/ (nothing is lost, not even what
        follows the damage), then the journal is replaced atomically by the lines before it,
        and the durable record is reset to what was kept. Returns (the game kept, the damage,
        the copy), or None when there is no damage beyond a torn last line (which the ordinary
        replay drops). JournalError when nothing can be kept: the header itself is damaged.
        The caller holds the state folder's lock."""
        try:
            self.replay(repair=True)
            return None
        except JournalError as exc:
            damage = exc
        if damage.line is None or damage.line <= 1:
            raise JournalError(f"{damage}; the game header is damaged, so there is nothing "
                               "before it to keep", damage.line, damage.saved)
        raw = self.path.read_bytes()
        kept, kept_game = self._kept(raw, damage)
        key = self._header(kept.split(b"\n", 1)[0])[2]
        games = StateFolder(self.path.parent).archive
        games.mkdir(mode=0o700, exist_ok=True)
        copy = games / f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}-damaged.jsonl"
        atomic_write(copy, raw, mode=0o600)
        atomic_write(self.path, kept, mode=0o600)
        self.durable.reset(key, kept.count(b"\n"), len(kept), kept_game.actions)
        self.damaged = False
        return self.replay(repair=True), damage, copy

    def kept_by_repair(self, damage: JournalError) -> int | None:
        """The live actions `cut_at_damage` would keep for this damage (None: nothing, the
        header is damaged). Read-only."""
        if damage.line is None or damage.line <= 1:
            return None
        try:
            return self._kept(self.path.read_bytes(), damage)[1].actions
        except (OSError, JournalError):
            return None

    def _kept(self, raw: bytes, damage: JournalError) -> tuple[bytes, Replayed]:
        """What repair keeps: the lines before the damaged one; and when the damage is only a
        lost or flipped final newline after an entry that checks, replays and was answered
        (the durable record counts it), that entry too, with its newline put back. An entry
        the record does not count was never answered, and is not brought back."""
        assert damage.line is not None
        lines = raw.split(b"\n")
        kept = b"".join(line + b"\n" for line in lines[:damage.line - 1])
        game = self._replay(kept, None, repair=False)
        point = self.durable.read()
        answered = point is not None and point.journal == self._header(lines[0])[2] \
            and point.entries >= damage.line
        if answered and damage.line == len(lines):  # the damage is the tail
            tail = lines[-1]
            for candidate in (tail, tail[:-1]):
                if not candidate or self._not_torn(candidate, game.format) == []:
                    continue  # not a whole entry that checks
                try:
                    whole = self._replay(kept + candidate + b"\n", None, repair=False)
                except JournalError:
                    continue
                if not whole.warnings:
                    return kept + candidate + b"\n", whole
        return kept, game

    def replay(self, repair: bool = True) -> Replayed:
        """Rebuild the game from the journal; JournalError for anything but a torn write past
        the durable point (see the module docstring).

        Only the daemon repairs (truncates a torn tail, moves the durable record up to the
        whole entries found); a read-only caller such as `tabletap state` must not cut a line
        the running daemon is writing. Nothing is cut when the journal is damaged."""
        # The record first: read after the journal, it could count an entry the running
        # daemon appended in between, and make a sound journal look short.
        point = self.durable.read()
        try:
            raw = self.path.read_bytes()
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot read the journal: {exc}") from None
        if len(raw) > MAX_JOURNAL_BYTES:
            raise JournalError(f"{self.path}: {len(raw)} bytes is too big for a journal "
                               f"(at most {MAX_JOURNAL_BYTES}); is it the right file?")
        return self._replay(raw, point, repair, self.durable.note)

    def _replay(self, raw: bytes, point: DurablePoint | None, repair: bool,
                note: str | None = None) -> Replayed:
        warnings: list[str] = []
        lines = raw.split(b"\n")
        tail = lines.pop()  # after the final newline: empty unless the last write was torn
        if not lines:
            raise JournalError(f"{self.path}: the journal is empty (no game header)", 1,
                               point.actions if point else None)
        header, version, key = self._header(lines[0])
        if point is not None and point.journal != key:
            warnings.append(f"{self.durable.path} describes another journal (an earlier game), "
                            "so it was not applied to this one")
            point, note = None, "it describes another journal"
        elif note is not None and self.durable.path.exists():
            warnings.append(note)
        saved = point.actions if point is not None else None
        try:
            engine = engine_for(header.game)
            state = engine.new_game(header.players, header.seed, header.options, header.setup)
        except Rejection as exc:
            raise JournalError(f"{self.path}:1: the game header does not start a game: "
                               f"{exc.message}", 1, saved) from None
        try:
            history, state, abandoned, undos, request_ids = self._entries_of(
                lines, engine, state, version)
        except JournalError as exc:
            exc.saved = saved
            if saved is not None:
                exc.args = (f"{exc} (the durable record says {saved} actions were saved and "
                            "answered at the table)",)
            raise
        request_ids = {**_earlier_ids(lines[0]), **request_ids}
        end = len(raw) - len(tail)
        self._check_end(lines, tail, end, point, version, len(history))
        if tail:
            warnings.append(
                f"{self.path}:{len(lines) + 1}: dropped a torn last line ({len(tail)} bytes): "
                "the entry being written when the power went, never answered at the table"
                + ("" if point is not None else
                   f" (not checked against a durable record: {note or 'there is none'})"))
        if repair:
            if tail:
                with open(self.path, "r+b") as fh:
                    fh.truncate(end)
                    fh.flush()
                    os.fsync(fh.fileno())
            self._size, self._key, self._entries = end, key, len(lines)
            self._live = len(history)
            self.format, self.request_ids = version, request_ids
            if point is None or (point.entries, point.size) != (len(lines), end):
                try:  # whole entries past the point are durable now: say so
                    self.durable.advance(key, len(lines), end, len(history))
                except OSError as exc:
                    log.error("%s: could not update the durable record: %s",
                              self.durable.path, exc)
        return Replayed(header, engine, state, len(history), warnings, history, abandoned, undos,
                        version, request_ids)

    def _check_end(self, lines: list[bytes], tail: bytes, end: int, point: DurablePoint | None,
                   version: int, holds: int) -> None:
        """The journal's end: it must reach the durable point, and a tail after the last
        newline must look like the one torn write a power cut can leave."""
        problems: list[str] = []
        if tail:
            problems += self._not_torn(tail, version)
        if point is not None:
            reached = end >= point.size and len(lines) >= point.entries
            if not reached:
                problems.append(f"the journal holds {len(lines) - 1} whole entries ({holds} "
                                f"actions), but the durable record says {point.entries - 1} "
                                f"entries ({point.actions} actions) were saved and answered at "
                                "the table")
            elif sum(len(line) + 1 for line in lines[:point.entries]) != point.size:
                line = point.entries
                raise JournalError(f"{self.path}:{line}: the first {line - 1} entries are not "
                                   "the ones the durable record describes (their length "
                                   "differs): the journal was changed after it was written",
                                   line, point.actions)
        if problems:
            line = len(lines) + 1
            raise JournalError(f"{self.path}:{line}: the end of the journal is damaged, not torn "
                               f"by a power cut: {'; '.join(problems)}", line,
                               point.actions if point is not None else None)

    def _not_torn(self, tail: bytes, version: int) -> list[str]:
        """Why a tail after the last newline cannot be a torn write (none: it can be)."""
        if b"\x00" in tail:
            return [f"the {len(tail)} bytes after its last newline hold NUL bytes (a zeroed "
                    "block)"]
        if len(tail) >= MAX_ENTRY_BYTES:
            return [f"the {len(tail)} bytes after its last newline are longer than any entry"]
        if version >= 2:
            for candidate in (tail, tail[:-1]):
                try:
                    entry = load_json(candidate)
                except ValueError:
                    continue
                if isinstance(entry, dict) and entry.get("crc") == checksum(entry):
                    return ["its last line is a whole entry that passes its checksum, but its "
                            "newline is missing or damaged"]
        return []

    def _entries_of(self, lines: list[bytes], engine: Engine[Any, Any], state: Any,
                    version: int) -> tuple[list[Played], Any, bool, int, dict[str, int]]:
        """Replay every whole entry after the header."""
        history: list[Played] = []
        abandoned = False
        undos = 0
        request_ids: dict[str, int] = {}
        for lineno, line in enumerate(lines[1:], start=2):
            entry = self._parse(line, lineno)
            if abandoned:
                raise JournalError(f"{self.path}:{lineno}: an entry after the game was abandoned",
                                   lineno)
            self._check(entry, lineno, version)
            if entry.get("type") == "undo":
                if not history or entry.get("undoes") != history[-1].number:
                    raise JournalError(f"{self.path}:{lineno}: undo of action "
                                       f"{entry.get('undoes')}, which is not the last live one",
                                       lineno)
                state = history.pop().before
                undos += 1
                continue
            if entry.get("type") == "abandoned":
                abandoned = True
                continue
            actions = self._actions(entry, lineno, version, len(history) + 1)
            if isinstance(entry.get("id"), str):
                request_ids[entry["id"]] = len(history) + 1
            for action_json in actions:
                try:
                    action = engine.action_from_json(action_json)
                    outcome = engine.apply(state, action)
                except Rejection as exc:
                    raise JournalError(
                        f"{self.path}:{lineno}: action {action_json} does not replay "
                        f"({exc.code}: {exc.message})", lineno
                    ) from None
                except (RecursionError, ValueError, TypeError, KeyError, AttributeError) as exc:
                    raise JournalError(f"{self.path}:{lineno}: action {action_json!r:.200} "
                                       f"does not replay ({exc!r:.200})", lineno) from None
                history.append(Played(len(history) + 1, action_json, state, outcome.events))
                state = outcome.state
            undos = 0
        return history, state, abandoned, undos, request_ids

    def _check(self, entry: JSON, lineno: int, version: int) -> None:
        """A format 2 entry's own checksum."""
        if version >= 2 and entry.get("crc") != checksum(entry):
            raise JournalError(f"{self.path}:{lineno}: the checksum does not match: the line was "
                               "changed or damaged after it was written", lineno)

    def _actions(self, entry: JSON, lineno: int, version: int, expected: int) -> list[JSON]:
        """The actions of one action entry, after its type and number are checked."""
        if entry.get("type") != "action":
            raise JournalError(f"{self.path}:{lineno}: not an action entry", lineno)
        number = entry.get("n")
        if number != expected:
            raise JournalError(f"{self.path}:{lineno}: the entry is numbered {number}, expected "
                               f"{expected}: a line is missing, repeated or out of order", lineno)
        actions = [entry["action"]] if version == 1 and "action" in entry else entry.get("actions")
        if not isinstance(actions, list) or not actions:
            raise JournalError(f"{self.path}:{lineno}: not an action entry", lineno)
        return actions

    def _parse(self, line: bytes, lineno: int) -> JSON:
        try:
            entry = load_json(line)
        except ValueError as exc:
            raise JournalError(f"{self.path}:{lineno}: not valid JSON ({exc})", lineno) from None
        if not isinstance(entry, dict):
            raise JournalError(f"{self.path}:{lineno}: not a JSON object", lineno)
        return entry

    def _header(self, line: bytes) -> tuple[GameHeader, int, str]:
        """The game header, the journal's format and its id (the header's `journal`, or for a
        journal from before the ids, its CRC), which the durable record names."""
        entry = self._parse(line, 1)
        version = entry.get("format")
        if entry.get("type") != "game" or version not in FORMATS:
            raise JournalError(f"{self.path}:1: not a tabletap journal header (format "
                               f"{' or '.join(map(str, FORMATS))})", 1)
        if version >= 2 and entry.get("crc") != checksum(entry):
            raise JournalError(f"{self.path}:1: the game header's checksum does not match: the "
                               "header was changed or damaged after it was written", 1)
        try:
            players = entry["players"]
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise TypeError("players must be a list of names")
            options, setup = entry.get("options") or {}, entry.get("setup") or {}
            if not isinstance(options, dict) or not isinstance(setup, dict):
                raise TypeError("options and setup must be mappings")
            if not isinstance(entry["seed"], int) or isinstance(entry["seed"], bool):
                raise TypeError("the seed must be an integer")
            key = entry.get("journal")
            if not isinstance(key, str) or not key.isalnum() or len(key) > 32:
                key = f"h{zlib.crc32(line):08x}"
            return GameHeader(str(entry["game"]), list(players), entry["seed"], dict(options),
                              dict(setup)), version, key
        except (KeyError, TypeError, ValueError) as exc:
            raise JournalError(f"{self.path}:1: the game header is incomplete ({exc})", 1) \
                from None


def _earlier_ids(header_line: bytes) -> dict[str, int]:
    """The request ids a header carries over from the game before it (`earlier_ids`, see
    CARRIED_IDS), each with its action number there; anything malformed is no id at all (the
    header's checksum already held, so this is a journal from a newer version, not damage)."""
    try:
        carried = load_json(header_line).get("earlier_ids")
    except (ValueError, AttributeError):
        return {}
    if not isinstance(carried, dict):
        return {}
    return {k: v for k, v in list(carried.items())[-CARRIED_IDS:]
            if isinstance(k, str) and 0 < len(k) <= 128 and isinstance(v, int)
            and not isinstance(v, bool)}
