"""Waiting for a tap, the default (readers.*.arm): an empty reader leaves one armed
InListPassiveTarget with the chip (MaxRetries 0xFF: it keeps activating until a tag answers), and
the daemon's loop waits on every armed reader at once instead of polling. All on the real driver
over the emulated chip, in virtual time, and once over a real pseudo-terminal with real pyserial
and `selectors`."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tabletap.controller.ports import ReaderUnavailable
from tabletap.controller.settings.config import PollConfig, ReaderConfig
from tabletap.controller.table.daemon import Daemon
from tabletap.hw.pn532 import build_uart
from tabletap.hw.pn532.waiting import FdWait
from tabletap.sim.ntag import Ntag
from tabletap.sim.pn532.chip import Pn532Chip
from tabletap.sim.pn532.faults import IN_LIST, FaultPlan
from tabletap.sim.pn532.pty import PtyChip
from tabletap.sim.pn532.soak import PollLoop
from tabletap.sim.world import SimTag

GOLD = "magic-keys/key/gold"
READ_TIME = 0.03  # activation, select and the NDEF READs at 115200 baud, with margin


def waiting_loop(table, *names: str, faults=None) -> PollLoop:
    readers = [table.reader(n, faults=faults if n == "chest" else None)
               for n in (names or ("chest",))]
    loop = PollLoop(readers[0], table.clock, more=readers[1:])
    loop.run_for(0.5)  # an empty field for a few passes: from then on the readers wait
    return loop


def test_waiting_is_the_default():
    assert ReaderConfig().arm > 0
    assert PollConfig().resting_period is not None and PollConfig().confirm_period is not None


def test_an_empty_reader_waits_with_an_armed_listing_and_costs_no_exchange(table):
    loop = waiting_loop(table)
    chip = table.chip()
    assert chip.armed is not None and chip.max_retries_passive == 0xFF
    before, ticks = len(chip.log), loop.ticks
    loop.run_for(2.0)
    assert loop.ticks - ticks >= 19  # a pass of the loop every poll.period...
    # ...but only one exchange per `arm` seconds: the renewal (its ACK shows the chip is alive)
    renewals = chip.log[before:]
    assert set(renewals) == {"in_list_passive_target"}
    assert len(renewals) <= 2.0 / ReaderConfig().arm
    assert loop.supervised.reader.wait_handle() is not None


def test_a_tap_during_the_wait_wakes_the_loop_at_once(table):
    loop = waiting_loop(table)
    tag = SimTag.for_piece(GOLD)
    at = table.clock.now() + 0.04
    table.clock.call_at(at, lambda: table.world.place("chest", tag))
    seen = loop.run_until(lambda evs: any(e.kind == "placed" for e in evs))
    assert seen is not None and at < seen <= at + READ_TIME
    assert "armed-answer" in table.chip().log


def test_the_loop_waits_on_all_three_readers_at_once(table):
    """Not one reader after the other: a tap on any of three waiting readers wakes the loop,
    wherever it is in its pause."""
    loop = waiting_loop(table, "chest", "pond", "board")
    for n, name in enumerate(("board", "pond", "chest")):
        tag = SimTag.for_piece(f"magic-keys/key/blue/{n + 1}")
        at = table.clock.now() + 0.013 * (n + 1)
        table.clock.call_at(at, lambda t=tag, r=name: table.world.place(r, t))
        seen = loop.run_until(lambda evs: any(e.kind == "placed" for e in evs))
        # the pass it wakes also polls the readers where a piece now rests (~5 ms each)
        assert seen is not None and seen - at <= READ_TIME + 0.006 * n, (name, seen - at)
        assert [ev.reader for _, ev in loop.events][-1] == name


def test_the_armed_listing_is_renewed_and_a_dead_chip_is_found(table):
    loop = waiting_loop(table)
    chip = table.chip()
    before = len(chip.log)
    loop.run_for(ReaderConfig().arm + 0.1)
    assert chip.log[before:] == ["in_list_passive_target"]  # the ACK aborted, a new one ACK'd
    assert chip.armed is not None
    table.world.missing_readers.add("chest")  # the chip loses power while it waits
    loop.run_for(2 * ReaderConfig().arm + 1.0)
    assert loop.supervised.missing  # found at the next renewal, then supervised as usual
    table.world.missing_readers.discard("chest")
    table.world.place("chest", SimTag.for_piece(GOLD))
    assert loop.run_until(lambda evs: any(e.kind == "placed" for e in evs), limit=15)


def test_a_resting_piece_is_polled_at_the_resting_period_and_its_lift_confirmed(table):
    loop = waiting_loop(table)
    tag = SimTag.for_piece(GOLD)
    table.world.place("chest", tag)
    assert loop.run_until(lambda evs: any(e.kind == "placed" for e in evs)) is not None
    chip = table.chip()
    before = len(chip.log)
    loop.run_for(0.6)
    listings = chip.log[before:].count("in_list_passive_target")
    assert 0.6 / 0.07 <= listings <= 0.6 / 0.06 + 1  # one listing per resting period
    assert chip.max_retries_passive == 1 and chip.armed is None  # no waiting while it rests
    at = table.clock.now() + 0.01
    table.clock.call_at(at, lambda: table.world.remove("chest", tag.uid))
    lifted = loop.run_until(lambda evs: any(e.kind == "removed" for e in evs))
    assert lifted is not None and lifted - at <= 0.06 + 0.02 + 0.04
    loop.run_for(0.1)
    assert chip.armed is not None  # empty again: waiting again


def test_a_lifted_tag_is_forgotten_by_listings_not_by_passes_of_the_loop(table):
    """docs/nfc.md: a tag's NDEF is cached until it has been absent for `forget_after` (20)
    polls. While the reader waits, the loop still passes (every poll.period here; at the table
    for every request a phone sends) without looking at the field: such a pass is no listing.
    The defect: every pass aged the cache, so with a phone watching, a piece put back after a
    few seconds was read again (seen in `bench live`: the first tap of each new game, 24 ms
    instead of 9). Now only the armed listing's renewals, one every `arm` seconds, count."""
    loop = waiting_loop(table)
    tag = SimTag.for_piece(GOLD)
    table.world.place("chest", tag)
    assert loop.run_until(lambda evs: any(e.kind == "placed" for e in evs)) is not None
    table.world.remove("chest", tag.uid)
    assert loop.run_until(lambda evs: any(e.kind == "removed" for e in evs)) is not None
    ticks = loop.ticks
    loop.run_for(3.0)
    assert loop.ticks - ticks >= 25  # more passes than forget_after
    chip = table.chip()
    before = len(chip.log)
    table.world.place("chest", tag)
    assert loop.run_until(lambda evs: any(e.kind == "placed" for e in evs)) is not None
    assert "in_data_exchange" not in chip.log[before:]  # known by its UID: not read again


