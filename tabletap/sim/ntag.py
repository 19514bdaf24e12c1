"""Virtual NTAG213/215/216 tags with the memory layout of NXP's NTAG213/215/216 datasheet.

Pages 0-1 hold the 7-byte UID with its check bytes (BCC0 = 0x88 ^ uid0 ^ uid1 ^ uid2, BCC1 = xor
of uid3..uid6); page 2 BCC1, an internal byte and the two static lock bytes; page 3 the capability
container (one-time programmable: writes OR into it); pages 4.. the user memory, with the NDEF
message in a TLV (0x03 len value, 0xFE terminator); then the dynamic lock bytes and the
configuration pages. READ (0x30) and WRITE (0xA2) behave as on the real tag: READ returns 16
bytes and rolls over to page 0 past the end, WRITE of a locked page gets a NAK. Only what the
reader path touches is modelled: no password protection, counters or originality signature.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Model = Literal["ntag213", "ntag215", "ntag216"]


@dataclass(frozen=True)
class Layout:
    """Where things live on one NTAG model (NTAG21x datasheet, section 8.5)."""

    pages: int  # total pages, config pages included
    user_end: int  # last page of user memory (inclusive)
    dyn_lock_page: int  # page holding the three dynamic lock bytes
    cc_size: int  # CC byte 2: data area size / 8
    dyn_block: int  # user pages covered by one dynamic lock bit


LAYOUTS: dict[str, Layout] = {
    "ntag213": Layout(pages=45, user_end=0x27, dyn_lock_page=0x28, cc_size=0x12, dyn_block=2),
    "ntag215": Layout(pages=135, user_end=0x81, dyn_lock_page=0x82, cc_size=0x3E, dyn_block=16),
    "ntag216": Layout(pages=231, user_end=0xE1, dyn_lock_page=0xE2, cc_size=0x6D, dyn_block=16),
}

ACK = 0x0A  # the tag's 4-bit ACK


class TagNak(Exception):
    """The tag answered with a 4-bit NAK (bad address, locked page)."""


def check_bytes(uid: bytes) -> tuple[int, int]:
    """BCC0 and BCC1 of a 7-byte UID (ISO/IEC 14443-3 cascade tag 0x88 in BCC0)."""
    if len(uid) != 7:
        raise ValueError("NTAG21x UIDs have 7 bytes")
    return 0x88 ^ uid[0] ^ uid[1] ^ uid[2], uid[3] ^ uid[4] ^ uid[5] ^ uid[6]


def ndef_tlv(message: bytes | None) -> bytes:
    """The TLV area for an NDEF message: an empty NDEF TLV for None (a blank, formatted tag)."""
    body = message or b""
    if len(body) < 0xFF:
        return bytes([0x03, len(body)]) + body + b"\xfe"
    return bytes([0x03, 0xFF, len(body) >> 8, len(body) & 0xFF]) + body + b"\xfe"


@dataclass
class Ntag:
    """One tag's memory and its ISO 14443-3 answer data."""

    uid: bytes
    model: Model = "ntag213"
    memory: bytearray = field(default_factory=bytearray)

    # ISO/IEC 14443-A activation data of every NTAG21x
    SENS_RES = b"\x00\x44"
    SEL_RES = 0x00

    def __post_init__(self) -> None:
        # ISO/IEC 14443-3 type A UIDs are single (4), double (7) or triple (10) size; any other
        # length cannot be listed, and a chip "answering" with one garbles every poll
        if len(self.uid) not in (4, 7, 10):
            raise ValueError(
                f"tag UID {self.uid.hex()} has {len(self.uid)} bytes; an ISO 14443 type A UID "
                "has 4, 7 or 10 bytes (8, 14 or 20 hex digits)"
            )

    @classmethod
    def formatted(cls, uid: bytes, message: bytes | None, model: Model = "ntag213") -> Ntag:
        """A tag as it leaves the factory (CC written, empty NDEF TLV), then `message` written;
        with `message` None, a tag that was never NDEF-formatted (CC all zero)."""
        tag = cls(uid=uid, model=model)
        layout = tag.layout
        mem = bytearray(layout.pages * 4)
        if len(uid) == 7:
            bcc0, bcc1 = check_bytes(uid)
            mem[0:4] = bytes([uid[0], uid[1], uid[2], bcc0])
            mem[4:8] = uid[3:7]
            mem[8:12] = bytes([bcc1, 0x48, 0x00, 0x00])
        else:  # not an NTAG UID (a scenario's 4-byte id): keep it and its xor, NTAG memory after
            mem[0 : len(uid)] = uid[:8]
            mem[8:12] = bytes([0x00, 0x48, 0x00, 0x00])
        if message is not None:
            mem[12:16] = bytes([0xE1, 0x10, layout.cc_size, 0x00])
        # dynamic lock bytes: byte 3 is RFUI and reads 0xBD on delivery
        dl = layout.dyn_lock_page * 4
        mem[dl : dl + 4] = b"\x00\x00\x00\xbd"
        # CFG0/CFG1: AUTH0 = 0xFF (no password protection)
        cfg = (layout.dyn_lock_page + 1) * 4
        mem[cfg : cfg + 4] = b"\x04\x00\x00\xff"
        tag.memory = mem
        if message is not None:
            tag.write_ndef(message)
        return tag

    @property
    def layout(self) -> Layout:
        return LAYOUTS[self.model]

    def page(self, n: int) -> bytes:
        return bytes(self.memory[n * 4 : n * 4 + 4])

    # --- the tag's own commands -------------------------------------------------------------
    def read(self, start: int) -> bytes:
        """READ 0x30: 16 bytes from `start`, rolling over to page 0 past the last page."""
        if not 0 <= start < self.layout.pages:
            raise TagNak(f"READ of page {start} beyond the tag's {self.layout.pages} pages")
        return b"".join(self.page((start + i) % self.layout.pages) for i in range(4))

    def write(self, n: int, data: bytes) -> None:
        """WRITE 0xA2: one page; lock bytes and the CC are OR-ed in (one-time programmable)."""
        if len(data) != 4:
            raise TagNak("WRITE needs exactly 4 bytes")
        if n < 2 or n >= self.layout.pages:
            raise TagNak(f"page {n} cannot be written")
        if n == 2:  # only the static lock bytes can change, and only from 0 to 1
            self.memory[10] |= data[2] & ~self._blocked_static_mask() & 0xFF
            self.memory[11] |= data[3] & ~self._blocked_static_mask(second=True) & 0xFF
            return
        if n == 3:
            if self.memory[10] & 0x08:  # L-CC
                raise TagNak("the capability container is locked")
            for i in range(4):
                self.memory[12 + i] |= data[i]
            return
        if n == self.layout.dyn_lock_page:
            for i in range(3):
                self.memory[n * 4 + i] |= data[i]
            return
        if self.page_locked(n):
            raise TagNak(f"page {n} is locked")
        self.memory[n * 4 : n * 4 + 4] = data

    def _blocked_static_mask(self, second: bool = False) -> int:
        """Block-lock bits freeze lock bits: BL-CC (bit 0), BL 9-4 (bit 1), BL 15-10 (bit 2)."""
        b0 = self.memory[10]
        mask = 0
        if second:
            if b0 & 0x04:
                mask |= 0xFC  # L10..L15
            if b0 & 0x02:
                mask |= 0x03  # L8, L9
            return mask
        if b0 & 0x01:
            mask |= 0x08
        if b0 & 0x02:
            mask |= 0xF0  # L4..L7
        return mask

    def page_locked(self, n: int) -> bool:
        """Whether WRITE to page `n` is refused by a static or dynamic lock bit."""
        if n < 4:
            return n != 2
        if n <= 15:
            bit = n - 4 + 4  # L4 is bit 4 of lock byte 0 ... L15 bit 7 of lock byte 1
            lock = self.memory[10] | (self.memory[11] << 8)
            return bool(lock >> bit & 1)
        if n <= self.layout.user_end:
            block = (n - 16) // self.layout.dyn_block
            dl = self.layout.dyn_lock_page * 4
            bits = self.memory[dl] | (self.memory[dl + 1] << 8)
            return bool(bits >> block & 1) if block < 16 else False
        return False  # configuration pages: not modelled as lockable

    # --- conveniences for the simulator (what a maker's phone app would do) ---------------------
    def write_ndef(self, message: bytes | None) -> None:
        """Replace the TLV area, as a phone app writing a new NDEF message would."""
        tlv = ndef_tlv(message)
        capacity = (self.layout.user_end - 3) * 4
        if len(tlv) > capacity:
            raise ValueError(f"{len(tlv)} bytes do not fit the {capacity}-byte {self.model}")
        padded = tlv + bytes(-len(tlv) % 4)
        for i in range(0, len(padded), 4):
            self.write(4 + i // 4, padded[i : i + 4])

    def lock(self) -> None:
        """Make the tag read-only the way NFC Forum type 2 tags are locked: CC write access 0x0F
        and every static and dynamic lock bit set."""
        self.write(3, b"\x00\x00\x00\x0f")
        self.write(self.layout.dyn_lock_page, b"\xff\xff\xff\x00")
        self.write(2, b"\x00\x00\xff\xff")

    def ndef_message(self) -> bytes | None:
        """The NDEF message in the user memory, None when there is no NDEF TLV."""
        data = bytes(self.memory[16 : (self.layout.user_end + 1) * 4])
        i = 0
        while i < len(data):
            t = data[i]
            if t == 0x00:
                i += 1
                continue
            if t == 0xFE or i + 1 >= len(data):
                return None
            length, skip = data[i + 1], 2
            if length == 0xFF:
                length, skip = int.from_bytes(data[i + 2 : i + 4], "big"), 4
            if t == 0x03:
                return data[i + skip : i + skip + length]
            i += skip + length
        return None


@dataclass
class ClassicCard(Ntag):
    """A MIFARE Classic 1K card, as shipped with PN532 kits: it lists like any type A tag but with
    SEL_RES 0x08, and its memory answers nothing without the Crypto1 authentication tabletap does
    not do (the card NAKs a READ or WRITE, as here). Only its UID can name it."""

    SENS_RES = b"\x00\x04"
    SEL_RES = 0x08

    def read(self, start: int) -> bytes:
        raise TagNak("MIFARE Classic: READ without authentication")

    def write(self, n: int, data: bytes) -> None:
        raise TagNak("MIFARE Classic: WRITE without authentication")
