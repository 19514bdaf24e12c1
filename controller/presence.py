"""Presence tracking: from raw polls of one reader to `placed` / `removed` events.

A tag resting on a reader does not answer every poll (the field fades, a reply is garbled, the
chip needs re-waking). Counting every failed poll as a lift gives phantom removals, the failure
field reports describe, so a piece counts as removed only after `miss_threshold` clean misses in a
row, and a garbled reply means "still there". A placement is reported on the first poll that
identifies the tag: the family wants an answer the moment they tap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from controller.ports import Poll, TagRead


@dataclass(frozen=True)
class PresenceEvent:
    kind: Literal["placed", "removed"]
    reader: str
    tag: TagRead


@dataclass
class _Seen:
    tag: TagRead
    misses: int = 0


@dataclass
class PresenceTracker:
    reader: str
    miss_threshold: int = 3
    _present: dict[bytes, _Seen] = field(default_factory=dict)

    def update(self, poll: Poll) -> list[PresenceEvent]:
        """Fold one poll into what is present; return the events it causes."""
        events: list[PresenceEvent] = []
        seen_now = {t.uid: t for t in poll.tags}
        for uid, tag in seen_now.items():
            known = self._present.get(uid)
            if known is None:
                self._present[uid] = _Seen(tag)
                events.append(PresenceEvent("placed", self.reader, tag))
            else:
                known.misses = 0
                if known.tag.ndef is None and tag.ndef is not None:
                    known.tag = tag  # a later clean read completes what a torn read missed
        if poll.garbled:
            return events
        for uid in list(self._present):
            if uid in seen_now:
                continue
            known = self._present[uid]
            known.misses += 1
            if known.misses >= self.miss_threshold:
                del self._present[uid]
                events.append(PresenceEvent("removed", self.reader, known.tag))
        return events

    def present(self) -> list[TagRead]:
        return [s.tag for s in self._present.values()]

    def forget(self) -> list[PresenceEvent]:
        """The reader is gone: report nothing as removed (we do not know), just start afresh."""
        self._present.clear()
        return []
