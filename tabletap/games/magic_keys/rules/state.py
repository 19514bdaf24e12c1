"""The Magic Keys game state: an immutable value the engine replaces, never edits.

`MagicKeysState` is a named tuple with the Schema spelling (`model_copy(update=...)`,
`model_dump`, `model_validate`): every JSON state and every state built by keyword is checked
by the Schema `_Checked` (loading.schema); a new game is built from setup the engine has
checked itself (`trusted`), and the engine makes each next state from the last one's values
with the few the move changed (`rebuilt`: one list copy and one tuple, the cheapest value
Python builds), sharing everything else (it is never edited in place). `places` is a `Places`:
the plain mapping the JSON holds, plus the forest's keys and each player's fakes kept ready
for the legal moves. The old state stays as it was, so a rejected action leaves the family's
game exactly where it was."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Annotated, Any, Literal, NamedTuple

import msgspec

from tabletap.controller.loading.schema import Meta, Schema, check
from tabletap.games.magic_keys.rules.actions import TryKey

DiceMode = Literal["physical", "digital"]
DICE_COUNT = 3  # Components: "3 dice"

FOREST = "forest"
TOWER = "tower"
POND = "pond"
HELD = "held:"  # followed by the player's name


class _Checked(Schema):
    """Where every key is, who has how many gems, whose turn it is, and (digital) the dice.

    `places` maps each coloured key to forest | tower | held:<player> | pond. The golden key is
    not listed: it always goes back to its space. `pawn`, `dice`, `showing`, `rolled` and
    `moved` only mean something with digital dice (the engine cannot see real dice or the
    pawn); `rolls` counts digital rolls and is the chance counter, so a replayed roll lands in
    the same place.

    Only ever made by `check` (a Struct's own constructor checks no types) and thrown away once
    its values are in a MagicKeysState. Its own checks raise plain ValueError: they are about
    the state as a whole, so the error is located at the state, not at one key.
    """

    players: Annotated[tuple[str, ...], Meta(min_length=2, max_length=4)]
    seed: int
    dice_mode: DiceMode
    fake_keys: tuple[str, ...]
    places: dict[str, str]
    gems: dict[str, int]
    chest: Annotated[int, Meta(ge=0)]
    current: Annotated[int, Meta(ge=0)]
    winner: str | None = None
    pawn: int | None = None
    dice: Annotated[int, Meta(ge=0, le=DICE_COUNT)] = DICE_COUNT
    showing: tuple[int, ...] = ()
    rolled: bool = False
    moved: bool = False  # the pawn moved by a die this turn: only then may a key be pulled
    rolls: Annotated[int, Meta(ge=0)] = 0

    def __post_init__(self) -> None:
        if len(set(self.players)) != len(self.players):
            raise ValueError("player names must differ")
        if self.current >= len(self.players):
            raise ValueError("current player index out of range")
        if list(self.gems) != list(self.players):
            raise ValueError("gems must list every player, in seat order")
        if self.winner is not None and self.winner not in self.players:
            raise ValueError(f"winner {self.winner!r} is not a player")
        for key, place in self.places.items():
            if place not in (FOREST, TOWER, POND) and not (
                place.startswith(HELD) and place[len(HELD):] in self.players
            ):
                raise ValueError(f"key {key} has an impossible place {place!r}")
        if not set(self.fake_keys) <= set(self.places):
            raise ValueError("every fake key must be one of the coloured keys")
        if len(self.showing) > self.dice or any(not 1 <= n <= 4 for n in self.showing):
            raise ValueError("the numbers showing must be 1-4, one per die still in hand")
        if (self.dice_mode == "digital") != (self.pawn is not None):
            raise ValueError("the pawn is tracked exactly when the dice are digital")


class Places(dict[str, str]):
    """`places` as the state holds it: the plain mapping key -> place (what the JSON and every
    reader see), with what the legal moves read kept beside it so nothing scans the twenty
    keys on every move: `forest`, the keys still in the forest (and `tries`, the same as the
    actions that try them, which legal_actions lists as they are), and `held`, each player's
    fake keys in front of them, all in the mapping's order (`rank`, shared by every Places of
    a game). A move makes a new one with `moved` (one key changed; only the lists that key
    leaves or joins are rebuilt); like everything in a state, a Places is never changed in
    place once made.
    """

    __slots__ = ("forest", "tries", "held", "rank")

    forest: tuple[str, ...]
    tries: tuple[TryKey, ...]
    held: dict[str, tuple[str, ...]]
    rank: dict[str, int]

    @classmethod
    def of(cls, places: dict[str, str]) -> Places:
        if isinstance(places, Places):
            return places
        new = cls(places)
        forest: list[str] = []
        held: dict[str, list[str]] = {}
        for key, place in places.items():
            if place == FOREST:
                forest.append(key)
            elif place.startswith(HELD):
                held.setdefault(place[len(HELD):], []).append(key)
        new.forest = tuple(forest)
        new.tries = tuple(map(TryKey, forest))
        new.held = {player: tuple(keys) for player, keys in held.items()}
        new.rank = {key: n for n, key in enumerate(places)}
        return new

    @classmethod
    def fresh(cls, keys: tuple[str, ...], rank: dict[str, int] | None = None) -> Places:
        """Every key in the forest, as a game starts (`rank`: the keys' order, if known)."""
        new = cls.fromkeys(keys, FOREST)
        new.forest = tuple(keys)
        new.tries = _fresh_tries(new.forest)
        new.held = {}
        new.rank = {key: n for n, key in enumerate(keys)} if rank is None else rank
        return new

    def moved(self, key: str, place: str) -> Places:
        """A new Places with `key` (one of its keys) at `place`."""
        old = self[key]
        new = Places(self)
        new[key] = place
        forest, tries, held = self.forest, self.tries, self.held
        if old == FOREST:
            at = forest.index(key)
            forest = forest[:at] + forest[at + 1:]
            tries = tries[:at] + tries[at + 1:]
        elif old.startswith(HELD):
            owner = old[len(HELD):]
            mine = held[owner]
            at = mine.index(key)
            held = {**held, owner: mine[:at] + mine[at + 1:]}
        rank = self.rank
        if place == FOREST:
            forest = tuple(sorted((*forest, key), key=rank.__getitem__))
            tries = tuple(map(TryKey, forest))
        elif place.startswith(HELD):
            owner = place[len(HELD):]
            mine = (*held.get(owner, ()), key)
            held = {**held, owner: tuple(sorted(mine, key=rank.__getitem__))}
        new.forest, new.tries, new.held, new.rank = forest, tries, held, rank
        return new


_FRESH_TRIES: dict[tuple[str, ...], tuple[TryKey, ...]] = {}


def _fresh_tries(keys: tuple[str, ...]) -> tuple[TryKey, ...]:
    """The actions trying every key, made once per set of keys (one board: once)."""
    tries = _FRESH_TRIES.get(keys)
    if tries is None:
        tries = _FRESH_TRIES[keys] = tuple(map(TryKey, keys))
    return tries


class _Values(NamedTuple):
    """The fields, in _Checked's order: a tuple, so the next state is one tuple build."""

    players: tuple[str, ...]
    seed: int
    dice_mode: DiceMode
    fake_keys: tuple[str, ...]
    places: Places
    gems: dict[str, int]
    chest: int
    current: int
    winner: str | None
    pawn: int | None
    dice: int
    showing: tuple[int, ...]
    rolled: bool
    moved: bool
    rolls: int


_FIELDS: tuple[str, ...] = _Values._fields
assert _FIELDS == _Checked.__struct_fields__
# The fields' positions: the engine makes the next state from a list of the last one's values
# with a few positions replaced (`rebuilt`), cheaper than copying by keyword.
(PLAYERS, SEED, DICE_MODE, FAKE_KEYS, PLACES, GEMS, CHEST, CURRENT, WINNER, PAWN, DICE, SHOWING,
 ROLLED, MOVED, ROLLS) = range(len(_FIELDS))
assert _FIELDS[PLACES] == "places" and _FIELDS[ROLLS] == "rolls"
_new = tuple.__new__


class MagicKeysState(_Values):
    """Where every key is, who has how many gems, whose turn it is, and (digital) the dice.

    The fields and their meaning are _Checked's. Constructing one by keyword checks it (a
    SchemaError, a ValueError, names the first problem); `model_copy` does not: it only ever
    gets values the rules have already judged.
    """

    __slots__ = ()

    def __new__(cls, **fields: Any) -> MagicKeysState:
        return cls.model_validate(fields)

    @classmethod
    def model_validate(cls, data: Any) -> MagicKeysState:
        """Raises SchemaError (`loc`, `message`) for anything that is not a state."""
        values = list(msgspec.structs.astuple(check(data, _Checked)))
        values[PLACES] = Places.of(values[PLACES])
        return _new(cls, values)

    @classmethod
    def trusted(cls, values: list[Any]) -> MagicKeysState:
        """A state from values in field order that are consistent by construction (a new game
        built from setup the engine has checked itself): no second check."""
        values[PLACES] = Places.of(values[PLACES])
        return _new(cls, values)

    def model_copy(self, update: dict[str, Any] | None = None) -> MagicKeysState:
        if not update:
            return self
        if "places" in update:
            update = {**update, "places": Places.of(update["places"])}
        return _Values._replace(self, **update)

    def _replace(self, **changes: Any) -> MagicKeysState:  # type: ignore[override]
        return self.model_copy(update=changes)  # keeps `places` a Places

    def model_dump(self, mode: str = "python") -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, value in zip(_FIELDS, self, strict=True):
            if isinstance(value, dict):
                value = dict(value)
            elif isinstance(value, tuple) and mode == "json":
                value = list(value)
            out[name] = value
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MagicKeysState):
            return NotImplemented
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "MagicKeysState(" + ", ".join(f"{n}={v!r}" for n, v in zip(
            _FIELDS, self, strict=True)) + ")"

    @property
    def player(self) -> str:
        """Whose turn it is (the last mover's name once the game is over)."""
        return self.players[self.current]

    def held_by(self, player: str) -> list[str]:
        """The revealed fake keys lying in front of `player`, in key order."""
        return list(self.places.held.get(player, ()))


# The next state from the last one's values (`list(state)`) with some replaced by the rules,
# which have judged them already (`places` must already be a Places): straight from the list,
# the cheapest way Python makes the tuple.
rebuilt: Callable[[list[Any]], MagicKeysState] = partial(_new, MagicKeysState)
