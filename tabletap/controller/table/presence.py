"""Presence tracking: from raw polls of one reader to `placed` / `removed` events.

A tag resting on a reader does not answer every poll (the field fades, a reply is garbled, the
chip needs re-waking). Counting every failed poll as a lift gives phantom removals, the failure
field reports describe, so a piece counts as removed only after `miss_threshold` clean misses in a
row, and a garbled reply means "still there". A placement is reported on the first poll that
reads the tag: the family wants an answer the moment they tap.

Tuned against the emulated PN532 (docs/nfc.md, tests/nfc/test_presence.py, `python -m bench nfc`):
with 5% of polls hit by a dropped reply, a bad checksum, a tag fading mid-read or the reader
vanishing, a resting tag gives no phantom removal in ten simulated minutes at `miss_threshold` 2,
and a clean lift is reported on the second clean miss, within three poll periods (the issue's
bound; at 3 misses one lift in 25 came later). What makes 2 enough is the reader adapter: a poll
that misses a recently seen tag lists up to twice more before it reports the miss, so one "clean
miss" here is three failed activations. Two rules of this module matter too:
- a tag whose read was torn (seen, but its NDEF read failed part-way) is not announced until a
  clean read or `torn_polls` polls later, so a fading tap does not become a "blank tag" error;
- a reader that goes missing (`forget`) keeps what was on it: when it returns, a piece still
  there is no new placement, and one lifted meanwhile is reported after the usual clean misses.
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct, field

from tabletap.controller.ports import Poll, TagRead


class PresenceEvent(Struct, frozen=True):
    kind: Literal["placed", "removed"]
    reader: str
    tag: TagRead


def _torn(tag: TagRead) -> bool:
    return tag.ndef is None and tag.error is not None


class _Seen(Struct):
    tag: TagRead
    misses: int = 0
    announced: bool = True
    torn_polls: int = 0


class PresenceTracker(Struct):
    reader: str
    miss_threshold: int = 2  # the default of poll.miss_threshold (docs/nfc.md, "Presence")
    torn_polls: int = 2  # polls a torn read may wait for a clean one before it is announced
    _present: dict[bytes, _Seen] = field(default_factory=dict)

    def update(self, poll: Poll) -> list[PresenceEvent]:
        """Fold one poll into what is present; return the events it causes."""
        events: list[PresenceEvent] = []
        seen_now = {t.uid: t for t in poll.tags}
        for uid, tag in seen_now.items():
            known = self._present.get(uid)
            if known is None:
                known = self._present[uid] = _Seen(tag, announced=False)
            else:
                known.misses = 0
                if _torn(known.tag) and not _torn(tag):
                    known.tag = tag  # a later clean read completes what a torn read missed
            if not known.announced:
                known.torn_polls += 1
                if not _torn(known.tag) or known.torn_polls > self.torn_polls:
                    known.announced = True
                    events.append(PresenceEvent("placed", self.reader, known.tag))
        if poll.garbled:
            return events
        for uid in list(self._present):
            if uid in seen_now:
                continue
            known = self._present[uid]
            known.misses += 1
            if known.misses >= self.miss_threshold:
                del self._present[uid]
                if known.announced:
                    events.append(PresenceEvent("removed", self.reader, known.tag))
        return events

    def unsettled(self) -> bool:
        """Whether the next poll decides something: a present piece missed once (one more
        clean miss is a lift), or a torn read waiting for a clean one. The daemon polls again
        after `poll.confirm_period` then, not after a whole period."""
        return any(s.misses or not s.announced for s in self._present.values())

    def present(self) -> list[TagRead]:
        return [s.tag for s in self._present.values() if s.announced]

    def forget(self) -> list[PresenceEvent]:
        """The reader is gone: report nothing (we do not know what happened on it).

        What was on it is kept, with its miss count cleared, rather than dropped: dropping it made
        every piece resting on a reader that blinked out come back as a new placement, i.e. a
        phantom tap. Polls after the reader returns settle it: a piece still there causes
        nothing, a piece lifted meanwhile is reported removed after the usual clean misses.
        """
        for seen in self._present.values():
            seen.misses = 0
        return []
