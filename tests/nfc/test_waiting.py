"""A reader waiting for a tap (readers.*.arm): the chip, told to retry for ever, answers the
listing when a tag arrives; an empty wait is aborted with an ACK; a resting piece gets quick
polls (poll.resting_period). All on the real driver over the emulated chip, in virtual time."""

from __future__ import annotations

import pytest

from tabletap.controller.config import PollConfig, ReaderConfig
from tabletap.sim.pn532.faults import FaultPlan
from tabletap.sim.pn532.soak import PollLoop
from tabletap.sim.world import SimTag

GOLD = "magic-keys/key/gold"


def waiting_loop(table, faults=None) -> PollLoop:
    reader = table.reader(arm=0.1, faults=faults)
    loop = PollLoop(reader, table.clock, period=0.1, resting_period=0.03, run_loop=True)
    for _ in range(3):  # an empty field for a few polls: from then on the reader waits
        loop.tick()
    return loop


def test_an_empty_poll_waits_and_is_aborted_with_an_ack(table):
    loop = waiting_loop(table)
    chip = table.chip()
    start, before = table.clock.now(), len(chip.log)
    assert loop.supervised.poll(start) == []
    assert table.clock.now() - start >= 0.1  # the poll waited for a tag the whole time
    assert chip.log[before:] == ["in_list_passive_target"] and chip.armed is None  # ACK'd
    assert chip.max_retries_passive == 0xFF
    tag = SimTag.for_piece(GOLD)
    table.world.place("chest", tag)  # the next command is answered normally, not stale
    events = loop.supervised.poll(table.clock.now())
    assert [(e.kind, e.tag.uid) for e in events] == [("placed", tag.uid)]


def test_a_tap_during_the_wait_is_answered_at_once(table):
    loop = waiting_loop(table)
    tag = SimTag.for_piece(GOLD)
    at = table.clock.now() + 0.04
    table.clock.call_at(at, lambda: table.world.place("chest", tag))
    started = table.clock.now()
    events = loop.supervised.poll(started)
    assert [e.kind for e in events] == ["placed"]
    assert at < table.clock.now() < started + 0.1  # answered inside the wait, not after it
    assert "armed-answer" in table.chip().log


def test_a_resting_piece_is_polled_at_the_resting_period_and_its_lift_seen(table):
    loop = waiting_loop(table)
    tag = SimTag.for_piece(GOLD)
    table.world.place("chest", tag)
    assert loop.run_until(lambda evs: any(e.kind == "placed" for e in evs)) is not None
    chip = table.chip()
    before, start = len(chip.log), table.clock.now()
    loop.run_for(0.3)
    listings = chip.log[before:].count("in_list_passive_target")
    assert listings >= 0.3 / 0.04  # quick polls while it rests (0.03 s + the poll itself)
    assert chip.max_retries_passive == 1  # and no waiting while something is there
    table.world.remove("chest", tag.uid)
    lifted = loop.run_until(lambda evs: any(e.kind == "removed" for e in evs))
    assert lifted is not None and lifted - start < 0.3 + 0.2


@pytest.mark.parametrize("seed", [1, 2])
def test_no_phantom_removal_while_waiting_at_five_percent_faults(table, seed):
    loop = waiting_loop(table, FaultPlan(rate=0.05, seed=seed))
    table.world.place("chest", SimTag.for_piece(GOLD))
    loop.run_for(120)
    assert loop.count("placed") == 1 and loop.count("removed") == 0


def test_waiting_is_off_unless_configured(table):
    assert ReaderConfig().arm == 0.0 and PollConfig().resting_period is None
    assert table.reader().arm == 0.0


def test_daemon_uses_the_resting_period_while_a_piece_rests(table):
    from tabletap.controller.daemon import Daemon

    reader = table.reader(arm=0.1)
    daemon = Daemon.__new__(Daemon)  # only poll_wait's view of the readers matters here
    loop = PollLoop(reader, table.clock)
    daemon._supervised = {"chest": loop.supervised}
    assert daemon.poll_wait(0.1, 0.03) == 0.1
    table.world.place("chest", SimTag.for_piece(GOLD))
    loop.tick()
    assert daemon.poll_wait(0.1, 0.03) == 0.03
    assert daemon.poll_wait(0.1, None) == 0.1
