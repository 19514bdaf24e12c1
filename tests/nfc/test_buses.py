"""The unmodified SPI and I2C drivers (adafruit_pn532.spi / .i2c) over the emulated chip, through
the same reader adapter the `spi` and `i2c` transports build."""

from __future__ import annotations

import pytest

from tabletap.controller.ports import Poll, ReaderUnavailable
from tabletap.controller.table.identity import decode_piece, encode_piece
from tabletap.hw.pn532.reader import Pn532Reader
from tabletap.hw.pn532.transports import BusTransport, i2c_driver, spi_driver
from tabletap.sim.clock import VirtualClock
from tabletap.sim.pn532.bus import EmulatedI2cBus, EmulatedPin, EmulatedSpiBus
from tabletap.sim.pn532.chip import Pn532Chip
from tabletap.sim.world import SimTag, SimWorld


def make(kind: str, waiting: bool = True):
    """A reader on an emulated bus; `waiting` puts tabletap's ready-waiting wrapper between
    driver and bus (as the `spi`/`i2c` transports do), otherwise the driver's own 10 ms loop runs
    (accounted in virtual time by the emulated bus)."""
    clock = VirtualClock()
    world = SimWorld(clock=clock)
    chip = Pn532Chip(field=lambda: [t.memory for t in world.field_of("chest")],
                     powered=lambda: "chest" not in world.missing_readers)
    step = 0.0 if waiting else 0.01
    wait = (0.05, clock) if waiting else None
    if kind == "spi":
        bus = EmulatedSpiBus(chip, clock, poll_step=step)
        make_driver = spi_driver(lambda: bus, lambda: EmulatedPin(), wait=wait)
    else:
        bus = EmulatedI2cBus(chip, clock, poll_step=step)
        make_driver = i2c_driver(lambda: bus, 0x24, wait=wait)
    reader = Pn532Reader("chest", BusTransport(make_driver, kind), call_timeout=0.05)
    return reader, world, chip, clock


@pytest.mark.parametrize("kind", ["spi", "i2c"])
def test_poll_read_and_write_over_the_bus(kind):
    reader, world, chip, _ = make(kind)
    assert reader.poll() == Poll()
    assert chip.sam_configured and chip.max_retries_passive == 1
    gold, blank = SimTag.for_piece("magic-keys/key/gold"), SimTag.blank("b")
    world.place("chest", gold)
    world.place("chest", blank)
    poll = reader.poll()
    assert [t.ndef for t in poll.tags] == [gold.ndef, b""]
    reader.write_ndef(blank.uid, encode_piece("magic-keys/key/green/2"))
    assert decode_piece(reader.read_ndef(blank.uid)) == "magic-keys/key/green/2"


@pytest.mark.parametrize("kind", ["spi", "i2c"])
def test_faults_over_the_bus(kind):
    reader, world, chip, _ = make(kind)
    world.place("chest", SimTag.for_piece("magic-keys/key/gold"))
    reader.poll()
    chip.faults.arm("corrupt", 0x4A)
    assert reader.poll() == Poll(garbled=True)
    chip.faults.arm("drop", 0x4A)
    assert reader.poll() == Poll(garbled=True)
    assert len(reader.poll().tags) == 1


@pytest.mark.parametrize("kind", ["spi", "i2c"])
def test_missing_reader_over_the_bus(kind):
    reader, world, _, _ = make(kind)
    world.missing_readers.add("chest")
    with pytest.raises(ReaderUnavailable):
        reader.poll()
    world.missing_readers.discard("chest")
    assert reader.poll() == Poll()


@pytest.mark.parametrize("kind", ["spi", "i2c"])
def test_ready_waiting_spares_the_drivers_10_ms_steps(kind):
    """Without the wrapper the driver asks "ready?" every 10 ms, so each poll costs at least
    one such step; with it the poll ends when the chip is ready."""
    durations = {}
    for waiting in (False, True):
        reader, _, _, clock = make(kind, waiting)
        reader.poll()
        t0 = clock.now()
        reader.poll()
        durations[waiting] = clock.now() - t0
    assert durations[False] >= 0.01
    assert durations[True] < 0.01 and durations[True] < durations[False] - 0.005


@pytest.mark.parametrize("kind", ["spi", "i2c"])
def test_a_missing_bus_reader_costs_one_timeout_not_the_drivers_seconds(kind):
    reader, world, _, clock = make(kind)
    world.missing_readers.add("chest")
    t0 = clock.now()
    with pytest.raises(ReaderUnavailable):
        reader.poll()
    assert clock.now() - t0 <= 0.06


class NoEmptyWriteI2c(EmulatedI2cBus):
    """An I2C adapter that refuses zero-length writes (several Linux adapters do): the
    adafruit_bus_device probe then falls back to reading one byte."""

    def writeto(self, address, buf, *, start=0, end=None):
        if not bytes(buf)[start:end]:
            raise OSError(5, "Input/output error")
        super().writeto(address, buf, start=start, end=end)


