"""A simulated maker's hand for the `tabletap tags` commands run with `--sim`.

It rests some tags on the reader from the start and taps others one after another (place, hold,
lift, pause), in step with the reader's own exchanges: it acts whenever the emulated chip receives
a command, at the clock time of that command, so it needs no thread and runs on virtual time.

Tag specs: a piece id (an NTAG213 carrying it), `blank`, `foreign` (a web link), `corrupt` (an
NDEF record cut short), `unformatted` (no NDEF at all), `locked` (blank and read-only),
`locked:<piece>` (written, then read-only), `copy:<piece>` (a second tag carrying the same piece
id, for duplicate checks).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from tabletap.controller.ports import Clock
from tabletap.controller.table.identity import encode_piece
from tabletap.sim.ntag import ClassicCard
from tabletap.sim.world import SimTag, SimWorld, uid_for

HOLD_SECONDS = 1.5  # a maker holds the tag until the command answers
GAP_SECONDS = 0.5


def tag_from_spec(spec: str, index: int) -> SimTag:
    """A tag for one spec; `index` keeps UIDs of repeated specs apart."""
    label = f"{spec}#{index}"
    if spec == "blank":
        return SimTag.blank(label)
    if spec == "foreign":
        return SimTag.foreign(label)
    if spec == "locked":
        tag = SimTag.blank(label)
        tag.memory.lock()
        return tag
    if spec == "corrupt":  # an NDEF record cut short: its payload runs past the message
        return SimTag(uid=uid_for("corrupt:" + label), ndef=b"\xd1\x01\x30U\x00tabletap:")
    if spec == "unformatted":
        return SimTag(uid=uid_for("unformatted:" + label), ndef=None)
    if spec == "classic":  # a MIFARE Classic 1K card (4-byte UID), as shipped with PN532 kits
        tag = SimTag(uid=uid_for("classic:" + label)[:4], ndef=None)
        tag.memory = ClassicCard(uid=tag.uid)
        return tag
    kind, _, piece = spec.partition(":")
    if kind == "locked" and piece:
        tag = SimTag(uid=uid_for(label), ndef=encode_piece(piece), piece=piece)
        tag.memory.lock()
        return tag
    if kind == "copy" and piece:
        return SimTag(uid=uid_for(label), ndef=encode_piece(piece), piece=piece)
    return SimTag.for_piece(spec)  # raises IdentityError for something that is no piece id


@dataclass
class Hand:
    world: SimWorld
    reader: str
    clock: Clock
    taps: deque[SimTag] = field(default_factory=deque)
    hold: float = HOLD_SECONDS
    gap: float = GAP_SECONDS
    _current: SimTag | None = None
    _since: float = 0.0

    def __post_init__(self) -> None:
        self._since = self.clock.now()

    @classmethod
    def from_specs(
        cls, world: SimWorld, reader: str, clock: Clock, rest: list[str], taps: list[str]
    ) -> Hand:
        for i, spec in enumerate(rest):
            world.place(reader, tag_from_spec(spec, i))
        tapped = deque(tag_from_spec(spec, 1000 + i) for i, spec in enumerate(taps))
        return cls(world, reader, clock, tapped)

    def tick(self, _command: int = 0) -> None:
        now = self.clock.now()
        if self._current is not None:
            if now - self._since >= self.hold:
                self.world.remove(self.reader, self._current.uid)
                self._current, self._since = None, now
        elif self.taps and now - self._since >= self.gap:
            self._current = self.taps.popleft()
            self.world.place(self.reader, self._current)
            self._since = now

    @property
    def done(self) -> bool:
        return self._current is None and not self.taps
