"""Piece identity: the NDEF record `tabletap:<piece-id>`, or the UID registry."""

from __future__ import annotations

from pathlib import Path

import ndef
import pytest

from tabletap.controller.ports import TagRead
from tabletap.controller.table import identity
from tabletap.controller.table.identity import (
    Identifier,
    IdentityError,
    UidRegistry,
    decode_piece,
    encode_piece,
)

UID = bytes.fromhex("04a1b2c3d4e5f6")


def test_round_trip_through_ndef():
    assert decode_piece(encode_piece("magic-keys/key/blue/3")) == "magic-keys/key/blue/3"


def test_a_message_seen_before_is_not_decoded_again(monkeypatch: pytest.MonkeyPatch):
    """Every placement and lift identifies the piece again (bench live: ndeflib's decoding was
    about a twentieth of the daemon's CPU a tap): the same bytes are decoded once, a bytearray
    like bytes, and a bad message still raises every time."""
    decoded = []
    real = ndef.message_decoder

    def counting(message: bytes):  # type: ignore[no-untyped-def]
        decoded.append(bytes(message))
        return real(message)

    monkeypatch.setattr(ndef, "message_decoder", counting)
    identity._decoded.cache_clear()  # whatever other tests in this process decoded before
    message = encode_piece("magic-keys/key/green/7")
    for _ in range(3):
        assert decode_piece(message) == "magic-keys/key/green/7"
    assert decode_piece(bytearray(message)) == "magic-keys/key/green/7"
    assert decoded == [message]
    foreign = b"".join(ndef.message_encoder([ndef.UriRecord("https://example.org/7")]))
    for _ in range(2):
        with pytest.raises(IdentityError):
            decode_piece(foreign)
    assert decoded == [message, foreign, foreign]


def test_the_record_is_a_plain_ndef_uri_record():
    (record,) = ndef.message_decoder(encode_piece("kingdomino/domino/12"))
    assert record.uri == "tabletap:kingdomino/domino/12"


@pytest.mark.parametrize(
    ("message", "code"),
    [
        (b"", "blank"),
        (b"".join(ndef.message_encoder([ndef.UriRecord("https://example.org")])), "foreign"),
        (b"\xd1\x01\x30U\x00tabletap:x", "corrupt"),  # length runs past the end
        (b"".join(ndef.message_encoder([ndef.UriRecord("tabletap:Not A Piece")])), "corrupt"),
        # ndeflib raises more than DecodeError on garbage (found by fuzzing in review):
        (bytes.fromhex("d1011dda007461626c65746170426d616769632d6b657973026b65792f676f6c64"),
         "corrupt"),  # UnicodeDecodeError inside ndeflib
        (bytes.fromhex("72011d5500746162b7657461703a6d616769632d6b6579732f6b65792f67756c64"),
         "corrupt"),  # ValueError inside ndeflib
        (bytes.fromhex("d00000"), "blank"),  # one empty record: a tag "erased" by a phone app
    ],
)
def test_blank_foreign_and_corrupt_tags_are_told_apart(message: bytes, code: str):
    with pytest.raises(IdentityError) as err:
        decode_piece(message)
    assert err.value.code == code


def test_registry_round_trip_is_written_atomically(tmp_path: Path):
    path = tmp_path / "uids.yaml"
    registry = UidRegistry.load(path)
    registry.enroll(UID, "oversiege/red/tower/1")
    registry.save()
    assert not list(tmp_path.glob("*.tmp-tabletap"))
    assert UidRegistry.load(path).lookup(UID) == "oversiege/red/tower/1"


def test_identifier_prefers_the_tag_then_the_registry(tmp_path: Path):
    registry = UidRegistry(tmp_path / "u.yaml", {})
    registry.enroll(UID, "magic-keys/key/gold")
    ident = Identifier(registry)
    assert ident.identify(TagRead(UID, encode_piece("magic-keys/key/blue/1"))) == \
        "magic-keys/key/blue/1"
    assert ident.identify(TagRead(UID, b"")) == "magic-keys/key/gold"  # blank but enrolled
    with pytest.raises(IdentityError) as err:
        ident.identify(TagRead(bytes(7), None))
    assert err.value.code == "unknown"
