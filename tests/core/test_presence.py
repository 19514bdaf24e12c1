"""Presence tracking: placed at once, removed only after clean misses, garbled means present."""

from __future__ import annotations

from tabletap.controller.ports import Poll, TagRead
from tabletap.controller.table.presence import PresenceTracker

TAG = TagRead(b"\x04\x01\x02\x03\x04\x05\x06", b"ndef")
EMPTY = Poll(())
HERE = Poll((TAG,))
GARBLED = Poll((), garbled=True)


def test_a_tag_is_placed_on_the_first_poll_that_sees_it():
    tracker = PresenceTracker("chest", miss_threshold=3)
    events = tracker.update(HERE)
    assert [(e.kind, e.tag.uid) for e in events] == [("placed", TAG.uid)]
    assert tracker.update(HERE) == []


def test_removal_needs_three_clean_misses_in_a_row():
    tracker = PresenceTracker("chest", miss_threshold=3)
    tracker.update(HERE)
    assert tracker.update(EMPTY) == [] and tracker.update(EMPTY) == []
    assert [e.kind for e in tracker.update(EMPTY)] == ["removed"]


def test_a_single_miss_is_forgiven_when_the_tag_answers_again():
    tracker = PresenceTracker("chest", miss_threshold=3)
    tracker.update(HERE)
    for _ in range(20):  # a miss, a miss, then seen again: never a removal
        assert tracker.update(EMPTY) == []
        assert tracker.update(EMPTY) == []
        assert tracker.update(HERE) == []


def test_a_garbled_reply_means_still_present():
    tracker = PresenceTracker("chest", miss_threshold=2)
    tracker.update(HERE)
    for _ in range(10):
        assert tracker.update(GARBLED) == []
    assert [t.uid for t in tracker.present()] == [TAG.uid]


def test_two_tags_at_once_are_tracked_apart():
    other = TagRead(b"\x04\x09\x09\x09\x09\x09\x09", b"x")
    tracker = PresenceTracker("chest", miss_threshold=1)
    assert len(tracker.update(Poll((TAG, other)))) == 2
    events = tracker.update(Poll((other,)))
    assert [(e.kind, e.tag.uid) for e in events] == [("removed", TAG.uid)]
