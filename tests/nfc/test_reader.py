"""The hw PN532 reader adapter, through the real adafruit driver, over the emulated chip."""

from __future__ import annotations

import time

import pytest

from tabletap.controller.ports import Poll, ReaderUnavailable, TagRead, TagReader, TagWriteError
from tabletap.controller.table.identity import decode_piece
from tabletap.sim.ntag import ClassicCard
from tabletap.sim.world import SimTag

GOLD = "magic-keys/key/gold"
PURPLE = "magic-keys/key/purple/1"


def pieces(poll: Poll) -> list[str]:
    return sorted(decode_piece(t.ndef) for t in poll.tags)


def test_reader_is_a_tag_reader_and_construction_touches_nothing(table):
    reader = table.reader()
    assert isinstance(reader, TagReader)
    assert table.chip().log == []  # first contact happens in the first poll


def test_empty_field_then_one_tag_then_two(table):
    reader = table.reader()
    assert reader.poll() == Poll()
    table.world.place("chest", SimTag.for_piece(GOLD))
    assert pieces(reader.poll()) == [GOLD]
    table.world.place("chest", SimTag.for_piece(PURPLE))
    assert pieces(reader.poll()) == [GOLD, PURPLE]
    table.world.remove("chest", SimTag.for_piece(GOLD).uid)
    assert pieces(reader.poll()) == [PURPLE]


def test_a_resting_tag_is_not_read_again(table):
    reader = table.reader()
    table.world.place("chest", SimTag.for_piece(GOLD))
    reader.poll()
    log = table.chip().log
    log.clear()
    for _ in range(5):
        assert pieces(reader.poll()) == [GOLD]
    assert log.count("in_data_exchange") == 0
    assert log.count("in_list_passive_target") == 5


def test_several_readers_at_once(table):
    chest, pond = table.reader("chest"), table.reader("pond")
    table.world.place("pond", SimTag.for_piece(GOLD))
    assert chest.poll() == Poll()
    assert pieces(pond.poll()) == [GOLD]


def test_long_message_on_an_ntag216_takes_several_reads(table):
    message = b"\xd1\x01" + bytes([200]) + b"U\x00" + b"tabletap:" + b"a" * 199
    tag = SimTag(uid=bytes.fromhex("04112233445566"), ndef=message, model="ntag216")
    table.world.place("chest", tag)
    poll = table.reader().poll()
    assert poll.tags[0].ndef == message
    assert table.chip().log.count("in_data_exchange") == 14  # 3 + 4*13 pages: 55 pages -> 14


def test_blank_foreign_and_unformatted_tags(table):
    reader = table.reader()
    table.world.place("chest", SimTag.blank("one"))
    assert reader.poll().tags[0].ndef == b""
    table.world.field_of("chest").clear()
    table.world.place("chest", SimTag(uid=bytes.fromhex("04deadbeef0001"), ndef=None))
    read = reader.poll().tags[0]
    assert read.ndef is None and read.error is None


# --- faults -----------------------------------------------------------------------------------
def test_dropped_reply_is_garbled_and_the_chip_is_reinitialised(table):
    reader = table.reader()
    table.world.place("chest", SimTag.for_piece(GOLD))
    reader.poll()
    table.chip().faults.arm("drop", 0x4A)
    assert reader.poll() == Poll(garbled=True)
    table.chip().log.clear()
    assert pieces(reader.poll()) == [GOLD]
    assert table.chip().log[:3] == ["sam_configuration", "firmware", "rf_configuration"]


def test_corrupt_checksum_is_garbled(table):
    reader = table.reader()
    table.world.place("chest", SimTag.for_piece(GOLD))
    reader.poll()
    table.chip().faults.arm("corrupt", 0x4A)
    assert reader.poll() == Poll(garbled=True)
    assert pieces(reader.poll()) == [GOLD]