def test_a_command_from_the_tag_tools_aborts_the_armed_listing_first(table):
    loop = waiting_loop(table)
    table.world.place("chest", SimTag.for_piece(GOLD))
    reader = loop.supervised.reader
    uid = SimTag.for_piece(GOLD).uid
    assert reader.read_ndef(uid) is not None  # an ACK went first: the chip answered the read


@pytest.mark.parametrize("seed", [1, 2])
def test_no_phantom_removal_while_waiting_at_five_percent_faults(table, seed):
    loop = waiting_loop(table, faults=FaultPlan(rate=0.05, seed=seed))
    table.world.place("chest", SimTag.for_piece(GOLD))
    loop.run_for(120)
    assert loop.count("placed") == 1 and loop.count("removed") == 0


def test_a_faded_listing_then_a_lost_answer_is_no_lift(table):
    """docs/nfc.md, "Extra listings": a resting tag that skipped one activation is listed again
    at once, in the same poll. Why a waiting reader does not let an armed listing stand in for
    those extra listings (tried: about five exchanges fewer a lift): an armed listing's answer
    that is lost on the line is only noticed at its renewal, `arm` seconds later, so one faded
    listing and one dropped frame made a phantom lift and a second placement (nine placements
    in ten minutes at five per cent faults)."""
    faults = FaultPlan()
    loop = waiting_loop(table, faults=faults)
    tag = SimTag.for_piece(GOLD)
    table.world.place("chest", tag)
    assert loop.run_until(lambda evs: any(e.kind == "placed" for e in evs)) is not None
    loop.run_for(0.2)
    faults.arm("fade", IN_LIST)  # the next listing misses the resting tag...
    faults.arm("drop", IN_LIST)  # ...and the answer to the one after it never arrives
    loop.run_for(1.0)
    assert faults.injected == {"fade": 1, "drop": 1}
    assert (loop.count("placed"), loop.count("removed")) == (1, 0)


