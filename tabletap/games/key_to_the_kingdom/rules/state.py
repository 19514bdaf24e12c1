"""The game state: one frozen value per moment of the game, sharing what a move left alone.

Like python-chess's board, a state is a plain value; the engine builds the next one with
`KttkState.replaced` (what `dataclasses.replace` gives, made faster), copying only the mapping it
changes (positions, items, ...) and sharing the rest, so a rejected action cannot have touched
the family's game and keeping a history of states is cheap. Mappings are never mutated once a
state holds them.

`phase` says what the game waits for and `ask` carries its details (whose choice, how many
items); `todo` is the queue of what happens next once that choice is made (leave the adventure,
then activate the space it leads to, then end the turn), so a chain of the rulebook's "if you
move on a space where you can do something, immediately do so" survives a pause for a tap.

Phases, roll purposes, asks and tasks are typed values, not strings and dicts, so a misspelt
phase, task kind or field is an AttributeError (or TypeError) where it is written rather than a
branch silently not taken. Their JSON forms (state_to_json, the public view) are the strings and
dicts they replaced, key for key and in the same order: journals, scenarios and the page read
them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar, Literal, TypeVar

from tabletap.controller.rules.base import JSON
from tabletap.games.key_to_the_kingdom.rules.pack import Effect, Pack, load_pack

MAGIC_PREFIX = "magic/"
COMPANION_PREFIX = "event/"


class Phase(StrEnum):
    """What the game waits for. A StrEnum whose values are the names the JSON has always carried,
    so a phase still equals its name (tests, scenarios) and serialises as it did."""

    FIRST_ROLL = "first-roll"
    TURN = "turn"
    ROLL = "roll"
    ADVENTURE = "adventure"
    CASTLE = "castle"
    CHALLENGE = "challenge"
    REFRESH = "refresh"
    EXHAUST = "exhaust"
    EVENT = "event"
    DEMON_DIE = "demon-die"
    MAGIC = "magic"
    STEAL = "steal"
    SWEEP = "sweep"
    KEY = "key"
    COURTYARD = "courtyard"
    OVER = "over"
    BUSY = "busy"  # internal, never at rest: nothing to ask, work through `todo`


class Purpose(StrEnum):
    """What a roll in progress is for: the phase it was rolled in (a move from the turn)."""

    MOVE = "move"
    ADVENTURE = "adventure"
    CHALLENGE = "challenge"
    CASTLE = "castle"


Die = Literal["hero", "demon"]


# -- asks: the details of the choice the phase waits for ------------------------------------------
# Frozen and slotted, and one class per shape, so a phase's reader names the fields it needs
# (`ask.count`, not `ask["count"]`) and `KttkState.ask_of` checks the shape is the promised one.


@dataclass(frozen=True, slots=True)
class Ask:
    """A hero's choice with no more to it: an event card to tap, a magic item, an item to
    steal, a courtyard space, a move roll to change or take."""

    hero: str

    # Read as the dict `ask` was (`ask["step"]`, `ask.get("hero")`, `"token" in ask`), for
    # readers written before asks were typed; the engine itself reads the fields.
    def __getitem__(self, key: str) -> Any:
        if key not in self:
            raise KeyError(key)
        return getattr(self, key)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and any(f.name == key for f in fields(self)) \
            and getattr(self, key) is not None

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default

    def to_json(self, effects: bool = True) -> JSON:
        """The dict `ask` was before it was typed: its fields in order, an unset (None) one
        left out; `effects=False` leaves out a challenge's effects, as the public view does."""
        out: JSON = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None or (not effects and f.name in ("success", "fail")):
                continue
            out[f.name] = _plain(value)
        return out


@dataclass(frozen=True, slots=True)
class CountAsk(Ask):
    """Items to refresh (up to `count`) or exhaust (exactly `count`)."""

    count: int


@dataclass(frozen=True, slots=True)
class SweepAsk(Ask):
    """Who `whirlpool` sweeps away."""

    whirlpool: str


@dataclass(frozen=True, slots=True)
class KeyAsk(Ask):
    """The key piece of `colour` to take from its pile."""

    colour: str


@dataclass(frozen=True, slots=True)
class StepAsk(Ask):
    """A key adventure's step (0-based) to roll for, or to pass by a shortcut."""

    adventure: str
    step: int


@dataclass(frozen=True, slots=True)
class CastleAsk(Ask):
    """The Demon King's `token` to beat in castle `section` (0-based)."""

    section: int
    token: str


@dataclass(frozen=True, slots=True)
class ChallengeAsk(Ask):
    """A roll of `target` or more: a minor adventure's (which leaves for a space, "" for
    none) or an effect's (which leaves nowhere: None, and left out of the JSON)."""

    source: str
    target: int
    success: tuple[Effect, ...]
    fail: tuple[Effect, ...]
    leave_success: str | None = None
    leave_fail: str | None = None


AskT = TypeVar("AskT", bound=Ask)

