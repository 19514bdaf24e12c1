"""Presence tracking tuned against the emulated PN532 (the issue's targets, in virtual time)."""

from __future__ import annotations

import random

import pytest

from tabletap.controller.ports import Poll, TagRead
from tabletap.controller.presence import PresenceTracker
from tabletap.sim.pn532.faults import FaultPlan
from tabletap.sim.pn532.soak import PollLoop
from tabletap.sim.world import SimTag

GOLD = "magic-keys/key/gold"
UID = b"\x04\x01\x02\x03\x04\x05\x06"


# --- the tracker on its own -------------------------------------------------------------------
def test_garbled_poll_means_still_present():
    t = PresenceTracker("chest", miss_threshold=3)
    t.update(Poll((TagRead(UID, b"x"),)))
    for _ in range(10):
        assert t.update(Poll(garbled=True)) == []
    assert [e.kind for e in t.update(Poll())] == []
    assert [e.kind for e in t.update(Poll()) + t.update(Poll())] == ["removed"]


def test_torn_read_waits_for_a_clean_one():
    t = PresenceTracker("chest", miss_threshold=3, torn_polls=2)
    assert t.update(Poll((TagRead(UID, None, "tag stopped answering"),))) == []
    placed = t.update(Poll((TagRead(UID, b"msg"),)))
    assert [(e.kind, e.tag.ndef) for e in placed] == [("placed", b"msg")]


def test_persistently_torn_tag_is_announced_with_its_error():
    t = PresenceTracker("chest", torn_polls=2)
    torn = Poll((TagRead(UID, None, "unreadable"),))
    assert t.update(torn) == [] and t.update(torn) == []
    assert [e.tag.error for e in t.update(torn)] == ["unreadable"]


def test_a_brush_past_the_reader_that_never_read_cleanly_is_not_announced():
    t = PresenceTracker("chest", miss_threshold=2)
    t.update(Poll((TagRead(UID, None, "torn"),)))
    assert t.update(Poll()) + t.update(Poll()) + t.update(Poll()) == []


def test_reader_outage_keeps_what_was_there():
    """A missing reader's pieces are not forgotten: no phantom placement when it returns."""
    t = PresenceTracker("chest", miss_threshold=3)
    t.update(Poll((TagRead(UID, b"x"),)))
    t.update(Poll())
    t.update(Poll())
    assert t.forget() == []
    assert t.update(Poll((TagRead(UID, b"x"),))) == []  # still there: nothing happens
    assert t.forget() == []
    assert [e.kind for e in t.update(Poll()) + t.update(Poll()) + t.update(Poll())] == ["removed"]


# --- against the emulated chip, through the real driver ---------------------------------------
@pytest.mark.parametrize("seed", [1, 2])
def test_no_phantom_removal_in_ten_minutes_at_five_percent_faults(table, seed):
    faults = FaultPlan(rate=0.05, seed=seed)
    reader = table.reader(faults=faults)
    table.world.place("chest", SimTag.for_piece(GOLD))
    loop = PollLoop(reader, table.clock)
    loop.run_for(600)
    assert loop.count("placed") == 1
    assert loop.count("removed") == 0
    assert sum(faults.injected.values()) > 200  # the faults really happened, of every kind
    assert set(faults.injected) == {"drop", "corrupt", "fade", "vanish"}


@pytest.mark.parametrize("fault", ["drop", "corrupt", "fade", "vanish"])
def test_each_fault_alone_causes_no_event(table, fault):
    reader = table.reader(faults=FaultPlan(rate=0.2, kinds=(fault,), seed=3))
    table.world.place("chest", SimTag.for_piece(GOLD))
    loop = PollLoop(reader, table.clock)
    loop.run_for(60)
    assert (loop.count("placed"), loop.count("removed")) == (1, 0)


def cycle_time(table, loop: PollLoop) -> float:
    """The loop's poll period as it stands: the daemon's sleep plus one poll (after a warm-up, so
    the first contact and a first read are not counted)."""
    loop.run_for(0.5)
    t0, n0 = table.clock.now(), loop.ticks
    loop.run_for(2)
    return (table.clock.now() - t0) / (loop.ticks - n0)


