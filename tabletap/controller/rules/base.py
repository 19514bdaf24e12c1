"""What every rules engine shares: typed rejections, events, and the engine contract.

Engines are pure (docs/CONTRACTS.md, "Rules engines"): a state and an action go in, a new state and
events come out. Nothing here waits, reads a clock or touches a device, so the same engine serves
the daemon, the scenario runner, journal replay and property tests alike.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

JSON = dict[str, Any]


class Rejection(Exception):
    """An action the rules forbid.

    `code` is stable (scenarios and docs refer to it); `message` is a sentence a child's parent
    can read. Raising it must leave the state untouched, which engines guarantee by building a
    new state rather than mutating the old one.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Event:
    """Something the table should know happened, with a play-by-play sentence.

    `kind` drives the table's answer (open the chest, light the winner); `data` carries the
    details as plain JSON values; `text` is what the play-by-play prints.
    """

    kind: str
    text: str
    data: JSON = field(default_factory=dict)


S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True)
class Outcome(Generic[S, A]):
    """The result of applying an accepted action.

    `action` is the action as resolved by the engine, with any chance outcome it drew filled in
    (a dice roll, say): that is what the journal stores, so replay never re-draws.
    """

    state: S
    action: A
    events: tuple[Event, ...] = ()


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
