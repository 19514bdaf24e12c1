"""The emulated PN532 at the frame level, and the unmodified adafruit driver on top of it."""

from __future__ import annotations

import pytest
from adafruit_pn532.adafruit_pn532 import PN532
from adafruit_pn532.uart import PN532_UART
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletap.hw.pn532.framing import FramedSerial, ReplyTimeout
from tabletap.sim.clock import VirtualClock
from tabletap.sim.ntag import Ntag
from tabletap.sim.pn532.chip import ACK, ERROR_FRAME, Pn532Chip, frame
from tabletap.sim.pn532.faults import FaultPlan
from tabletap.sim.pn532.port import EmulatedSerial
from tabletap.sim.pn532.timing import default_timing
from tabletap.sim.world import SimTag

WAKE = b"\x55\x55" + bytes(15)


def make(tags: list[Ntag] | None = None) -> tuple[Pn532Chip, EmulatedSerial, VirtualClock]:
    clock = VirtualClock()
    field = tags if tags is not None else []
    chip = Pn532Chip(field=lambda: field)
    return chip, EmulatedSerial(chip, clock, timeout=0.05), clock


def command(port: EmulatedSerial, cmd: int, params: bytes = b"") -> bytes:
    port.write(frame(bytes([0xD4, cmd]) + params))
    return port.read(64)


def test_frame_checksums():
    f = frame(bytes([0xD4, 0x02]))
    assert f == bytes([0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00])
    assert (f[3] + f[4]) & 0xFF == 0  # LEN + LCS
    assert sum(f[5:8]) & 0xFF == 0  # TFI + data + DCS


def test_chip_sleeps_until_the_wake_up_preamble():
    chip, port, _ = make()
    assert command(port, 0x02) == b""
    port.write(WAKE)
    out = command(port, 0x02)
    assert out[:6] == ACK
    assert out[6:] == frame(bytes([0xD5, 0x03, 0x32, 0x01, 0x06, 0x07]))


def test_bad_length_or_data_checksum_gets_no_ack():
    chip, port, _ = make()
    port.write(WAKE)
    good = bytearray(frame(bytes([0xD4, 0x02])))
    bad_lcs = bytes(good[:4]) + bytes([good[4] ^ 1]) + bytes(good[5:])
    port.write(bad_lcs)
    assert port.read(16) == b""
    bad_dcs = bytes(good[:-2]) + bytes([good[-2] ^ 1, 0])
    port.write(bad_dcs)
    assert port.read(16) == b""
    assert "bad-lcs" in chip.log and "bad-dcs" in chip.log


def test_unknown_command_gets_the_syntax_error_frame():
    _, port, _ = make()
    port.write(WAKE)
    assert command(port, 0x58) == ACK + ERROR_FRAME


def test_nack_makes_the_chip_send_its_last_reply_again():
    _, port, _ = make()
    port.write(WAKE)
    first = command(port, 0x02)
    port.write(b"\x00\x00\xff\xff\x00\x00")
    assert port.read(64) == first[6:]


def test_wire_time_follows_the_baud_rate():
    for baud in (115200, 9600):
        _, port, clock = make()
        port.baudrate = baud
        port.write(WAKE)
        t0 = clock.now()
        port.write(frame(bytes([0xD4, 0x02])))
        assert len(port.read(6 + 13)) == 19
        # 9 bytes out, 6 + 13 bytes back, 10 bits per byte, plus the chip's own time
        wire = (len(WAKE) + 9 + 6 + 13) * 10 / baud
        # the chip works on the command while its ACK is on the wire, so only the ACK delay shows
        assert default_timing().simple_command < 6 * 10 / baud + default_timing().ack_delay
        chip_time = default_timing().ack_delay
        assert clock.now() - t0 == pytest.approx(wire + chip_time, rel=0.02)


def driver(tags: list[Ntag]) -> tuple[PN532, Pn532Chip, EmulatedSerial]:
    chip, port, _ = make(tags)
    return PN532_UART(FramedSerial(port, 0.05)), chip, port


def test_real_driver_wakes_configures_and_reads_the_firmware():
    pn, chip, _ = driver([])
    assert pn.firmware_version == (0x32, 1, 6, 7)
    assert chip.sam_configured
    assert chip.log[:2] == ["sam_configuration", "firmware"]


def test_real_driver_reads_a_tag_uid_and_pages():
    tag = SimTag.for_piece("magic-keys/key/gold").memory
    pn, _, _ = driver([tag])
    assert bytes(pn.read_passive_target(timeout=0.5)) == tag.uid
    assert bytes(pn.ntag2xx_read_block(3)) == tag.page(3)
    assert bytes(pn.mifare_classic_read_block(4)) == tag.read(4)


