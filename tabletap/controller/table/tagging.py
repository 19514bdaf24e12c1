"""The maker's tag work behind `tabletap tags`: read, write, enrol and check, over the ports.

Everything here talks to a `TagReader` (and `TagWriter`) and a `Clock`, so the same code drives a
real PN532 and the emulated one, in real or virtual time. Output goes through `say`, one line at
a time, so a maker at the table sees progress as it happens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tabletap.controller.ports import (
    Clock,
    Poll,
    ReaderHeld,
    ReaderUnavailable,
    TagRead,
    TagReader,
    TagWriteError,
    TagWriter,
)
from tabletap.controller.table.identity import (
    Identifier,
    IdentityError,
    UidRegistry,
    decode_piece,
    encode_piece,
    uid_hex,
)
from tabletap.controller.table.presence import PresenceTracker

Say = Callable[[str], None]


class TagJobError(RuntimeError):
    """A tag job cannot go on; the message says what the maker should do."""


@dataclass
class Desk:
    """One reader on the maker's desk, polled at the daemon's period."""

    reader: TagReader
    clock: Clock
    say: Say = print
    period: float = 0.1
    miss_threshold: int = 2
    # A reader that does not answer for this long is not coming back by itself (a cable, the
    # wrong transport): say so and point at `tabletap doctor`, whose wiring hints find it.
    silent_limit: float = 15.0
    _missing_said: bool = False
    _missing_since: float | None = None
    tracker: PresenceTracker = field(init=False)

    def __post_init__(self) -> None:
        self.tracker = PresenceTracker(self.reader.name, self.miss_threshold)

    def poll(self) -> Poll | None:
        """One poll; None (after saying so once) while the reader does not answer."""
        try:
            poll = self.reader.poll()
        except ReaderHeld as exc:  # another program has the port: waiting changes nothing
            raise TagJobError(str(exc)) from None
        except ReaderUnavailable as exc:
            now = self.clock.now()
            if self._missing_since is None:
                self._missing_since = now
            if now - self._missing_since >= self.silent_limit:
                raise TagJobError(
                    f"reader {self.reader.name} has not answered for {self.silent_limit:g} s "
                    f"({exc}). Run `tabletap doctor` (with the same --config) to see why: it "
                    "checks every reader and names the wiring to look at.") from exc
            if not self._missing_said:
                self.say(f"reader {self.reader.name} does not answer ({exc}); trying for "
                         f"{self.silent_limit:g} s")
                self._missing_said = True
            self.tracker.forget()
            self.clock.sleep(1.0)
            return None
        self._missing_since = None
        if self._missing_said:
            self.say(f"reader {self.reader.name} is back")
            self._missing_said = False
        return poll

    def settle(self, clean_polls: int = 3, limit: float = 5.0) -> list[TagRead]:
        """What lies on the reader: the tags of the last of a few clean polls, torn reads
        retried. Raises TagJobError when the reader gives no clean answer in `limit` seconds."""
        end = self.clock.now() + limit
        clean: list[Poll] = []
        while self.clock.now() < end:
            poll = self.poll()
            if poll is not None and not poll.garbled:
                clean.append(poll)
                torn = any(t.error for t in poll.tags)
                if len(clean) >= clean_polls and not torn:
                    break
            self.clock.sleep(self.period)
        if not clean:
            raise TagJobError(f"reader {self.reader.name} gave no clean answer in {limit:g} s")
        return list(clean[-1].tags)

    def wait_placed(self, deadline: float) -> TagRead | None:
        """The next tag placed on the reader (by presence tracking), None at the deadline."""
        while self.clock.now() < deadline:
            poll = self.poll()
            if poll is not None:
                for event in self.tracker.update(poll):
                    if event.kind == "placed":
                        return event.tag
            self.clock.sleep(self.period)
        return None


def describe(tag: TagRead, identifier: Identifier) -> str:
    """One line for a tag: its UID and what it is (or why it is nothing)."""
    try:
        piece = identifier.identify(tag)
    except IdentityError as exc:
        return f"{uid_hex(tag.uid)}  {exc.code}: {exc}"
    source = "NDEF"
    if tag.ndef is None or _ndef_piece(tag.ndef) != piece:
        source = "UID registry"
    return f"{uid_hex(tag.uid)}  {piece}  ({source})"


def _ndef_piece(message: bytes) -> str | None:
    try:
        return decode_piece(message)
    except IdentityError:
        return None


def read_tags(desk: Desk, identifier: Identifier) -> int:
    tags = desk.settle()
    if not tags:
        desk.say(f"no tag on reader {desk.reader.name}")
        return 1
    for tag in tags:
        desk.say(describe(tag, identifier))
    return 0


def the_one_tag(desk: Desk) -> TagRead:
    tags = desk.settle()
    if not tags:
        raise TagJobError(f"no tag on reader {desk.reader.name}: put the tag on it and try again")
    if len(tags) > 1:
        raise TagJobError(
            f"{len(tags)} tags on reader {desk.reader.name}: leave only the one to program"
        )
    return tags[0]


def write_piece(desk: Desk, writer: TagWriter, piece: str, force: bool = False) -> str:
    """Program the tag on the reader with `piece`, read it back, and say what was done.

    Refuses a locked tag (nothing is touched) and, without `force`, a tag carrying someone
    else's data. Raises TagJobError with the reason."""
    message = encode_piece(piece)  # IdentityError for something that is no piece id
    tag = the_one_tag(desk)
    uid = uid_hex(tag.uid)
    try:
        if writer.is_locked(tag.uid):
            raise TagJobError(f"tag {uid} is locked (read-only): refusing to touch it")
        current = writer.read_ndef(tag.uid)
        before = ""
        if current:
            try:
                before = f" (it carried {decode_piece(current)})"
            except IdentityError as exc:
                if not force:
                    raise TagJobError(
                        f"tag {uid} holds other data ({exc.code}: {exc}); "
                        "use --force to overwrite it"
                    ) from None
                before = " (its other data was overwritten)"
        writer.write_ndef(tag.uid, message)
        back = writer.read_ndef(tag.uid)
    except TagWriteError as exc:
        raise TagJobError(f"tag {uid}: {exc}") from None
    if back != message:
        raise TagJobError(f"tag {uid}: read-back does not match what was written; try again")
    return f"wrote {piece} to tag {uid} and read it back{before}"


