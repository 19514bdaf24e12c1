"""The shared Event and Outcome (rules/base.py): sentences and events worked out when read.

Engines may hand over an event's text, or an outcome's events, as a function, so games nobody
reads (self-play, property tests) never build them; whoever reads them must not see a
difference (docs/CONTRACTS.md, "Rules engines").
"""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError

import pytest

from tabletap.controller.rules.base import Event, Outcome, new_outcome


def test_a_text_given_as_a_function_is_rendered_once_when_read():
    calls: list[int] = []

    def render() -> str:
        calls.append(1)
        return "ana rolls 3."

    event = Event("roll", render, {"player": "ana"})
    assert calls == []
    assert event.text == "ana rolls 3." and event.text == "ana rolls 3."
    assert calls == [1]
    assert event == Event("roll", "ana rolls 3.", {"player": "ana"})
    assert event != Event("roll", "ben rolls 3.", {"player": "ana"})
    assert repr(event) == "Event(kind='roll', text='ana rolls 3.', data={'player': 'ana'})"


def test_events_are_values_that_never_change():
    event = Event("turn", "It is ben's turn.")
    assert event.data == {}
    with pytest.raises(FrozenInstanceError):
        event.kind = "win"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del event.data
    lazy = Event("turn", lambda: "It is ben's turn.")
    assert pickle.loads(pickle.dumps(lazy)) == event == copy.deepcopy(lazy)


def test_an_outcome_with_events_given_as_a_function_reads_as_the_events():
    events = (Event("pond", "ana throws a key."), Event("turn", "It is ben's turn."))
    eager = Outcome("state", "action", events)
    lazy = Outcome("state", "action", lambda: list(events))
    fast = new_outcome(("state", "action", lambda: iter(events)))
    for outcome in (lazy, fast):
        assert outcome.events == events and outcome.events == events  # every read
        assert outcome == eager and outcome.state == "state" and outcome.action == "action"
    assert Outcome("state", "action").events == ()
    assert Outcome("state", "other", events) != eager
    assert "events=(Event(kind='pond'" in repr(lazy)
    with pytest.raises(AttributeError):
        lazy.state = "another"  # type: ignore[misc]