# the field only that shape has, which tells it apart in JSON; a plain Ask has only `hero`
_ASK_MARKS: tuple[tuple[type[Ask], str], ...] = (
    (StepAsk, "adventure"), (CastleAsk, "token"), (ChallengeAsk, "target"),
    (CountAsk, "count"), (SweepAsk, "whirlpool"), (KeyAsk, "colour"))


def ask_from_json(data: JSON) -> Ask | None:
    """The inverse of Ask.to_json ({} is no ask); TypeError on a field the shape lacks."""
    if not data:
        return None
    kind = next((k for k, mark in _ASK_MARKS if mark in data), Ask)
    values: dict[str, Any] = {k: tuple(v) if k in ("success", "fail") else v
                              for k, v in data.items()}
    return kind(**values)


# -- tasks: what `todo` queues --------------------------------------------------------------------
# `kind` is the "t" the JSON form has always used; each task carries only its own fields.


@dataclass(frozen=True, slots=True)
class GotoTask:
    """Leave an adventure for `space`, then activate it."""

    kind: ClassVar[str] = "goto"
    hero: str
    space: str


@dataclass(frozen=True, slots=True)
class EffectTask:
    """Apply one atlas or event-card effect to the hero; `source` names the card or adventure
    (a challenge it sets says where it comes from)."""

    kind: ClassVar[str] = "effect"
    hero: str
    effect: Effect
    source: str = ""


@dataclass(frozen=True, slots=True)
class KeyTask:
    """Offer the hero a key piece of `colour` (a key adventure completed)."""

    kind: ClassVar[str] = "key"
    hero: str
    colour: str


Task = GotoTask | EffectTask | KeyTask
_TASKS: dict[str, type[Task]] = {t.kind: t for t in (GotoTask, EffectTask, KeyTask)}


def task_to_json(task: Task) -> JSON:
    """`{"t": <kind>, <field>: <value>, ...}`, as `todo` held before it was typed."""
    out: JSON = {"t": task.kind}
    for f in fields(task):
        out[f.name] = getattr(task, f.name)
    return out


def task_from_json(data: JSON) -> Task:
    """The inverse of task_to_json (KeyError on an unknown kind, TypeError on a wrong field)."""
    values = dict(data)
    return _TASKS[values.pop("t")](**values)


@dataclass(frozen=True)
class RollInProgress:
    """A rolled die and what was done to it so far. `uses` are (item, delta) in order."""

    purpose: Purpose
    die: Die
    value: int
    uses: tuple[tuple[str, int], ...] = ()
    bonus: int = 0  # the hero's power, added automatically

    @property
    def result(self) -> int:
        """"If you modify your result below 0, it is treated as a 0." No cap."""
        return max(0, self.value + self.bonus + sum(d for _, d in self.uses))


@dataclass(frozen=True)
class KttkState:
    pack: Pack = field(compare=False, repr=False)
    players: tuple[str, ...]
    seed: int
    digital_events: bool
    physical_dice: bool  # rolls are entered as the table saw them; the roll button is off
    chance: int  # draws made from the seed so far
    turn: int  # seat index of the hero whose turn it is
    turn_number: int
    positions: dict[str, str]  # hero -> space (kingdom or courtyard)
    items: dict[str, tuple[str | None, bool]]  # item id -> (owner, None: supply; exhausted)
    keys: dict[str, str | None]  # key piece `<colour>/<n>` -> holder, None: in its pile
    flaps: dict[str, str]  # flap -> closed | open
    demon: str | None  # who holds the Demon die; None: it sits on the throne
    deck: tuple[int, ...]  # event cards to draw (with digital events, in order)
    discard: tuple[int, ...]
    companions: dict[str, tuple[int, ...]]  # hero -> companion cards kept
    castle: tuple[tuple[str, ...], ...]  # each section's undefeated tokens, face down, in order
    revealed: tuple[str, ...]  # tokens turned face up
    phase: Phase
    ask: Ask | None  # None: the phase asks nobody anything (the turn, the Demon die, ...)
    todo: tuple[Task, ...] = ()
    roll: RollInProgress | None = None
    first_rolls: dict[str, int] = field(default_factory=dict)
    first_due: tuple[str, ...] = ()
    winner: str | None = None

    @property
    def current(self) -> str:
        return self.players[self.turn]

    @property
    def over(self) -> bool:
        return self.winner is not None

    def replaced(self, **changes: Any) -> KttkState:
        """`dataclasses.replace(self, **changes)`, without its walk over every field and its
        frozen __init__: replace cost about a sixth of random self-play's time (several a move),
        and the typed phases and asks had to be paid for. A state has no __post_init__ and no
        derived field, so a copy of its fields with the changes is the same value; a name that
        is no field is a TypeError, as with replace."""
        if not changes.keys() <= _FIELDS:
            raise TypeError(f"KttkState has no field {sorted(changes.keys() - _FIELDS)[0]!r}")
        new = object.__new__(KttkState)
        new.__dict__.update(self.__dict__, **changes)
        return new

    @property
    def deciding(self) -> str:
        """The hero the game waits for: the one asked, else the one whose turn it is."""
        return self.current if self.ask is None else self.ask.hero

    def ask_of(self, kind: type[AskT]) -> AskT:
        """`ask`, checked to be the shape the phase promises (and typed as that shape)."""
        ask = self.ask
        if not isinstance(ask, kind):
            raise AssertionError(f"phase {self.phase} asks {ask!r}, not a {kind.__name__}")
        return ask

    def shown(self, space: str) -> bool:
        """Whether a kingdom space is on the table now (its land is not folded away)."""
        land = self.pack.spaces[space].land
        where = self.pack.flap_of(land)
        return where is None or self.flaps[where[0]] == where[1]

    def in_courtyard(self, hero: str) -> bool:
        return self.pack.spaces[self.positions[hero]].land == "courtyard"

    def owned(self, hero: str) -> list[str]:
        return [i for i, (owner, _) in self.items.items() if owner == hero]

    def available(self, hero: str) -> list[str]:
        return [i for i, (owner, ex) in self.items.items() if owner == hero and not ex]

    def exhausted(self, hero: str) -> list[str]:
        return [i for i, (owner, ex) in self.items.items() if owner == hero and ex]

    def key_colours(self, hero: str) -> set[str]:
        return {piece.split("/")[0] for piece, who in self.keys.items() if who == hero}

    def item_value(self, item: str) -> tuple[int, ...]:
        if item.startswith(MAGIC_PREFIX):
            return self.pack.magic[item[len(MAGIC_PREFIX):]]
        return (self.pack.items[item.split("/", 1)[1]],)

    def item_kind(self, item: str) -> str:
        """`knight/sword` -> `sword`; `magic/bee-cannon` -> `bee-cannon`."""
        return item.split("/", 1)[1]


