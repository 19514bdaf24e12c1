"""The ports: what the daemon needs from the world, and nothing about how it is wired.

`hw` implements them over real drivers; `sim` drives those same adapters through emulated chips.
controller only ever sees these shapes (docs/CONTRACTS.md, "Ports").
"""

from __future__ import annotations

from typing import Literal, Protocol, runtime_checkable

from msgspec import Struct


class ReaderUnavailable(OSError):
    """The reader did not answer at all (unplugged, not powered, bus hung).

    Distinct from a garbled reply: supervision retries a missing reader with backoff, while a
    garbled reply only means "whatever was there is still there".
    """


class ReaderHeld(ReaderUnavailable):
    """The reader's port is held by another program (hw/serial_open.py): missing all the same,
    and retried, but no wiring to check (the doctor says so)."""


class TagRead(Struct, frozen=True):
    """One tag seen in the field: its UID and, when the read worked, its NDEF message bytes."""

    uid: bytes
    ndef: bytes | None = None
    error: str | None = None  # why the NDEF could not be read (tag left mid-read, bad TLV...)


class Poll(Struct, frozen=True):
    """One poll of a reader's field.

    `garbled` says the reader answered with something that could not be trusted (a bad checksum,
    a dropped reply): presence tracking then keeps whatever it believed was there.
    """

    tags: tuple[TagRead, ...] = ()
    garbled: bool = False


@runtime_checkable
class TagReader(Protocol):
    name: str

    def poll(self) -> Poll:
        """Read the field once; raises ReaderUnavailable when the reader is gone."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class ListsTargets(Protocol):
    """A reader whose single listings can be asked for with a number of activation retries (a
    PN532's MxRtyPassiveActivation), for `tabletap tags misses` (table/misses.py)."""

    name: str
    passive_retries: int  # the retries of the reader's own polls
    relists: int  # its extra listings, at most, after a miss

    def list_uids(self, retries: int) -> set[bytes] | None:
        """The UIDs one listing finds; None when its reply was lost or garbled."""
        ...


class Chest(Protocol):
    """The treasure chest's servo latch."""

    def set_open(self, open_: bool) -> None:
        """Unlatch (True) or latch (False); adapters never drive the servo past its limits."""
        ...

    @property
    def is_open(self) -> bool: ...

    def close(self) -> None: ...


class Lights(Protocol):
    """Named feedback patterns; how they look is the adapter's business."""

    def show(self, pattern: str, colour: str | None = None, count: int | None = None) -> None:
        """Show a named pattern; `count` (0..9) adds a number to it, drawn the adapter's way
        (lit pixels on a ring, blinks on a single LED): the cards a player draws, say."""
        ...

    @property
    def pattern(self) -> str: ...

    def close(self) -> None: ...


InputKind = Literal["press", "hold", "lid-open", "lid-closed"]


class InputEvent(Struct, frozen=True):
    """A button press (short or long) or a lid switch change."""

    name: str
    kind: InputKind = "press"


class Buttons(Protocol):
    def events(self) -> list[InputEvent]:
        """Drain what happened since the last call (callbacks queue, the daemon loop drains)."""
        ...

    def close(self) -> None: ...


class Clock(Protocol):
    """Injected everywhere that waits or times out, so the simulator can run on virtual time."""

    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class Outputs(Struct):
    """What an output backend (`backend: sim | gpio | serial`) hands the daemon."""

    chest: Chest
    lights: Lights
    buttons: Buttons

    def close(self) -> None:
        for part in (self.chest, self.lights, self.buttons):
            part.close()


class TagWriteError(RuntimeError):
    """Programming a tag failed. `code`: absent (not on the reader), locked (read-only), full (the
    message does not fit), unformatted (no NDEF capability container), io (the tag or reader
    stopped answering part-way)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@runtime_checkable
class TagWriter(Protocol):
    """What `tabletap tags write` needs beyond polling: one named tag, read fresh, written."""

    def read_ndef(self, uid: bytes) -> bytes | None:
        """The tag's NDEF message read now, bypassing any cache: b"" when its NDEF area is
        empty, None when the tag is not NDEF-formatted at all."""
        ...

    def write_ndef(self, uid: bytes, message: bytes) -> None:
        """Write `message` as the tag's NDEF message; TagWriteError when it cannot."""
        ...

    def is_locked(self, uid: bytes) -> bool:
        """Whether the tag is read-only (capability container or lock bits)."""
        ...
