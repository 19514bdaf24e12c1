"""Enrolling a box of tags from the phone, inside the running daemon.

`tabletap tags enroll` owns a reader of its own and blocks until each tag is tapped; at the table
the daemon owns the readers, so here enrolment is a mode of the daemon's own loop: while it is
on, every tag placed at any reader is programmed as the next piece of the box (the same checks as
`tabletap tags enroll`: read back, never overwrite another piece, enrol by UID what cannot be
written), and the play-by-play and the page's snapshot say how far it got.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from tabletap.controller.games.registry import title_said
from tabletap.controller.language.messages import msg, msg_n
from tabletap.controller.ports import TagRead, TagWriter
from tabletap.controller.spoken.words import piece_said
from tabletap.controller.table.identity import UidRegistry, uid_hex
from tabletap.controller.table.tagging import Enrolment, TagJobError

log = logging.getLogger("tabletap.enrol")


class EnrolmentError(ValueError):
    """An enrolment that cannot start; the message is the sentence to show."""


@dataclass
class BoxEnrolment:
    game: str
    pieces: list[str]
    registry: UidRegistry
    done: list[str] = field(default_factory=list)
    last: str = ""  # what the last tap did, for the page

    @property
    def next(self) -> str | None:
        return self.pieces[len(self.done)] if len(self.done) < len(self.pieces) else None

    def progress(self) -> dict[str, Any]:
        return {"game": self.game, "done": len(self.done), "total": len(self.pieces),
                "next": self.next, "last": self.last}


class EnrolDesk:
    """Starts, feeds and stops the daemon's enrolment mode. `say` is the play-by-play."""

    def __init__(self, readers: dict[str, Any], registry: UidRegistry | None, say: Any) -> None:
        self.readers = readers
        self.registry = registry
        self.say = say
        self.job: BoxEnrolment | None = None
        self.finished: BoxEnrolment | None = None  # the last one, for the page to report

    def progress(self) -> dict[str, Any] | None:
        shown = self.job or self.finished
        return None if shown is None else {**shown.progress(), "active": self.job is not None}

    def start(self, body: dict[str, Any]) -> BoxEnrolment:
        if self.registry is None:
            raise EnrolmentError("This table has no UID registry to enrol into.")
        game = body.get("game")
        decks = body.get("decks") or ()
        if not isinstance(game, str) or not isinstance(decks, list | tuple):
            raise EnrolmentError("enrol takes {\"game\": G} and, for a game whose players "
                                 "bring decks, \"decks\".")
        # every game's piece list reads its engine's data: loaded when a box is enrolled,
        # not while the daemon starts
        from tabletap.controller.table.pieces import pieces_of

        try:
            pieces = pieces_of(game, tuple(str(d) for d in decks), body.get("only"))
        except ValueError as exc:
            raise EnrolmentError(str(exc)) from None
        known = set(self.registry.pieces.values()) if body.get("resume", True) else set()
        job = BoxEnrolment(game, pieces, self.registry)
        job.done = [p for p in pieces if p in known]
        # Pieces already enrolled stay done; the rest keep the box's order.
        job.pieces = job.done + [p for p in pieces if p not in known]
        self.job, self.finished = job, job
        if job.next:
            # TRANSLATORS: the play-by-play when a grown-up starts enrolling a box of tags;
            # game is its title, done and n counts, piece the next piece in words
            self.say(msg_n("Enrolling %(game)s: %(done)s of %(n)s done; tap %(piece)s at any "
                           "reader.", "Enrolling %(game)s: %(done)s of %(n)s done; tap "
                           "%(piece)s at any reader.", len(pieces), game=title_said(game),
                           done=len(job.done), piece=piece_said(job.next)))
        else:
            # TRANSLATORS: enrolling a box whose tags are all known already; game is its title
            self.say(msg("%(game)s: every tag is already enrolled.", game=title_said(game)))
        if job.next is None:
            self.job = None
        return job

    def stop(self) -> BoxEnrolment | None:
        job, self.job = self.job, None
        if job is not None:
            # TRANSLATORS: enrolling stopped; done and n are counts of tags
            self.say(msg_n("Enrolment stopped at %(done)s of %(n)s; start it again to go on.",
                           "Enrolment stopped at %(done)s of %(n)s; start it again to go on.",
                           len(job.pieces), done=len(job.done)))
        return job

    def tag(self, reader: str, tag: TagRead) -> None:
        """A tag was placed while enrolling: program it as the next piece."""
        job = self.job
        if job is None or job.next is None:
            return
        piece = job.next
        owner = job.registry.lookup(tag.uid)
        if owner and owner != piece:
            job.last = f"that tag is already {owner}; tap a new one for {piece}"
            self.say(f"  ✗ {job.last}")
            return
        writer = self.readers.get(reader)
        if not isinstance(writer, TagWriter):
            job.last = f"reader {reader} cannot write tags; tap {piece} at another"
            self.say(f"  ✗ {job.last}")
            return
        try:
            how = Enrolment(None, writer, job.registry)._program(tag, piece)  # type: ignore[arg-type]
            job.registry.enroll(tag.uid, piece)
            job.registry.save()  # after every tag: a power cut keeps the progress
        except (TagJobError, OSError) as exc:
            job.last = f"{piece}: {exc}; tap it again"
            self.say(f"  ✗ {job.last}")
            return
        job.done.append(piece)
        job.last = f"{piece} is tag {uid_hex(tag.uid)} ({how})"
        following = job.next
        log.info("enrolled %s", job.last)
        if following:
            # TRANSLATORS: a tag enrolled; piece is it in words, done and n counts, next the
            # next piece in words
            self.say(msg_n("%(piece)s is enrolled (%(done)s of %(n)s). Next: %(next)s.",
                           "%(piece)s is enrolled (%(done)s of %(n)s). Next: %(next)s.",
                           len(job.pieces), piece=piece_said(piece), done=len(job.done),
                           next=piece_said(following)))
        if following is None:
            # TRANSLATORS: the last tag of a box enrolled; game is its title, n the count
            self.say(msg_n("Every %(game)s tag is enrolled (%(n)s).",
                           "Every %(game)s tag is enrolled (%(n)s).", len(job.pieces),
                           game=title_said(job.game)))
            self.job = None
            self.finished = job