def test_a_piece_resting_after_a_lift_costs_one_listing_a_poll(table):
    """docs/nfc.md, "Extra listings": a missing tag is listed again only for the misses that
    can count towards its removal (the daemon's miss_threshold, 2). The defect: for five polls,
    so a piece left resting after another was lifted cost three listings a poll, for as long as
    three armed renewals once the reader had waited in between (seen in `bench live`: 6.8
    extra listings a trial where a lift needs four)."""
    loop = waiting_loop(table)
    gold, silver = SimTag.for_piece(GOLD), SimTag.for_piece("magic-keys/key/silver")
    table.world.place("chest", gold)
    table.world.place("chest", silver)
    assert loop.run_until(lambda evs: loop.count("placed") == 2) is not None
    chip = table.chip()
    table.world.remove("chest", gold.uid)
    before = len(chip.log)
    assert loop.run_until(lambda evs: any(e.kind == "removed" for e in evs)) is not None
    assert chip.log[before:].count("in_list_passive_target") == 2 * 3  # two misses, re-listed
    polls, before = loop.supervised.reader.stats["polls"], len(chip.log)
    loop.run_for(0.6)
    listings = chip.log[before:].count("in_list_passive_target")
    assert listings == loop.supervised.reader.stats["polls"] - polls > 0  # silver: one each


def test_waiting_off_polls_as_before(table):
    reader = table.reader(arm=0)
    loop = PollLoop(reader, table.clock)
    loop.run_for(0.5)
    assert table.chip().armed is None and reader.wait_handle() is None
    assert table.chip().log.count("in_list_passive_target") >= 4


def test_the_daemon_pauses_for_resting_and_confirming(table):
    loop = PollLoop(table.reader(), table.clock)
    # only poll_wait's view of the readers matters here
    daemon = Daemon(session=None, readers={}, buttons=None, clock=table.clock,  # type: ignore[arg-type]
                    identifier=None)  # type: ignore[arg-type]
    daemon._supervised = {"chest": loop.supervised}
    loop.run_for(0.3)
    assert daemon.poll_wait(0.1, 0.06, 0.02) == 0.1
    tag = SimTag.for_piece(GOLD)
    table.world.place("chest", tag)
    loop.run_until(lambda evs: bool(evs))
    assert daemon.poll_wait(0.1, 0.06, 0.02) == 0.06
    table.world.remove("chest", tag.uid)
    loop.supervised.poll(table.clock.now())  # one clean miss: the next poll decides
    assert daemon.poll_wait(0.1, 0.06, 0.02) == 0.02
    assert daemon.poll_wait(0.1, None, None) == 0.1


def test_fd_wait_returns_when_a_descriptor_is_readable():
    r, w = os.pipe()
    r2, w2 = os.pipe()
    try:
        t0 = time.monotonic()
        FdWait.wait_all([FdWait(r), FdWait(r2)], 0.05)
        assert time.monotonic() - t0 >= 0.04  # nothing came: the whole timeout
        os.write(w2, b"\x00")
        t0 = time.monotonic()
        FdWait.wait_all([FdWait(r), FdWait(r2)], 5)
        assert time.monotonic() - t0 < 1
    finally:
        for fd in (r, w, r2, w2):
            os.close(fd)


