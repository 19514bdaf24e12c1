"""Key to the Kingdom actions and their JSON form (the journal's and `do:`'s).

Every action is a small frozen dataclass; the JSON form is `{"action": NAME, ...fields}`. The
shape is checked here (`bad-action`), whether it is allowed now is the engine's business, so a
journal entry and the same act at the table get the same answer.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, fields
from typing import Any

from tabletap.controller.rules.base import JSON, Rejection
from tabletap.games.key_to_the_kingdom.words import msg

log = logging.getLogger("tabletap.games.key_to_the_kingdom")


@dataclass(frozen=True)
class Roll:
    """Roll the die the hero must use (their own, or the Demon die). `value` is the face the
    table saw (physical dice) or None: the engine draws it (digital dice) and the journal
    keeps the drawn value."""

    value: int | None = None


@dataclass(frozen=True)
class Use:
    """Exhaust an item (or call on a companion card, `event/<n>`) to change the roll in
    progress by `sign` times `amount` (the item's value when left out). Using an item already
    used on this roll only changes its sign or amount. `target`: the other hero's item the
    Kind of Evil Knife exhausts; `refresh`: the own item the Magic Coffee Beans refresh."""

    item: str
    sign: int = 1
    amount: int | None = None
    target: str | None = None
    refresh: str | None = None


@dataclass(frozen=True)
class Move:
    """End the move on `to`, one of the spaces the result reaches."""

    to: str


@dataclass(frozen=True)
class Resolve:
    """Take the roll in progress as it stands (an adventure step, a challenge, the castle)."""


@dataclass(frozen=True)
class Shortcut:
    """Enter the next adventure or castle space without rolling (its item or companion)."""


@dataclass(frozen=True)
class Nap:
    """A heroic nap: refresh these items (up to five) and end the turn."""

    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class Refresh:
    """Choose the items a refresh space or effect refreshes."""

    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class Exhaust:
    """Choose the items an effect makes the hero exhaust."""

    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class Draw:
    """The event card drawn: its number (tapped), or None to let the daemon draw."""

    card: int | None = None


@dataclass(frozen=True)
class Assign:
    """Give the Demon die to this hero."""

    hero: str


@dataclass(frozen=True)
class TakeMagic:
    """Take this magic item from the supply (the genie, or an effect that lets you choose)."""

    item: str


@dataclass(frozen=True)
class Steal:
    """Take this item of another hero's."""

    item: str


@dataclass(frozen=True)
class Sweep:
    """Send this hero into the whirlpool the effect names."""

    hero: str


@dataclass(frozen=True)
class TakeKey:
    """The key piece taken from the pile: `<colour>/<n>`."""

    piece: str


@dataclass(frozen=True)
class Courtyard:
    """The courtyard space a hero with the whole key lands on."""

    space: str


@dataclass(frozen=True)
class Castle:
    """A hero in the courtyard starts the castle adventure."""


Action = (Roll | Use | Move | Resolve | Shortcut | Nap | Refresh | Exhaust | Draw | Assign
          | TakeMagic | Steal | Sweep | TakeKey | Courtyard | Castle)

NAMES: dict[str, type[Any]] = {
    "roll": Roll, "use": Use, "move": Move, "resolve": Resolve, "shortcut": Shortcut,
    "nap": Nap, "refresh": Refresh, "exhaust": Exhaust, "draw": Draw, "assign": Assign,
    "take-magic": TakeMagic, "steal": Steal, "sweep": Sweep, "take-key": TakeKey,
    "courtyard": Courtyard, "castle": Castle,
}
_NAME_OF = {cls: name for name, cls in NAMES.items()}


def action_to_json(action: Action) -> JSON:
    data: JSON = {"action": _NAME_OF[type(action)]}
    for f in fields(action):
        value = getattr(action, f.name)
        if value is None or (f.name == "sign" and value == 1):
            continue
        data[f.name] = list(value) if isinstance(value, tuple) else value
    return data


def _bad(message: str) -> Rejection:
    """A hand-entered action (the console's or the page's `do:`) the game cannot read: said
    to the family as one sentence of the catalog; what exactly is wrong goes to the log."""
    log.info("a Key to the Kingdom action refused: %s", message)
    # TRANSLATORS: refused: a move typed at the console or sent by the page that the game
    # cannot read (a word misspelt, a part missing)
    return Rejection("bad-action", msg("The table cannot read that move; check how it is "
                                       "written and send it again."))


def _field(kind: str, name: str, value: Any, want: type[Any]) -> Any:
    if want is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _bad(f"{kind}: {name} must be a whole number, not {value!r}.")
        return value
    if want is str:
        if not isinstance(value, str) or not value:
            raise _bad(f"{kind}: {name} must be a name, not {value!r}.")
        return value
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise _bad(f"{kind}: {name} must be a list of item names, not {value!r}.")
    return tuple(value)


_TYPES: dict[str, type[Any]] = {
    "value": int, "amount": int, "card": int, "sign": int,
    "item": str, "target": str, "refresh": str, "to": str, "hero": str, "piece": str,
    "space": str, "items": tuple,
}


def action_from_json(data: Any) -> Action:
    """Raises Rejection(`bad-action`) naming what is malformed."""
    if not isinstance(data, dict):
        raise _bad(f"An action is a mapping with an `action:` key, not {data!r}.")
    kind = data.get("action")
    cls = NAMES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        log.info("Key to the Kingdom has no action %r; it knows %s", kind, ", ".join(NAMES))
        # TRANSLATORS: refused: a move typed or sent that the game does not have
        raise Rejection("bad-action", msg("Key to the Kingdom has no such move."))
    names = {f.name: f for f in fields(cls)}
    extra = sorted(set(data) - set(names) - {"action"})
    if extra:
        raise _bad(f"A {kind} action has no field {', '.join(map(repr, extra))}.")
    values: dict[str, Any] = {}
    for name, f in names.items():
        if name not in data or data[name] is None:
            if f.default is f.default_factory:  # no default: required
                raise _bad(f"A {kind} action needs `{name}`.")
            continue
        values[name] = _field(kind, name, data[name], _TYPES[name])
    if "sign" in values and values["sign"] not in (1, -1):
        raise _bad("use: sign is 1 (add) or -1 (subtract).")
    return cls(**values)  # type: ignore[no-any-return]
