"""Presence tracking tuned against the emulated PN532 (the issue's targets, in virtual time)."""

from __future__ import annotations

import random

import pytest

from tabletap.controller.ports import Poll, TagRead
from tabletap.controller.table.presence import PresenceTracker
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


def during_loop(table, loop: PollLoop, rng: random.Random, act, kind: str,
                limit: float = 5) -> float:
    """Do `act` at a random moment of the running loop (during a poll or its pause alike: a hand
    never waits for the loop) and run the loop until the `kind` event; seconds from act to
    event."""
    at = table.clock.now() + rng.random() * loop.period
    table.clock.call_at(at, act)
    seen = loop.run_until(lambda evs: any(e.kind == kind for e in evs), limit=limit)
    assert seen is not None and seen >= at
    return seen - at


def lift_latencies(table, loop: PollLoop, tag: SimTag, trials: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    out = []
    for _ in range(trials):
        table.world.place("chest", tag)
        assert loop.run_until(lambda evs: any(e.kind == "placed" for e in evs), limit=5) is not None
        loop.run_for(rng.random() * 0.5)
        out.append(during_loop(table, loop, rng, lambda: table.world.remove("chest", tag.uid),
                               "removed", limit=10))
    return out


# one poll of a resting tag that is missed, with its two extra listings, at 115200 baud, margin
MISSED_POLL = 0.02


def test_lift_is_reported_within_the_resting_and_confirm_periods(table):
    """A resting piece is polled every poll.resting_period; its first clean miss is confirmed
    poll.confirm_period later, so a lift is reported within both periods plus the two missed
    polls (the issue's lift goal, p99 <= 150 ms, at the defaults 0.06 + 0.02 s). Lifts come at
    random moments over many trials, so the worst phase is among them."""
    loop = PollLoop(table.reader(), table.clock)
    tag = SimTag.for_piece(GOLD)
    lifts = lift_latencies(table, loop, tag, trials=300, seed=7)
    bound = loop.resting_period + loop.confirm_period + 2 * MISSED_POLL
    assert max(lifts) <= bound, (max(lifts), bound)


def test_lifts_under_five_percent_faults_are_still_reported(table):
    """With 5% of polls faulted a garbled poll in the way postpones a lift (by design: garbled
    means "still there"; it is asked again after poll.confirm_period), and a vanished chip by
    its 0.3 s restart. Every lift is still reported, four in five within the clean bound, none
    later than a brown-out and one retry allow (docs/nfc.md gives the distribution)."""
    loop = PollLoop(table.reader(faults=FaultPlan(rate=0.05, seed=5)), table.clock)
    tag = SimTag.for_piece(GOLD)
    lifts = sorted(lift_latencies(table, loop, tag, trials=200, seed=5))
    bound = loop.resting_period + loop.confirm_period + 2 * MISSED_POLL
    assert lifts[int(0.8 * len(lifts))] <= bound
    assert lifts[-1] <= 2.0


def test_a_tap_on_a_waiting_reader_is_reported_within_the_read(table):
    """An empty reader waits for a tap (an armed listing, readers.*.arm) and the loop waits on
    it, so a tap is reported as soon as the chip has selected the tag and its NDEF is read,
    wherever the loop was in its pass: no poll period in between."""
    loop = PollLoop(table.reader(), table.clock)
    tag = SimTag.for_piece(GOLD)
    rng = random.Random(11)
    loop.run_for(0.5)
    read_time = 0.03  # activation, select and the 16-byte READs at 115200 baud, with margin
    for _ in range(300):
        assert during_loop(table, loop, rng, lambda: table.world.place("chest", tag),
                           "placed") <= read_time
        table.world.remove("chest", tag.uid)
        loop.run_until(lambda evs: any(e.kind == "removed" for e in evs))
        loop.run_for(rng.random() * 0.3)