@dataclass
class Enrolment:
    desk: Desk
    writer: TagWriter
    registry: UidRegistry
    registry_only: bool = False
    timeout: float = 300.0

    def run(self, pieces: list[str], resume: bool = False) -> int:
        say, total = self.desk.say, len(pieces)
        done = set(self.registry.pieces.values()) if resume else set()
        owners = dict(self.registry.pieces)  # uid -> piece, to catch a tag tapped twice
        for i, piece in enumerate(pieces, start=1):
            if piece in done:
                say(f"[{i}/{total}] {piece}: already enrolled")
                continue
            say(f"[{i}/{total}] tap {piece} (hold it until it says ok)")
            while True:
                tag = self.desk.wait_placed(self.desk.clock.now() + self.timeout)
                if tag is None:
                    say(f"no tag within {self.timeout:g} s; stopped at {piece}. "
                        "Run again with --resume to go on.")
                    return 1
                other = owners.get(uid_hex(tag.uid))
                if other and other != piece:
                    say(f"  that tag is already {other}; tap a new one for {piece}")
                    continue
                try:
                    how = self._program(tag, piece)
                except TagJobError as exc:
                    say(f"  {exc}; tap it again")
                    continue
                break
            self.registry.enroll(tag.uid, piece)
            self.registry.save()  # after every tag: an interrupted enrolment keeps its progress
            owners[uid_hex(tag.uid)] = piece
            say(f"  ok: {piece} is tag {uid_hex(tag.uid)} ({how})")
        say(f"enrolled {total} pieces; registry {self.registry.path}")
        return 0

    def _program(self, tag: TagRead, piece: str) -> str:
        if tag.error:
            # announced with an error only after several polls failed the same way: its memory
            # will not be read. With --registry-only the UID is all that is needed.
            if self.registry_only:
                return "memory not readable: enrolled by UID"
            raise TagJobError(
                f"the tag could not be read ({tag.error}); hold it still, or use "
                "--registry-only to enrol it by its UID"
            )
        if tag.ndef is None:
            return "no NDEF memory (not formatted, or not an NTAG): enrolled by UID"
        carried = _ndef_piece(tag.ndef) if tag.ndef else None
        if carried == piece:
            return "already carries it"
        if carried is not None:
            raise TagJobError(f"this tag carries {carried}")
        if self.registry_only:
            return "enrolled by UID"
        if tag.ndef:
            return "holds other data, kept: enrolled by UID"
        try:
            if self.writer.is_locked(tag.uid):
                return "locked: enrolled by UID"
            self.writer.write_ndef(tag.uid, encode_piece(piece))
            back = self.writer.read_ndef(tag.uid)
        except TagWriteError as exc:
            raise TagJobError(f"writing failed ({exc})") from None
        if back != encode_piece(piece):
            raise TagJobError("the read-back did not match")
        return "written and verified"


