"""The simulated table: which tags lie in which reader's field, which buttons were pressed.

The scenario runner and `tabletap run --sim` change the world; the simulated adapters (and, with
the PN532 path, the emulated chips) read from it. Nothing here knows about games.
"""

from __future__ import annotations

import hashlib
import threading
from collections import deque
from dataclasses import dataclass, field

import ndef

from tabletap.controller.ports import InputEvent
from tabletap.controller.table.identity import encode_piece
from tabletap.sim.clock import VirtualClock
from tabletap.sim.ntag import Model, Ntag


def uid_for(label: str) -> bytes:
    """A stable 7-byte NXP-style UID for a piece, so runs are repeatable."""
    return b"\x04" + hashlib.sha256(label.encode()).digest()[:6]


@dataclass(eq=False)
class SimTag:
    """A tag as the world sees it: a UID and the NDEF message it was made with (b"": a blank,
    NDEF-formatted tag; None: a tag with no NDEF at all, known only by its UID).

    `memory` is the tag itself, an NTAG21x with its real page layout, built from `ndef`; the
    emulated PN532 reads and writes it, so after a `tabletap tags write` the memory, not `ndef`,
    says what the tag carries (`message()`).
    """

    uid: bytes
    ndef: bytes | None = None
    piece: str | None = None  # the piece it was made for, for the runner's bookkeeping
    model: Model = "ntag213"
    memory: Ntag = field(init=False)

    def __post_init__(self) -> None:
        self.memory = Ntag.formatted(self.uid, self.ndef, self.model)

    @classmethod
    def for_piece(cls, piece: str, model: Model = "ntag213") -> SimTag:
        return cls(uid=uid_for(piece), ndef=encode_piece(piece), piece=piece, model=model)

    @classmethod
    def blank(cls, label: str, model: Model = "ntag213") -> SimTag:
        """A new, NDEF-formatted tag with an empty message, as sold."""
        return cls(uid=uid_for("blank:" + label), ndef=b"", model=model)

    @classmethod
    def foreign(cls, label: str, uri: str = "https://example.com/") -> SimTag:
        """A tag someone else wrote (a web link): not a tabletap piece."""
        message = b"".join(ndef.message_encoder([ndef.UriRecord(uri)]))
        return cls(uid=uid_for("foreign:" + label), ndef=message)

    def message(self) -> bytes | None:
        return self.memory.ndef_message()


@dataclass
class SimWorld:
    clock: VirtualClock = field(default_factory=VirtualClock)
    fields: dict[str, list[SimTag]] = field(default_factory=dict)
    inputs: deque[InputEvent] = field(default_factory=deque)
    missing_readers: set[str] = field(default_factory=set)
    # set whenever a tag is placed or lifted: an emulated chip waiting for a tag on real time
    # sleeps on it instead of looking again and again
    changed: threading.Event = field(default_factory=threading.Event)

    def field_of(self, reader: str) -> list[SimTag]:
        return self.fields.setdefault(reader, [])

    def place(self, reader: str, tag: SimTag) -> None:
        self.field_of(reader).append(tag)
        self.changed.set()

    def remove(self, reader: str, uid: bytes) -> bool:
        tags = self.field_of(reader)
        for i, tag in enumerate(tags):
            if tag.uid == uid:
                del tags[i]
                self.changed.set()
                return True
        return False

    def press(self, name: str, long: bool = False) -> None:
        self.inputs.append(InputEvent(name, "hold" if long else "press"))

    def lid(self, closed: bool) -> None:
        self.inputs.append(InputEvent("lid", "lid-closed" if closed else "lid-open"))
