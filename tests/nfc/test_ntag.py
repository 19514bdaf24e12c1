"""The virtual NTAG21x memory model against the NTAG213/215/216 datasheet layout."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletap.sim.ntag import LAYOUTS, Ntag, TagNak, check_bytes, ndef_tlv
from tabletap.sim.world import SimTag

UID = bytes.fromhex("04a1b2c3d4e5f6")


def test_uid_pages_carry_the_check_bytes():
    tag = Ntag.formatted(UID, b"")
    bcc0, bcc1 = check_bytes(UID)
    assert bcc0 == 0x88 ^ 0x04 ^ 0xA1 ^ 0xB2
    assert bcc1 == 0xC3 ^ 0xD4 ^ 0xE5 ^ 0xF6
    assert tag.page(0) == bytes([0x04, 0xA1, 0xB2, bcc0])
    assert tag.page(1) == UID[3:]
    assert tag.page(2)[0] == bcc1
    assert tag.page(2)[2:] == b"\x00\x00"  # static lock bytes clear on delivery


@pytest.mark.parametrize(("model", "size", "pages"), [
    ("ntag213", 0x12, 45), ("ntag215", 0x3E, 135), ("ntag216", 0x6D, 231),
])
def test_capability_container_names_the_data_area(model, size, pages):
    tag = Ntag.formatted(UID, b"", model)
    assert tag.page(3) == bytes([0xE1, 0x10, size, 0x00])
    assert LAYOUTS[model].pages == pages
    assert len(tag.memory) == pages * 4
    assert tag.page(4)[:3] == b"\x03\x00\xfe"  # an empty NDEF TLV, then the terminator


def test_unformatted_tag_has_no_capability_container():
    tag = Ntag.formatted(UID, None)
    assert tag.page(3) == b"\x00\x00\x00\x00"
    assert tag.ndef_message() is None


def test_read_returns_four_pages_and_rolls_over():
    tag = Ntag.formatted(UID, b"")
    assert tag.read(0)[:8] == tag.page(0) + tag.page(1)
    last = LAYOUTS["ntag213"].pages - 1
    assert tag.read(last)[4:8] == tag.page(0)
    with pytest.raises(TagNak):
        tag.read(LAYOUTS["ntag213"].pages)


def test_uid_pages_cannot_be_written_and_cc_is_one_time_programmable():
    tag = Ntag.formatted(UID, b"")
    with pytest.raises(TagNak):
        tag.write(0, b"\x00\x00\x00\x00")
    tag.write(3, b"\x00\x00\x00\x0f")
    tag.write(3, b"\x00\x00\x00\x00")  # OR-ed in: cannot be cleared
    assert tag.page(3)[3] == 0x0F


def test_lock_bits_refuse_writes():
    tag = Ntag.formatted(UID, b"")
    tag.write(2, b"\x00\x00\x10\x00")  # L4
    with pytest.raises(TagNak):
        tag.write(4, b"\x01\x02\x03\x04")
    tag.write(5, b"\x01\x02\x03\x04")  # page 5 still open
    tag.write(LAYOUTS["ntag213"].dyn_lock_page, b"\x01\x00\x00\x00")  # pages 16-17
    with pytest.raises(TagNak):
        tag.write(16, b"\x00\x00\x00\x00")
    tag.write(18, b"\x00\x00\x00\x00")


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=140), st.sampled_from(["ntag213", "ntag215", "ntag216"]))
def test_ndef_message_round_trips(message, model):
    tag = Ntag.formatted(UID, message, model)
    assert tag.ndef_message() == message
    assert tag.page(4)[0] == 0x03


def test_long_messages_use_the_three_byte_length():
    assert ndef_tlv(b"x" * 300)[:4] == bytes([0x03, 0xFF, 0x01, 0x2C])
    tag = Ntag.formatted(UID, b"y" * 300, "ntag215")
    assert tag.ndef_message() == b"y" * 300
    with pytest.raises(ValueError, match="do not fit"):
        Ntag.formatted(UID, b"z" * 200, "ntag213")


@pytest.mark.parametrize("uid", ["0102", "01020304050607080910111213", "", "0102030405"])
def test_a_uid_no_type_a_tag_can_have_is_refused_when_the_tag_is_made(uid):
    """A 2-byte UID used to be accepted and then garble every InListPassiveTarget reply."""
    with pytest.raises(ValueError, match="4, 7 or 10 bytes"):
        SimTag(uid=bytes.fromhex(uid))


@pytest.mark.parametrize("uid", ["01020304", "04010203040506", "04010203040506070809"])
def test_single_double_and_triple_size_uids_are_listed(table, uid):
    tag = SimTag(uid=bytes.fromhex(uid), ndef=b"")
    table.world.place("chest", tag)
    assert [t.uid for t in table.reader().poll().tags] == [tag.uid]