def test_real_driver_writes_a_page_and_is_refused_on_a_locked_one():
    tag = SimTag.blank("w").memory
    pn, _, _ = driver([tag])
    pn.read_passive_target(timeout=0.5)
    assert pn.ntag2xx_write_block(6, b"\x01\x02\x03\x04")
    assert tag.page(6) == b"\x01\x02\x03\x04"
    tag.lock()
    assert not pn.ntag2xx_write_block(6, b"\x09\x09\x09\x09")
    assert tag.page(6) == b"\x01\x02\x03\x04"


def test_real_driver_mifare_calls_on_an_ntag():
    """What the driver's MIFARE Classic calls get from an NTAG: AUTH is refused (an NTAG knows no
    AUTH), the 16-byte COMPATIBILITY WRITE stores its first four bytes."""
    tag = SimTag.blank("m").memory
    pn, _, _ = driver([tag])
    pn.read_passive_target(timeout=0.5)
    assert not pn.mifare_classic_authenticate_block(tag.uid, 4, 0x60, b"\xff" * 6)
    assert pn.mifare_classic_write_block(8, bytes(range(16)))
    assert tag.page(8) == bytes(range(4))


def test_driver_raises_on_a_corrupt_checksum_and_on_a_torn_read():
    tag = SimTag.for_piece("magic-keys/key/gold").memory
    pn, chip, _ = driver([tag])
    pn.read_passive_target(timeout=0.5)
    chip.faults.arm("corrupt")
    with pytest.raises(RuntimeError, match="checksum"):
        pn.ntag2xx_read_block(4)
    pn.call_function(0x32, params=[0x02, 0x00, 0x0B, 0x08])  # what the adapter sets
    chip.faults.arm("fade")
    assert pn.ntag2xx_read_block(4) is None  # status 0x01: the tag did not answer


def test_the_wait_for_a_silent_tag_follows_rf_configuration():
    """PN532 user manual, RFConfiguration CfgItem 0x02: the non-DEP communication timeout is
    0x0A (51.2 ms) after power-on, longer than the adapter's 50 ms frame timeout: a tag leaving
    mid-read then looks like a silent chip. With 0x08 (12.8 ms) the chip reports it first."""
    tag = SimTag.for_piece("magic-keys/key/gold").memory
    pn, chip, port = driver([tag])
    pn.read_passive_target(timeout=0.5)
    assert chip.comm_timeout == pytest.approx(0.0512)
    chip.faults.arm("fade")
    with pytest.raises(ReplyTimeout):
        pn.ntag2xx_read_block(4)
    pn._uart.drain()  # the late status frame, as the adapter does after a failed exchange
    pn.call_function(0x32, params=[0x02, 0x00, 0x0B, 0x08])
    assert chip.comm_timeout == pytest.approx(0.0128)
    pn.read_passive_target(timeout=0.5)
    chip.faults.arm("fade")
    t0 = port.clock.now()
    assert pn.ntag2xx_read_block(4) is None
    assert 0.0128 <= port.clock.now() - t0 < 0.02


def test_two_tags_are_listed_with_max_targets_two():
    a, b = SimTag.for_piece("magic-keys/key/gold").memory, SimTag.blank("b").memory
    pn, _, _ = driver([a, b])
    resp = pn.call_function(0x4A, response_length=31, params=[2, 0])
    assert resp[0] == 2
    assert bytes(resp[6:13]) == a.uid and resp[13] == 2 and bytes(resp[18:25]) == b.uid
    # the driver's own one-target call still sees one of them
    assert bytes(pn.read_passive_target(timeout=0.5)) == a.uid


def test_empty_field_answers_promptly_only_once_retries_are_set():
    pn, _, port = driver([])
    with pytest.raises(ReplyTimeout):  # default MxRtyPassiveActivation 0xFF: retries for ever
        pn.call_function(0x4A, response_length=31, params=[2, 0])
    pn.call_function(0x32, params=[0x05, 0xFF, 0x01, 0x01])
    t0 = port.clock.now()
    assert pn.call_function(0x4A, response_length=31, params=[2, 0]) == b"\x00"
    assert port.clock.now() - t0 < 0.01


