"""The game state: one frozen value per moment of the game, sharing what a move left alone.

Like python-chess's board, a state is a plain value; the engine builds the next one with
`dataclasses.replace`, copying only the mapping it changes (positions, items, ...) and sharing
the rest, so a rejected action cannot have touched the family's game and keeping a history of
states is cheap. Mappings are never mutated once a state holds them.

`phase` says what the game waits for and `ask` carries its details (whose choice, how many
items); `todo` is the queue of what happens next once that choice is made (leave the adventure,
then activate the space it leads to, then end the turn), so a chain of the rulebook's "if you
move on a space where you can do something, immediately do so" survives a pause for a tap.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from tabletap.controller.rules.base import JSON
from tabletap.controller.rules.key_to_the_kingdom.pack import Pack, load_pack

MAGIC_PREFIX = "magic/"
COMPANION_PREFIX = "event/"


@dataclass(frozen=True)
class RollInProgress:
    """A rolled die and what was done to it so far. `uses` are (item, delta) in order."""

    purpose: str  # move | adventure | challenge | castle
    die: str  # hero | demon
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
    phase: str
    ask: dict[str, Any]
    todo: tuple[dict[str, Any], ...] = ()
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


def state_to_json(state: KttkState) -> JSON:
    out: JSON = {}
    for f in fields(state):
        value = getattr(state, f.name)
        if f.name == "pack":
            out["pack"] = value.ref
        elif f.name == "roll":
            out["roll"] = None if value is None else {
                "purpose": value.purpose, "die": value.die, "value": value.value,
                "uses": [list(u) for u in value.uses], "bonus": value.bonus}
        elif f.name == "items":
            out["items"] = {k: {"owner": o, "exhausted": e} for k, (o, e) in value.items()}
        elif f.name == "castle":
            out["castle"] = [list(s) for s in value]
        elif f.name == "companions":
            out["companions"] = {k: list(v) for k, v in value.items()}
        elif f.name == "todo":
            out["todo"] = [dict(t) for t in value]
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
        phase=data["phase"], ask=dict(data["ask"]), todo=tuple(dict(t) for t in data["todo"]),
        roll=None if roll is None else RollInProgress(
            roll["purpose"], roll["die"], int(roll["value"]),
            tuple((str(i), int(d)) for i, d in roll["uses"]), int(roll["bonus"])),
        first_rolls=dict(data["first_rolls"]), first_due=tuple(data["first_due"]),
        winner=data["winner"],
    )