@contextmanager
def _uart_table() -> Iterator[tuple[list[Ntag], PtyChip, Any, PollLoop]]:
    """A `transport: uart` reader on real pyserial over a pty, the emulated chip at the far
    end, its loop run until the empty reader waits (an armed listing outstanding)."""
    field: list[Ntag] = []
    pty = PtyChip(Pn532Chip(field=lambda: field))
    reader = build_uart("chest", ReaderConfig(transport="uart", port=pty.port), {})
    try:
        loop = PollLoop(reader, reader.clock)
        loop.run_for(0.4)
        yield field, pty, reader, loop
    finally:
        reader.close()
        pty.close()


def test_uart_reader_waits_on_its_real_serial_port():
    """The table's path: `transport: uart`, real pyserial on a tty, the loop waiting on the
    port's file descriptor with selectors, the emulated chip at the far end answering the armed
    listing when a tag arrives."""
    with _uart_table() as (field, pty, reader, loop):
        handle = reader.wait_handle()
        assert isinstance(handle, FdWait) and pty.chip.armed is not None
        t0 = time.monotonic()
        loop.tick()  # nothing there: the pause is the whole period, spent in select
        assert time.monotonic() - t0 >= 0.08
        field.append(SimTag.for_piece(GOLD).memory)
        seen = loop.run_until(lambda evs: any(e.kind == "placed" for e in evs), limit=2)
        assert seen is not None


def test_a_uart_reader_offers_one_handle_while_its_port_stays_open():
    """The loop's selector keeps a reader registered while it sees the same handle (table/
    waiter.py), so the handle must change exactly when the port does: the same object from
    wait to wait, a new one once the port was closed and opened again (a descriptor closed
    and reused under the same number would otherwise stay out of the kernel's set)."""
    with _uart_table() as (_, _, reader, loop):
        first = reader.wait_handle()
        assert isinstance(first, FdWait)
        loop.run_for(0.6)  # a renewal of the armed listing: the same open port
        assert reader.wait_handle() is first
        reader.transport.disconnect()
        loop.run_for(0.6)  # the next poll reopens the port and arms again
        again = reader.wait_handle()
        assert isinstance(again, FdWait) and again is not first


def test_a_poked_pty_chip_answers_its_armed_listing_at_once():
    """The benchmark's emulator (bench/live) looks at its field when poked, not at its next
    step: a tap is seen the moment it happens, and an idle emulator sleeps."""
    field: list[Ntag] = []
    pty = PtyChip(Pn532Chip(field=lambda: field), baud=115200, armed_step=30.0)
    reader = build_uart("chest", ReaderConfig(transport="uart", port=pty.port), {})
    try:
        loop = PollLoop(reader, reader.clock)
        loop.run_for(0.4)
        handle = reader.wait_handle()
        assert isinstance(handle, FdWait) and pty.chip.armed is not None
        field.append(SimTag.for_piece(GOLD).memory)
        t0 = time.monotonic()
        pty.poke()
        FdWait.wait_all([handle], 10.0)
        assert time.monotonic() - t0 < 5  # not the 30 s step
    finally:
        reader.close()
        pty.close()


def test_a_missing_reader_is_not_waited_on(table):
    loop = waiting_loop(table)
    table.world.missing_readers.add("chest")
    with pytest.raises(ReaderUnavailable):
        for _ in range(40):
            table.clock.sleep(0.1)
            loop.supervised.reader.poll()