_FIELDS = frozenset(f.name for f in fields(KttkState))


def state_to_json(state: KttkState) -> JSON:
    out: JSON = {}
    for f in fields(state):
        value = getattr(state, f.name)
        if f.name == "pack":
            out["pack"] = value.ref
        elif f.name == "phase":
            out["phase"] = value.value
        elif f.name == "ask":
            out["ask"] = {} if value is None else value.to_json()
        elif f.name == "roll":
            out["roll"] = None if value is None else {
                "purpose": value.purpose.value, "die": value.die, "value": value.value,
                "uses": [list(u) for u in value.uses], "bonus": value.bonus}
        elif f.name == "items":
            out["items"] = {k: {"owner": o, "exhausted": e} for k, (o, e) in value.items()}
        elif f.name == "castle":
            out["castle"] = [list(s) for s in value]
        elif f.name == "companions":
            out["companions"] = {k: list(v) for k, v in value.items()}
        elif f.name == "todo":
            out["todo"] = [task_to_json(t) for t in value]
        elif isinstance(value, tuple):
            out[f.name] = list(value)
        elif isinstance(value, dict):
            out[f.name] = dict(value)
        else:
            out[f.name] = value
    return _plain(out)


def _plain(value: Any) -> Any:
    """Tuples inside `ask` and `todo` (effects) become lists, as JSON has them."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _die(name: str) -> Die:
    """A die's name read back, checked (the Literal type checks nothing at run time)."""
    if name not in ("hero", "demon"):
        raise ValueError(f"no die {name!r}")
    return "hero" if name == "hero" else "demon"


def state_from_json(data: JSON) -> KttkState:
    """The inverse of state_to_json (KeyError/TypeError/ValueError on a broken document)."""
    roll = data["roll"]
    return KttkState(
        pack=load_pack(data["pack"]),
        players=tuple(data["players"]), seed=int(data["seed"]),
        digital_events=bool(data["digital_events"]), physical_dice=bool(data["physical_dice"]),
        chance=int(data["chance"]),
        turn=int(data["turn"]), turn_number=int(data["turn_number"]),
        positions=dict(data["positions"]),
        items={k: (v["owner"], bool(v["exhausted"])) for k, v in data["items"].items()},
        keys=dict(data["keys"]), flaps=dict(data["flaps"]), demon=data["demon"],
        deck=tuple(data["deck"]), discard=tuple(data["discard"]),
        companions={k: tuple(v) for k, v in data["companions"].items()},
        castle=tuple(tuple(s) for s in data["castle"]), revealed=tuple(data["revealed"]),
        phase=Phase(data["phase"]), ask=ask_from_json(data["ask"]),
        todo=tuple(task_from_json(t) for t in data["todo"]),
        roll=None if roll is None else RollInProgress(
            Purpose(roll["purpose"]), _die(roll["die"]), int(roll["value"]),
            tuple((str(i), int(d)) for i, d in roll["uses"]), int(roll["bonus"])),
        first_rolls=dict(data["first_rolls"]), first_due=tuple(data["first_due"]),
        winner=data["winner"],
    )