def test_tag_fading_from_one_listing_is_listed_again_at_once(table):
    reader = table.reader()
    table.world.place("chest", SimTag.for_piece(GOLD))
    reader.poll()
    table.chip().log.clear()
    table.chip().faults.arm("fade", 0x4A)
    assert pieces(reader.poll()) == [GOLD]
    assert table.chip().log.count("in_list_passive_target") == 2
    # fading from two listings in a row: the third (a miss gets up to three) finds it
    table.chip().log.clear()
    table.chip().faults.arm("fade", 0x4A)
    table.chip().faults.arm("fade", 0x4A)
    assert pieces(reader.poll()) == [GOLD]
    assert table.chip().log.count("in_list_passive_target") == 3
    # fading from all three listings of one poll is a clean miss; the tag is back on the next
    for _ in range(3):
        table.chip().faults.arm("fade", 0x4A)
    assert reader.poll() == Poll()
    assert pieces(reader.poll()) == [GOLD]


def test_tag_leaving_in_the_middle_of_a_read(table):
    reader = table.reader()
    table.world.place("chest", SimTag.for_piece(GOLD))
    table.chip().faults.arm("fade", 0x40)  # the NDEF read's exchange gets no answer from the tag
    torn = reader.poll().tags[0]
    assert torn.ndef is None and "stopped answering" in torn.error
    assert pieces(reader.poll()) == [GOLD]  # not cached: read again, cleanly


def test_tag_lifted_between_listing_and_reading(table):
    """A real lift mid-read: the world changes while the adapter is between exchanges."""
    reader = table.reader()
    tag = SimTag.for_piece(GOLD)
    table.world.place("chest", tag)
    table.chip().on_command = lambda cmd: cmd == 0x40 and table.world.remove("chest", tag.uid)
    torn = reader.poll().tags[0]
    assert torn.ndef is None and torn.error
    assert reader.poll() == Poll()


# --- supervision ------------------------------------------------------------------------------
def test_reader_missing_at_start_raises_unavailable_on_first_poll(table):
    table.world.missing_readers.add("chest")
    reader = table.reader()
    with pytest.raises(ReaderUnavailable, match="chest"):
        reader.poll()
    t0 = table.clock.now()
    with pytest.raises(ReaderUnavailable):
        reader.poll()
    assert table.clock.now() - t0 < 0.1  # one frame timeout, not the driver's 1.5 s
    table.world.missing_readers.discard("chest")
    table.world.place("chest", SimTag.for_piece(GOLD))
    assert pieces(reader.poll()) == [GOLD]


def test_reader_vanishing_then_returning(table):
    reader = table.reader()
    table.world.place("chest", SimTag.for_piece(GOLD))
    assert pieces(reader.poll()) == [GOLD]
    table.world.missing_readers.add("chest")
    # a reader that answered before gets a few polls' grace, and at least half a second (the
    # loop retries a failed poll quickly): one lost reply or a brown-out is not an outage
    assert reader.poll() == Poll(garbled=True)
    assert reader.poll() == Poll(garbled=True)
    assert reader.poll() == Poll(garbled=True)  # three polls, but only 0.1 s of silence
    table.clock.sleep(0.5)
    with pytest.raises(ReaderUnavailable):
        reader.poll()
    with pytest.raises(ReaderUnavailable):
        reader.poll()
    table.world.missing_readers.discard("chest")
    # it came back power-cycled (asleep, retries for ever): the adapter wakes and configures it
    assert pieces(reader.poll()) == [GOLD]
    assert table.chip().max_retries_passive == 1


def test_vanish_fault_comes_back_by_itself(table):
    reader = table.reader()
    table.world.place("chest", SimTag.for_piece(GOLD))
    reader.poll()
    table.chip().faults.arm("vanish")
    results = []
    for _ in range(8):
        try:
            results.append(reader.poll())
        except ReaderUnavailable:
            results.append("missing")
        table.clock.sleep(0.1)
    assert results[0] == Poll(garbled=True)
    assert pieces(results[-1]) == [GOLD]


def test_serial_port_unplugged_is_reopened(table):
    reader = table.reader()
    table.world.place("chest", SimTag.for_piece(GOLD))
    reader.poll()
    ports = table.context["ports"]["chest"]
    ports[-1].unplugged = True
    assert reader.poll() == Poll(garbled=True)
    assert not ports[0].is_open
    assert pieces(reader.poll()) == [GOLD]
    assert len(ports) == 2


