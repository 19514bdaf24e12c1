"""What every rules engine shares: typed rejections, events, and the engine contract.

Engines are pure (docs/CONTRACTS.md, "Rules engines"): a state and an action go in, a new state and
events come out. Nothing here waits, reads a clock or touches a device, so the same engine serves
the daemon, the scenario runner, journal replay and property tests alike.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import FrozenInstanceError
from functools import partial
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from tabletap.controller.language.said import Said, plain
from tabletap.controller.language.words import Words

JSON = dict[str, Any]
_ENGLISH = Words()


def english(said: Said) -> str:
    """A sentence in English (the source language), for logs, errors and tests."""
    return _ENGLISH.render(said)


class Rejection(Exception):
    """An action the rules forbid.

    `code` is stable (scenarios and docs refer to it); `message` is a sentence a child's parent
    can read. Raising it must leave the state untouched, which engines guarantee by building a
    new state rather than mutating the old one.
    """

    def __init__(self, code: str, message: str | Said) -> None:
        self.code = code
        self.said = message if isinstance(message, Said) else plain(message)
        self.message = english(self.said)
        super().__init__(f"{code}: {self.message}")


_set = object.__setattr__


class Event:
    """Something the table should know happened, with a play-by-play sentence.

    `kind` drives the table's answer (open the chest, light the winner); `data` carries the
    details as plain JSON values; `said` is the play-by-play's sentence, not yet in a language
    (language.Said; a plain string is taken as it is), and `text` that sentence in English, for
    logs and tests. It may be given as a callable taking no arguments instead: it is then built
    the first time it is read, so games nobody reads (self-play, property tests) never pay for their
    sentences. Events are values: equal when kind, text and data are, and never changed once
    made (assigning an attribute raises, as the frozen dataclass this replaces did).
    """

    __slots__ = ("kind", "_text", "data")
    __match_args__ = ("kind", "text", "data")

    kind: str
    data: JSON

    def __init__(
        self, kind: str, text: str | Said | Callable[[], str | Said], data: JSON | None = None
    ) -> None:
        _set(self, "kind", kind)
        _set(self, "_text", text)
        _set(self, "data", {} if data is None else data)

    @property
    def said(self) -> Said:
        text = self._text
        if callable(text):
            text = text()
            _set(self, "_text", text)
        return text if isinstance(text, Said) else plain(text)

    @property
    def text(self) -> str:
        return english(self.said)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Event)
        return (self.kind, self.said, self.data) == (other.kind, other.said, other.data)

    def __hash__(self) -> int:
        return hash((self.kind, self.said, self.data))

    def __repr__(self) -> str:
        return f"Event(kind={self.kind!r}, text={self.text!r}, data={self.data!r})"

    def __reduce__(self) -> tuple[type[Event], tuple[str, Said, JSON]]:
        return (Event, (self.kind, self.said, self.data))


S = TypeVar("S")
A = TypeVar("A")
Events = tuple[Event, ...] | Callable[[], Iterable[Event]]


class _OutcomeFields(NamedTuple):
    state: Any
    action: Any
    events: Any = ()


class Outcome(_OutcomeFields, Generic[S, A]):
    """The result of applying an accepted action.

    `action` is the action as resolved by the engine, with any chance outcome it drew filled in
    (a dice roll, say): that is what the journal stores, so replay never re-draws.

    `events` may be given as a callable taking no arguments instead of a tuple: reading
    `events` then calls it (on every read; engines are pure, so each read gives equal events).
    An engine playing thousands of moves nobody narrates (self-play, the property tests) then
    never builds their events at all. A tuple underneath only because it is the cheapest
    immutable value Python builds; read it by its field names.
    """

    __slots__ = ()

    @property  # type: ignore[misc]  # replaces the tuple field's accessor
    def events(self) -> tuple[Event, ...]:
        events = tuple.__getitem__(self, 2)
        if callable(events):
            return tuple(events())
        return events  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Outcome)
        return (self.state, self.action, self.events) == (other.state, other.action, other.events)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash((self.state, self.action, self.events))

    def __repr__(self) -> str:
        return f"Outcome(state={self.state!r}, action={self.action!r}, events={self.events!r})"


# Outcome((state, action, events)) made straight from the tuple, for an engine's hot path: the
# keyword-aware constructor costs more than the rest of a small move.
new_outcome: Callable[[tuple[Any, Any, Events]], Outcome[Any, Any]] = partial(
    tuple.__new__, Outcome
)


class Engine(Protocol[S, A]):
    """The contract every game module's engine object meets (python-chess is the model)."""

    name: str

    def new_game(
        self, players: list[str], seed: int, options: JSON, setup: JSON
    ) -> S:
        """A fresh state; raises Rejection (code `bad-setup`) for impossible options/setup."""
        ...

    def apply(self, state: S, action: A) -> Outcome[S, A]:
        """Apply an action or raise Rejection; never mutates `state`."""
        ...

    def legal_actions(self, state: S) -> list[A]:
        """Every action `apply` would accept now (chance left unresolved)."""
        ...

    def state_to_json(self, state: S) -> JSON: ...

    def state_from_json(self, data: JSON) -> S: ...

    def action_to_json(self, action: A) -> JSON: ...

    def action_from_json(self, data: JSON) -> A:
        """Raises Rejection (code `bad-action`) for a malformed action."""
        ...

    def public_view(self, state: S, reveal: bool = False) -> JSON:
        """What `tabletap state --json` prints; hidden information only with `reveal`."""
        ...

    def scores(self, state: S) -> dict[str, int]: ...

    def current_player(self, state: S) -> str | None: ...

    def winners(self, state: S) -> list[str]:
        """Empty while the game goes on; one name, or several for a shared win."""
        ...

    def is_over(self, state: S) -> bool: ...


def chance(seed: int, counter: int, purpose: str) -> random.Random:
    """A generator for one chance draw, derived from the game's seed and a counter in the state.

    Keeping only (seed, counter) in the state keeps states small and JSON-friendly, and makes a
    draw reproducible without storing a generator's internals.
    """
    return random.Random(f"{seed}:{counter}:{purpose}")
