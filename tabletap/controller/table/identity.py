"""Piece identity: which piece a tag is.

A tag carries its piece id as one NDEF URI record `tabletap:<piece-id>`; a tag that cannot be
written is enrolled by UID in a registry file. NDEF is encoded and decoded with ndeflib, not by
hand: it is not this project's idea, and the library knows the corner cases.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import ndef
from msgspec import Struct

from tabletap.controller.loading.source import read_text
from tabletap.controller.loading.yamldoc import SourceError, load_text
from tabletap.controller.ports import TagRead
from tabletap.controller.state.atomic import atomic_write

SCHEME = "tabletap:"
PIECE_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*(?:/[a-z0-9]+(?:-[a-z0-9]+)*)+$")


class IdentityError(ValueError):
    """A tag that names no piece. `code` is one of: blank, foreign, corrupt, unknown."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def encode_piece(piece: str) -> bytes:
    """The NDEF message bytes for a piece id (what `tabletap tags write` puts on a tag)."""
    if not PIECE_ID.match(piece):
        raise IdentityError("corrupt", f"{piece!r} is not a piece id (lower-case, /-separated)")
    return b"".join(ndef.message_encoder([ndef.UriRecord(SCHEME + piece)]))


# How many tags' messages `decode_piece` remembers: a table's pieces, and then some (a message
# is at most a tag's size, under 1 KiB, so the cache stays below a few hundred KiB).
DECODED = 256


def decode_piece(message: bytes | bytearray) -> str:
    """The piece id in an NDEF message; IdentityError for blank, foreign or corrupt content.

    Remembered by the message's bytes: every placement and every lift of a piece identifies
    it again, and ndeflib's decoding was about a twentieth of the daemon's CPU for a tap and
    its lift (bench live). The answer is the bytes' alone, so a remembered one is never
    stale; an error is not remembered and costs the decoding each time, as before."""
    return _decoded(bytes(message))


@lru_cache(maxsize=DECODED)
def _decoded(message: bytes) -> str:
    if not message:
        raise IdentityError("blank", "the tag is blank (no NDEF message)")
    try:
        records = list(ndef.message_decoder(message))
    except (ndef.DecodeError, ValueError) as exc:  # ndeflib also raises UnicodeDecodeError etc.
        raise IdentityError("corrupt", f"the tag's NDEF message is garbled ({exc})") from None
    if all(r.type == "" for r in records):  # one empty record: how phone apps erase a tag
        raise IdentityError("blank", "the tag is blank (an empty NDEF record)")
    try:  # ndeflib decodes the host part as IDNA when asked for .uri: it may fail there
        uris = [r.uri for r in records if isinstance(r, ndef.UriRecord)]
    except (UnicodeError, ValueError) as exc:
        raise IdentityError("corrupt", f"the tag's URI is garbled ({exc})") from None
    ours = [u for u in uris if u.startswith(SCHEME)]
    if not ours:
        what = uris[0] if uris else f"{len(records)} non-URI record(s)"
        raise IdentityError("foreign", f"the tag holds something else ({what}), not a tabletap id")
    piece = ours[0][len(SCHEME):]
    if not PIECE_ID.match(piece):
        raise IdentityError("corrupt", f"the tag names {piece!r}, which is not a piece id")
    return piece


def uid_hex(uid: bytes) -> str:
    return uid.hex(":")


class RegistryError(ValueError):
    """The UID registry file is damaged; the message names the file, line and entry."""


class UidRegistry(Struct):
    """UID -> piece id for tags that cannot be written, kept in a YAML file."""

    path: Path
    pieces: dict[str, str]

    @classmethod
    def load(cls, path: str | Path) -> UidRegistry:
        """The registry file; RegistryError naming the file and line for a damaged one."""
        p = Path(path)
        if not p.exists():
            return cls(p, {})
        try:
            doc = load_text(read_text(p), str(p))
        except SourceError as exc:
            raise RegistryError(str(exc)) from None
        data = doc.data or {}
        entries = data.get("uids", {}) if isinstance(data, dict) else None
        if not isinstance(entries, dict):
            raise RegistryError(str(doc.error(("uids",), "expected a mapping of UID to piece id")))
        pieces = {}
        for uid, piece in entries.items():
            if not isinstance(piece, str) or not PIECE_ID.match(piece):
                raise RegistryError(str(doc.error(("uids", uid), f"{piece!r} is not a piece id")))
            pieces[str(uid).lower()] = piece
        return cls(p, pieces)

    def lookup(self, uid: bytes) -> str | None:
        return self.pieces.get(uid_hex(uid))

    def enroll(self, uid: bytes, piece: str) -> None:
        if not PIECE_ID.match(piece):
            raise IdentityError("corrupt", f"{piece!r} is not a piece id")
        self.pieces[uid_hex(uid)] = piece

    def save(self) -> None:
        # PyYAML is imported to write only: a start reads the registry without it
        # (loading.doccache), and a tag is enrolled long after the start.
        import yaml

        text = yaml.safe_dump({"uids": dict(sorted(self.pieces.items()))}, sort_keys=False)
        atomic_write(self.path, "# tabletap UID registry: tag UID -> piece id\n" + text)


class Identifier:
    """Resolves a TagRead to a piece id: the tag's own NDEF first, then the UID registry."""

    def __init__(self, registry: UidRegistry | None = None) -> None:
        self.registry = registry

    def identify(self, tag: TagRead) -> str:
        registered = self.registry.lookup(tag.uid) if self.registry else None
        if tag.ndef is not None:
            try:
                return decode_piece(tag.ndef)
            except IdentityError:
                if registered:
                    return registered
                raise
        if registered:
            return registered
        if tag.error:
            raise IdentityError("corrupt", f"tag {uid_hex(tag.uid)} could not be read: {tag.error}")
        raise IdentityError("unknown", f"tag {uid_hex(tag.uid)} is not enrolled")