def test_one_dropped_reply_with_a_reset_pin_costs_no_pulse_and_no_wall_clock_sleep(
    table, monkeypatch
):
    """The driver's reset() sleeps 0.2 s on the wall clock at every (re)start: a single dropped
    reply used to stall the whole daemon. A dropped reply now only re-initialises the chip."""
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)
    reader = table.reader(reset_pin="D6")
    table.world.place("chest", SimTag.for_piece(GOLD))
    reader.poll()
    table.chip().faults.arm("drop", 0x4A)
    assert reader.poll() == Poll(garbled=True)
    assert pieces(reader.poll()) == [GOLD]
    assert table.chip().log.count("sam_configuration") == 2  # re-initialised all the same
    assert table.context["reset_pins"]["chest"].pulses == 0
    assert slept == []


def test_reset_pin_is_pulsed_on_the_injected_clock_once_the_chip_stays_silent(table, monkeypatch):
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)
    reader = table.reader(reset_pin="D6")
    table.world.place("chest", SimTag.for_piece(GOLD))
    reader.poll()
    table.world.missing_readers.add("chest")
    assert reader.poll() == Poll(garbled=True)
    assert reader.poll() == Poll(garbled=True)
    table.clock.sleep(0.5)  # silent long enough to count as missing (UNAVAILABLE_SECONDS)
    with pytest.raises(ReaderUnavailable):
        reader.poll()
    pin = table.context["reset_pins"]["chest"]
    assert pin.pulses == 0
    table.world.missing_readers.discard("chest")
    t0 = table.clock.now()
    assert pieces(reader.poll()) == [GOLD]
    assert pin.pulses == 1 and table.clock.now() - t0 >= 0.2  # low 0.1 s, settle 0.1 s
    assert slept == []


def test_poll_time_follows_the_baud_rate(table):
    fast, slow = table.reader("a"), table.reader("b", baud=9600)
    for r in (fast, slow):
        r.poll()
    t0 = table.clock.now()
    fast.poll()
    t1 = table.clock.now()
    slow.poll()
    t2 = table.clock.now()
    assert (t2 - t1) > 5 * (t1 - t0)


def test_firmware_version_for_the_doctor(table):
    reader = table.reader()
    assert reader.firmware_version() == (0x32, 1, 6, 7)
    table.world.missing_readers.add("chest")
    reader.close()
    assert reader.firmware_version() is None


def test_a_mifare_classic_card_is_listed_by_uid_and_its_memory_left_alone(table):
    """SEL_RES 0x08 says MIFARE Classic: an NTAG READ would be NAK'd on every poll and the card
    would stay a torn read for ever. It comes back with no NDEF and no error (only the UID
    registry can name it), once, and is not read again."""
    card = SimTag(uid=bytes.fromhex("a1b2c3d4"))
    card.memory = ClassicCard(uid=card.uid)
    table.world.place("chest", card)
    reader = table.reader()
    log = table.chip().log
    for _ in range(3):
        assert reader.poll() == Poll((TagRead(card.uid, None),))
    assert log.count("in_data_exchange") == 0


def test_writing_a_mifare_classic_card_is_refused_as_unformatted(table):
    card = SimTag(uid=bytes.fromhex("a1b2c3d4"))
    card.memory = ClassicCard(uid=card.uid)
    table.world.place("chest", card)
    reader = table.reader()
    reader.poll()
    with pytest.raises(TagWriteError) as exc:
        reader.write_ndef(card.uid, b"\xd1\x01\x01U\x00")
    assert exc.value.code == "unformatted" and "MIFARE Classic" in str(exc.value)
    assert table.chip().log.count("in_data_exchange") == 0


def test_the_chip_is_told_to_give_up_on_a_silent_tag_before_the_frame_timeout(table):
    """RFConfiguration CfgItem 0x02 at every start: 12.8 ms instead of the chip's 51.2 ms."""
    reader = table.reader()
    reader.poll()
    assert table.chip().comm_timeout == pytest.approx(0.0128)
    table.chip().power_on_reset()  # e.g. a brown-out: the configuration is lost
    assert reader.poll() == Poll(garbled=True)  # HSU asleep: silent, so the next poll restarts
    reader.poll()
    assert table.chip().comm_timeout == pytest.approx(0.0128)
