"""The simulated table: which tags lie in which reader's field, which buttons were pressed.

The scenario runner and `tabletap run --sim` change the world; the simulated adapters (and, with
the PN532 path, the emulated chips) read from it. Nothing here knows about games.
"""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass, field

from controller.identity import encode_piece
from controller.ports import InputEvent
from sim.clock import VirtualClock


def uid_for(label: str) -> bytes:
    """A stable 7-byte NXP-style UID for a piece, so runs are repeatable."""
    return b"\x04" + hashlib.sha256(label.encode()).digest()[:6]


@dataclass
class SimTag:
    """A tag as the world sees it: a UID and the NDEF message it carries (None: blank)."""

    uid: bytes
    ndef: bytes | None = None
    piece: str | None = None  # the piece it was made for, for the runner's bookkeeping

    @classmethod
    def for_piece(cls, piece: str) -> SimTag:
        return cls(uid=uid_for(piece), ndef=encode_piece(piece), piece=piece)


@dataclass
class SimWorld:
    clock: VirtualClock = field(default_factory=VirtualClock)
    fields: dict[str, list[SimTag]] = field(default_factory=dict)
    inputs: deque[InputEvent] = field(default_factory=deque)
    missing_readers: set[str] = field(default_factory=set)

    def field_of(self, reader: str) -> list[SimTag]:
        return self.fields.setdefault(reader, [])

    def place(self, reader: str, tag: SimTag) -> None:
        self.field_of(reader).append(tag)

    def remove(self, reader: str, uid: bytes) -> bool:
        tags = self.field_of(reader)
        for i, tag in enumerate(tags):
            if tag.uid == uid:
                del tags[i]
                return True
        return False

    def press(self, name: str, long: bool = False) -> None:
        self.inputs.append(InputEvent(name, "hold" if long else "press"))

    def lid(self, closed: bool) -> None:
        self.inputs.append(InputEvent("lid", "lid-closed" if closed else "lid-open"))