def act_between_polls(table, loop: PollLoop, rng: random.Random, act) -> float:
    """Poll, then do `act` at a random point of the daemon's sleep before the next poll (as a
    hand does: it never waits for the loop), finish the sleep; the time of the act."""
    loop.supervised.poll(table.clock.now())
    offset = rng.random() * loop.period
    table.clock.sleep(offset)
    at = table.clock.now()
    act()
    table.clock.sleep(loop.period - offset)
    return at


def lift_latencies(table, loop: PollLoop, tag: SimTag, trials: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    out = []
    for _ in range(trials):
        table.world.place("chest", tag)
        assert loop.run_until(lambda evs: any(e.kind == "placed" for e in evs), limit=5) is not None
        loop.run_for(rng.random() * 0.5)
        lifted = act_between_polls(table, loop, rng, lambda: table.world.remove("chest", tag.uid))
        at = loop.run_until(lambda evs: any(e.kind == "removed" for e in evs), limit=10)
        assert at is not None
        out.append(at - lifted)
    return out


def test_lift_is_reported_within_three_poll_periods(table):
    """The issue: "a lift is reported within 3 poll periods". The lift comes at a random point of
    the sleep between two polls, over many trials, so the worst phase (just after the poll that
    last saw the tag) is among them."""
    reader = table.reader()
    loop = PollLoop(reader, table.clock)
    tag = SimTag.for_piece(GOLD)
    table.world.place("chest", tag)
    period = cycle_time(table, loop)
    table.world.remove("chest", tag.uid)
    loop.run_until(lambda evs: any(e.kind == "removed" for e in evs))
    lifts = lift_latencies(table, loop, tag, trials=300, seed=7)
    assert max(lifts) <= 3 * period, (max(lifts), period)


def test_lifts_under_five_percent_faults_are_still_reported(table):
    """With 5% of polls faulted a garbled poll in the way postpones a lift by a poll (by design:
    garbled means "still there"), and a vanished chip by its restart; the 3-period bound is for
    clean lifts (docs/nfc.md gives the distribution). Every lift is still reported, four in five
    within the bound (at miss_threshold 3 it was fewer), none later than a reader outage allows."""
    reader = table.reader(faults=FaultPlan(rate=0.05, seed=5))
    loop = PollLoop(reader, table.clock)
    tag = SimTag.for_piece(GOLD)
    table.world.place("chest", tag)
    period = cycle_time(table, loop)
    table.world.remove("chest", tag.uid)
    loop.run_until(lambda evs: any(e.kind == "removed" for e in evs), limit=10)
    lifts = sorted(lift_latencies(table, loop, tag, trials=200, seed=5))
    assert lifts[int(0.8 * len(lifts))] <= 3 * period
    assert lifts[-1] <= 15 * period


def test_tap_is_reported_within_one_period_plus_the_read(table):
    """The issue: a tap is reported within one poll period plus the read. The tag lands at a
    random point of the sleep between polls, over many trials."""
    reader = table.reader()
    loop = PollLoop(reader, table.clock)
    tag = SimTag.for_piece(GOLD)
    table.world.place("chest", tag)
    period = cycle_time(table, loop)  # with the tag resting: one InListPassiveTarget per poll
    table.world.remove("chest", tag.uid)
    loop.run_until(lambda evs: any(e.kind == "removed" for e in evs))
    rng = random.Random(11)
    for _ in range(300):
        placed = act_between_polls(table, loop, rng, lambda: table.world.place("chest", tag))
        t0 = table.clock.now()
        at = loop.run_until(lambda evs: any(e.kind == "placed" for e in evs), limit=5)
        assert at is not None and at >= t0
        read_time = 0.03  # one 16-byte READ + InRelease at 115200 baud, with margin
        assert at - placed <= period + read_time, (at - placed, period)
        table.world.remove("chest", tag.uid)
        loop.run_until(lambda evs: any(e.kind == "removed" for e in evs))
        loop.run_for(rng.random() * 0.3)