def test_frame_exact_reads_avoid_waiting_out_the_serial_timeout():
    """docs/hardware-notes.md: the driver asks for more bytes than the reply holds; over a plain
    port every call then waits the whole timeout. The wrapper returns at the frame's end."""
    tag = SimTag.for_piece("magic-keys/key/gold").memory
    chip, port, clock = make([tag])
    port.poll_step = 0.01  # the driver's own ready-loop sleep, in virtual time
    plain = PN532_UART(port)  # the driver straight on the port
    t0 = clock.now()
    plain.read_passive_target(timeout=0.5)
    slow = clock.now() - t0
    framed = PN532_UART(FramedSerial(EmulatedSerial(chip, clock, timeout=0.05), 0.05))
    t0 = clock.now()
    framed.read_passive_target(timeout=0.5)
    fast = clock.now() - t0
    assert slow > 0.05 > 0.01 > fast


def test_select_deselect_and_release():
    a, b = SimTag.for_piece("magic-keys/key/gold").memory, SimTag.blank("b").memory
    pn, chip, _ = driver([a, b])
    pn.call_function(0x32, params=[0x05, 0xFF, 0x01, 0x01])
    assert pn.call_function(0x4A, response_length=31, params=[2, 0])[0] == 2
    assert pn.call_function(0x54, response_length=1, params=[2]) == b"\x00"  # InSelect 2
    assert pn.call_function(0x44, response_length=1, params=[1]) == b"\x00"  # InDeselect
    assert pn.call_function(0x52, response_length=1, params=[1]) == b"\x00"  # InRelease 1
    assert pn.call_function(0x54, response_length=1, params=[1]) == b"\x27"  # gone: wrong context
    assert pn.call_function(0x40, response_length=17, params=[2, 0x30, 4])[0] == 0x00
    assert pn.call_function(0x52, response_length=1, params=[0]) == b"\x00"  # release all
    assert pn.call_function(0x40, response_length=17, params=[2, 0x30, 4]) == b"\x27"


@settings(max_examples=80, deadline=None)
@given(st.binary(max_size=120))
def test_chip_survives_any_byte_stream(noise):
    tag = SimTag.for_piece("magic-keys/key/gold").memory
    chip, port, _ = make([tag])
    port.write(WAKE)
    port.write(noise)
    port.read(200)
    # whatever came before, a clean command afterwards gets its answer
    port.write(b"\x00" * 8)  # idle bytes, as after line noise
    out = command(port, 0x02)
    assert out.endswith(frame(bytes([0xD5, 0x03, 0x32, 0x01, 0x06, 0x07])))


def test_a_stale_partial_frame_does_not_swallow_the_next_command():
    _, port, clock = make()
    port.write(WAKE)
    port.write(b"\x00\xff\x30\xd0\xd4")  # noise that looks like the head of a 48-byte frame
    clock.sleep(0.02)  # the driver's next command comes after a gap
    out = command(port, 0x02)
    assert out == ACK + frame(bytes([0xD5, 0x03, 0x32, 0x01, 0x06, 0x07]))


def _misses(pn: PN532, retries: int, listings: int) -> int:
    """Listings of one resting tag, MxRtyPassiveActivation `retries`, that found nothing."""
    pn.call_function(0x32, params=[0x05, 0xFF, 0x01, retries])
    return sum(pn.call_function(0x4A, response_length=20, params=[1, 0])[0] == 0
               for _ in range(listings))


def test_a_fade_misses_the_whole_listing_whatever_its_retries():
    """The `fade` model (sim/pn532/faults.py): the field is at fault, so the chip's own
    activation retries (PN532 user manual, RFConfiguration CfgItem 0x05, MxRtyPassiveActivation)
    do not cover it; only another listing does."""
    tag = SimTag.for_piece("magic-keys/key/gold").memory
    pn, chip, _ = driver([tag])
    chip.faults = FaultPlan(rate=0.2, kinds=("fade",), seed=3)
    single, six = _misses(pn, 0, 500), _misses(pn, 5, 500)
    assert 60 < single < 140 and 60 < six < 140


def test_an_activation_fade_misses_a_listing_only_when_every_retry_does():
    """The `activation_fade` model: each activation misses on its own, so a listing of six
    activations misses a resting tag about as often as six single ones in a row; an armed
    listing (MaxRetries 0xFF) tries until it finds it."""
    tag = SimTag.for_piece("magic-keys/key/gold").memory
    pn, chip, port = driver([tag])
    chip.faults = FaultPlan(activation_fade=0.2, seed=3)
    single, six = _misses(pn, 0, 500), _misses(pn, 5, 500)
    assert 60 < single < 140 and six <= 1
    assert chip.faults.injected["activation_fade"] == single + six
    pn.call_function(0x32, params=[0x05, 0xFF, 0x01, 0xFF])
    assert all(pn.call_function(0x4A, response_length=20, params=[1, 0])[0] == 1
               for _ in range(100))
    with pytest.raises(ValueError, match="activation_fade"):
        FaultPlan(activation_fade=1.0)
