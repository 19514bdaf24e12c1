"""Programming tags (the TagWriter port) through the real driver on the emulated chip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletap.controller.ports import TagWriteError, TagWriter
from tabletap.controller.table.identity import decode_piece, encode_piece
from tabletap.sim.world import SimTag


def test_write_then_read_back(table):
    reader = table.reader()
    assert isinstance(reader, TagWriter)
    tag = SimTag.blank("w1")
    table.world.place("chest", tag)
    reader.write_ndef(tag.uid, encode_piece("magic-keys/key/blue/2"))
    assert decode_piece(reader.read_ndef(tag.uid)) == "magic-keys/key/blue/2"
    assert decode_piece(tag.message()) == "magic-keys/key/blue/2"  # in the tag's own memory


def test_write_goes_to_the_named_tag_of_two(table):
    reader = table.reader()
    a, b = SimTag.blank("a"), SimTag.blank("b")
    table.world.place("chest", a)
    table.world.place("chest", b)
    reader.write_ndef(b.uid, encode_piece("magic-keys/key/gold"))
    assert a.message() == b"" and decode_piece(b.message()) == "magic-keys/key/gold"


def test_locked_tag_is_refused_and_untouched(table):
    reader = table.reader()
    tag = SimTag.for_piece("magic-keys/key/green/1")
    tag.memory.lock()
    before = bytes(tag.memory.memory)
    table.world.place("chest", tag)
    assert reader.is_locked(tag.uid)
    with pytest.raises(TagWriteError) as err:
        reader.write_ndef(tag.uid, encode_piece("magic-keys/key/gold"))
    assert err.value.code == "locked"
    assert bytes(tag.memory.memory) == before


def test_partly_locked_tag_counts_as_locked(table):
    reader = table.reader()
    tag = SimTag.blank("p")
    tag.memory.write(tag.memory.layout.dyn_lock_page, b"\x01\x00\x00\x00")
    table.world.place("chest", tag)
    assert reader.is_locked(tag.uid)
    other = SimTag.blank("q")
    table.world.place("chest", other)
    assert not reader.is_locked(other.uid)


def test_absent_full_and_unformatted(table):
    reader = table.reader()
    with pytest.raises(TagWriteError) as err:
        reader.write_ndef(bytes(7), b"\xd0\x00\x00")
    assert err.value.code == "absent"
    tag = SimTag.blank("full")
    table.world.place("chest", tag)
    with pytest.raises(TagWriteError) as err:
        reader.write_ndef(tag.uid, b"\x00" * 200)
    assert err.value.code == "full"
    raw = SimTag(uid=bytes.fromhex("04000000000001"), ndef=None)
    table.world.place("chest", raw)
    with pytest.raises(TagWriteError) as err:
        reader.write_ndef(raw.uid, encode_piece("magic-keys/key/gold"))
    assert err.value.code == "unformatted"


@pytest.mark.parametrize("fault", ["drop", "corrupt", "fade"])
def test_a_fault_during_a_write_is_retried(table, fault):
    reader = table.reader()
    tag = SimTag.blank("f")
    table.world.place("chest", tag)
    table.chip().faults.arm(fault, 0x40)
    reader.write_ndef(tag.uid, encode_piece("magic-keys/key/yellow/5"))
    assert decode_piece(reader.read_ndef(tag.uid)) == "magic-keys/key/yellow/5"


def test_a_write_cut_short_leaves_an_empty_message_not_half_of_one(table):
    """The first page goes in with length 0 and gets its real length last."""
    reader = table.reader()
    tag = SimTag.for_piece("magic-keys/key/purple/1")
    table.world.place("chest", tag)
    writes = []

    def lift_after_two_writes(cmd: int) -> None:
        if cmd == 0x40 and tag.memory.page(4)[1] == 0:
            writes.append(cmd)
            if len(writes) == 3:
                table.world.remove("chest", tag.uid)

    table.chip().on_command = lift_after_two_writes
    with pytest.raises(TagWriteError):
        reader.write_ndef(tag.uid, encode_piece("magic-keys/key/blue/5"))
    assert tag.message() == b""


@settings(max_examples=15, deadline=None)
@given(st.binary(min_size=1, max_size=130))
def test_any_message_that_fits_round_trips(message):
    from tests.nfc.conftest import Table

    table = Table()
    reader = table.reader()
    tag = SimTag.blank("h")
    table.world.place("chest", tag)
    reader.write_ndef(tag.uid, message)
    assert reader.read_ndef(tag.uid) == message
    assert tag.message() == message