def test_a_wait_that_fails_does_not_end_the_loop(table, caplog):
    """A descriptor closed under the wait (a USB adapter pulled out between the poll and the
    select) is logged and slept through: nothing may end the daemon's loop."""
    from tabletap.controller.table.daemon import wait_for_readers

    r, w = os.pipe()
    os.close(r)
    os.close(w)

    class Gone:
        name = "chest"

        def wait_handle(self) -> FdWait:
            return FdWait(r)  # closed

    class Broken:
        name = "pond"

        def wait_handle(self) -> FdWait:
            raise OSError("port not open")

    t0 = table.clock.now()
    wait_for_readers([Broken(), Gone()], table.clock, 0.1)
    assert table.clock.now() - t0 >= 0.1 - 1e-9
    assert "waiting on the readers failed" in caplog.text


def test_a_port_unplugged_while_the_reader_waits_is_reopened(table):
    loop = waiting_loop(table)
    reader = loop.supervised.reader
    ports = table.context["ports"]["chest"]
    ports[-1].unplugged = True
    assert loop.supervised.poll(table.clock.now()) == []  # garbled: "still what it was"
    assert reader.wait_handle() is None and not ports[0].is_open
    table.world.place("chest", SimTag.for_piece(GOLD))
    assert loop.run_until(lambda evs: any(e.kind == "placed" for e in evs)) is not None
    assert len(ports) == 2


def test_a_miss_before_an_outage_and_faded_listings_on_return_are_no_lift(table):
    """docs/nfc.md, "Extra listings" and "A reader that blinks out": the daemon forgets a
    missing reader's miss counts (`PresenceTracker.forget`) and so must the reader. The defect:
    a resting piece missed once (a listing and both re-listings faded), then the reader went
    missing; on its return the reader still counted that miss, so it re-listed for one poll
    only and armed after the first empty listing, and the armed poll's empty field made the
    tracker's second miss: a removal, and the armed answer a second placement. Four faded
    activations in a row are no lift while the piece rests; two polls of three are."""
    faults = FaultPlan()
    loop = waiting_loop(table, faults=faults)
    table.world.place("chest", SimTag.for_piece(GOLD))
    assert loop.run_until(lambda evs: any(e.kind == "placed" for e in evs)) is not None
    loop.run_for(0.2)
    for _ in range(3):  # one poll: the listing and its two re-listings miss the piece
        faults.arm("fade", IN_LIST)
    loop.tick()
    assert loop.supervised.tracker.unsettled()  # missed once
    table.world.missing_readers.add("chest")  # the reader's power blinks out
    assert loop.run_until(lambda evs: loop.supervised.missing, limit=30) is not None
    for _ in range(4):
        faults.arm("fade", IN_LIST)
    table.world.missing_readers.discard("chest")
    assert loop.run_until(lambda evs: not loop.supervised.missing, limit=30) is not None
    loop.run_for(1.0)
    assert faults.injected == {"fade": 7}
    assert (loop.count("placed"), loop.count("removed")) == (1, 0)


def test_a_pass_just_before_the_renewal_is_due_renews(table):
    """The loop's pause ends at its soonest timer: on an empty table the one-second limit of
    the watchdog and the Pico link (Daemon.pause), which comes a few milliseconds before the
    renewal armed in the pass before it. That pass renews (RENEWAL_SLACK), or the renewal
    takes a pass of its own just after, two passes a second where one does."""
    from tabletap.hw.pn532.reader import RENEWAL_SLACK

    loop = waiting_loop(table)
    reader, chip = loop.supervised.reader, table.chip()
    due = reader.renewal_due()
    assert due is not None
    table.clock.sleep(due - table.clock.now() - 2 * RENEWAL_SLACK)
    before = len(chip.log)
    reader.poll()
    assert chip.log[before:] == []  # not yet: the armed listing stands
    table.clock.sleep(RENEWAL_SLACK + 0.005)  # now 5 ms inside the slack, still before `due`
    assert table.clock.now() < due
    reader.poll()
    assert chip.log[before:] == ["in_list_passive_target"]  # renewed in this pass
    assert reader.renewal_due() > due
