"""The `uart` transport as configured at the table (`port:` a tty, real pyserial), with the
emulated chip at the far end of a pseudo-terminal."""

from __future__ import annotations

import pytest

from tabletap.controller.health.checks import check_reader
from tabletap.controller.ports import ReaderUnavailable
from tabletap.controller.settings.config import ReaderConfig
from tabletap.controller.table.identity import decode_piece
from tabletap.hw.pn532 import build_i2c, build_spi, build_uart
from tabletap.sim.world import SimTag


def test_uart_reader_over_real_pyserial(pty):
    reader = build_uart("chest", ReaderConfig(transport="uart", port=pty.port), {})
    try:
        assert reader.poll().tags == ()
        pty.field.append(SimTag.for_piece("magic-keys/key/gold").memory)
        (tag,) = reader.poll().tags
        assert decode_piece(tag.ndef) == "magic-keys/key/gold"
    finally:
        reader.close()


def test_uart_reader_on_a_port_that_does_not_exist():
    reader = build_uart("pond", ReaderConfig(transport="uart", port="/dev/tabletap-nothing"), {})
    with pytest.raises(ReaderUnavailable, match="pond"):
        reader.poll()


def test_uart_needs_a_port():
    with pytest.raises(ValueError, match="needs `port:`"):
        build_uart("chest", ReaderConfig(transport="uart"), {})


def test_spi_and_i2c_off_a_pi_are_a_missing_reader_not_a_crash():
    """Blinka cannot build a bus on this machine: the reader is reported missing (and retried
    by supervision), construction itself never touches the bus."""
    spi = build_spi("chest", ReaderConfig(transport="spi", cs="D5"), {})
    i2c = build_i2c("pond", ReaderConfig(transport="i2c"), {})
    for reader in (spi, i2c):
        with pytest.raises(ReaderUnavailable):
            reader.poll()


def test_a_second_reader_on_the_same_port_is_refused_and_the_first_goes_on(pty):
    """A second program on the reader's UART (a second table pointed at the same port, a tag
    tool run with another state folder) would interleave its commands with the daemon's, and
    each would read the other's replies as garbled taps. The port is opened exclusively: the
    second is a missing reader that says why, and the first reads on untouched."""
    cfg = ReaderConfig(transport="uart", port=pty.port)
    first, second = build_uart("chest", cfg, {}), build_uart("copy", cfg, {})
    try:
        assert first.poll().tags == ()
        with pytest.raises(ReaderUnavailable, match="in use by another program"):
            second.poll()
        pty.field.append(SimTag.for_piece("magic-keys/key/gold").memory)
        (tag,) = first.poll().tags
        assert decode_piece(tag.ndef) == "magic-keys/key/gold"
    finally:
        second.close()
        first.close()
    again = build_uart("chest", cfg, {})  # closed, the port is free for the next program
    try:
        assert len(again.poll().tags) == 1
    finally:
        again.close()


def test_the_doctor_says_who_holds_the_port_without_sending_the_maker_to_the_wires(pty):
    """A port another program holds is not a wiring fault: the doctor's finding says so and
    leaves out the UART's wiring checklist (TX to RX, the switches), which would send a maker to
    a screwdriver for a program to stop."""
    cfg = ReaderConfig(transport="uart", port=pty.port)
    holder, reader = build_uart("chest", cfg, {}), build_uart("chest", cfg, {})
    try:
        holder.poll()
        finding = check_reader("chest", reader, "uart")
    finally:
        reader.close()
        holder.close()
    assert finding.status == "failed"
    assert "in use by another program" in finding.detail and "TX to RX" not in finding.detail
    unplugged = build_uart("chest", ReaderConfig(transport="uart", port="/dev/tabletap-no"), {})
    assert "TX to RX" in check_reader("chest", unplugged, "uart").detail  # wiring: the hint