@dataclass
class CheckReport:
    pieces: list[str]
    seen: dict[str, set[bytes]] = field(default_factory=dict)
    strangers: dict[bytes, str] = field(default_factory=dict)

    @property
    def missing(self) -> list[str]:
        return [p for p in self.pieces if p not in self.seen]

    @property
    def duplicated(self) -> dict[str, set[bytes]]:
        return {p: uids for p, uids in self.seen.items() if len(uids) > 1}

    @property
    def ok(self) -> bool:
        return not self.missing and not self.duplicated

    def lines(self) -> list[str]:
        n = len(self.pieces)
        out = [f"present: {n - len(self.missing)} of {n}"]
        if self.missing:
            out.append(f"missing ({len(self.missing)}): " + ", ".join(self.missing))
        for piece, uids in sorted(self.duplicated.items()):
            out.append(f"duplicated: {piece} on {len(uids)} tags: "
                       + ", ".join(sorted(uid_hex(u) for u in uids)))
        for uid, why in sorted(self.strangers.items()):
            out.append(f"not in this set: tag {uid_hex(uid)}: {why}")
        return out


def check_set(
    desk: Desk, identifier: Identifier, report: CheckReport, seconds: float
) -> CheckReport:
    """Fill `report` while the maker taps the set, for `seconds` or until every piece was seen
    (filled as it goes, so an interrupted check still reports what it saw)."""
    pieces = report.pieces
    wanted = set(pieces)
    end = desk.clock.now() + seconds
    desk.say(f"tap every piece of the set ({len(pieces)}); listening for up to {seconds:g} s")
    while desk.clock.now() < end and report.missing:
        tag = desk.wait_placed(end)
        if tag is None:
            break
        try:
            piece = identifier.identify(tag)
        except IdentityError as exc:
            report.strangers[tag.uid] = f"{exc.code}: {exc}"
            desk.say(f"  ? tag {uid_hex(tag.uid)}: {exc.code}")
            continue
        if piece not in wanted:
            report.strangers[tag.uid] = f"{piece} is not part of this set"
            desk.say(f"  ? {piece}: not part of this set")
            continue
        uids = report.seen.setdefault(piece, set())
        if uids and tag.uid not in uids:
            desk.say(f"  ! {piece} again, on another tag ({uid_hex(tag.uid)})")
        elif not uids:
            desk.say(f"  + {piece} ({len(report.seen)}/{len(pieces)})")
        uids.add(tag.uid)
    return report