def test_i2c_probe_by_one_byte_read_passes_the_ready_waiting_wrapper():
    """With no command outstanding a 1-byte read is not "ready?": it must reach the bus as it is
    (it used to wait for a reply nobody asked for and escape the probe as BusTimeout)."""
    clock = VirtualClock()
    world = SimWorld(clock=clock)
    world.place("chest", SimTag.for_piece("magic-keys/key/gold"))
    chip = Pn532Chip(field=lambda: [t.memory for t in world.field_of("chest")])
    bus = NoEmptyWriteI2c(chip, clock, poll_step=0.0)
    make_driver = i2c_driver(lambda: bus, 0x24, wait=(0.05, clock))
    reader = Pn532Reader("chest", BusTransport(make_driver, "i2c"), call_timeout=0.05)
    poll = reader.poll()
    assert [decode_piece(t.ndef) for t in poll.tags] == ["magic-keys/key/gold"]
    assert clock.now() < 0.05  # and the commands after it still wait for the chip, not 10 ms


# --- waiting for a tap on the IRQ line (readers.*.irq_pin) ---------------------------------------
def waiting_on_irq(kind: str):
    from tabletap.hw.pn532.reader import UNAVAILABLE_SECONDS_WAITING
    from tabletap.sim.pn532.bus import EmulatedIrq

    clock = VirtualClock()
    world = SimWorld(clock=clock)
    chip = Pn532Chip(field=lambda: [t.memory for t in world.field_of("chest")],
                     powered=lambda: "chest" not in world.missing_readers)
    if kind == "spi":
        bus = EmulatedSpiBus(chip, clock, poll_step=0.0)
        make_driver = spi_driver(lambda: bus, lambda: EmulatedPin(), wait=(0.05, clock))
    else:
        bus = EmulatedI2cBus(chip, clock, poll_step=0.0)
        make_driver = i2c_driver(lambda: bus, 0x24, wait=(0.05, clock))
    transport = BusTransport(make_driver, kind, irq=EmulatedIrq(bus.endpoint))
    reader = Pn532Reader("chest", transport, call_timeout=0.05, arm=0.5, clock=clock,
                         unavailable_seconds=UNAVAILABLE_SECONDS_WAITING)
    return reader, world, chip, clock


@pytest.mark.parametrize("kind", ["spi", "i2c"])
def test_a_bus_reader_with_its_irq_line_waits_for_a_tap(kind):
    from tabletap.sim.pn532.soak import PollLoop

    reader, world, chip, clock = waiting_on_irq(kind)
    loop = PollLoop(reader, clock)
    loop.run_for(0.5)
    assert chip.armed is not None and reader.wait_handle() is not None
    before = len(chip.log)
    loop.run_for(0.3)
    assert chip.log[before:] in ([], ["in_list_passive_target"])  # at most one renewal
    tag = SimTag.for_piece("magic-keys/key/gold")
    at = clock.now() + 0.037
    clock.call_at(at, lambda: world.place("chest", tag))
    seen = loop.run_until(lambda evs: any(e.kind == "placed" for e in evs))
    assert seen is not None and seen - at < 0.05  # the IRQ woke the loop, not the next pass
    assert "armed-answer" in chip.log
    (event,) = [ev for _, ev in loop.events]
    assert decode_piece(event.tag.ndef) == "magic-keys/key/gold"
    at = clock.now() + 0.01
    clock.call_at(at, lambda: world.remove("chest", tag.uid))
    assert loop.run_until(lambda evs: any(e.kind == "removed" for e in evs)) is not None
    loop.run_for(0.2)
    assert chip.armed is not None  # waiting again, the ACK'd abort and re-arm over the bus


def test_a_bus_reader_without_an_irq_line_is_polled():
    reader, world, chip, clock = make("spi")
    for _ in range(4):
        reader.poll()
    assert chip.armed is None and reader.wait_handle() is None


def test_irq_line_on_gpiozero_wakes_a_select():
    """The table's IRQ path: gpiozero watches the pin (here a MockFactory pin), its falling
    edge writes to a pipe the loop waits on with selectors."""
    import time

    from gpiozero.pins.mock import MockFactory

    from tabletap.hw.pn532.irq import gpio_irq, gpiozero_pin
    from tabletap.hw.pn532.waiting import FdWait

    assert gpiozero_pin("D25") == "GPIO25" and gpiozero_pin("BOARD22") == "BOARD22"
    factory = MockFactory()
    line = gpio_irq("D25", pin_factory=factory)
    pin = factory.pin(25)
    pin.drive_high()  # the chip has nothing for the host
    try:
        assert not line.ready()
        t0 = time.monotonic()
        FdWait.wait_all([line.handle()], 0.05)
        assert time.monotonic() - t0 >= 0.04
        pin.drive_low()  # an answer is ready
        t0 = time.monotonic()
        FdWait.wait_all([line.handle()], 5)
        assert time.monotonic() - t0 < 1
        assert line.ready()
        pin.drive_high()
        assert not line.ready()
        t0 = time.monotonic()
        FdWait.wait_all([line.handle()], 0.05)  # the pipe was emptied: no stale wake-up
        assert time.monotonic() - t0 >= 0.04
    finally:
        line.close()


def test_an_irq_pin_that_cannot_be_watched_falls_back_to_polling(caplog):
    from tabletap.hw.pn532.irq import IrqLine

    reader, world, chip, clock = waiting_on_irq("spi")

    def no_pin() -> None:
        raise RuntimeError("no GPIO pin factory works here")

    reader.transport.irq = IrqLine(no_pin)
    for _ in range(4):
        assert reader.poll() == Poll()
    assert reader.arm == 0 and chip.armed is None
    assert "cannot wait for taps" in caplog.text
    world.place("chest", SimTag.for_piece("magic-keys/key/gold"))
    assert len(reader.poll().tags) == 1
