"""What a game is to tabletap: one typed spec, `GAME`, exported by the game's own package.

Everything the controller, the page, self-play, the bench and the tools need to know of a game
is a slot here, so nothing outside a game's package ever names it (docs/ADDING-A-GAME.md). The
way OpenSpiel's games give their metadata in one place: a name, a title, the player range
(declared, never probed by building games), the options with their defaults and a sentence each,
how a piece seats a player, and factories for the engine and the table layer. The factories
import lazily, so finding the games costs no engine import (`tabletap --help` stays fast).

Slots a game may not have are `None` on purpose (a content check for a game with no content
packs, say); a game that leaves a slot it needs empty fails tests/core/test_game_specs.py.

The spec and its parts are frozen msgspec Structs, built the same way (`GameSpec(name=...)`),
rather than frozen dataclasses: a Struct class is made in C as it is defined, where a
dataclass compiles source for each of its methods at every start, and the daemon's start on a
Pi Zero 2 W is mostly class building (docs/BENCHMARKS.md, "The start, counted").
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from msgspec import Struct

if TYPE_CHECKING:
    import argparse
    import random

    from tabletap.controller.games.base import GameTable
    from tabletap.controller.language.said import Said
    from tabletap.controller.rules.base import Engine

JSON = dict[str, Any]
# A self-play policy: (engine, state, legal actions, rng) -> one of them.
Chooser = Callable[[Any, Any, list[Any], "random.Random"], Any]
NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")


def later(target: str) -> Callable[..., Any]:
    """A function that imports `module:name` the first time it is called, then calls it with
    the arguments it was given: the spec names a factory (a table layer's class, a page's extras)
    without importing the engine that factory needs."""
    module, _, name = target.partition(":")
    found: list[Callable[..., Any]] = []

    def call(*args: Any) -> Any:
        if not found:
            found.append(getattr(importlib.import_module(module), name))
        return found[0](*args)

    call.__qualname__ = call.__name__ = f"later({target})"
    return call


def value_of(target: str) -> Callable[[], Any]:
    """A factory that imports `module:name` when called and returns it (an engine, which is
    one object per process)."""
    module, _, name = target.partition(":")

    def get() -> Any:
        return getattr(importlib.import_module(module), name)

    get.__qualname__ = get.__name__ = f"value_of({target})"
    return get


class Option(Struct, frozen=True):
    """One game option: its default and the sentence a parent reads beside it (the page's
    set-up form, `tabletap games`). `choices` is empty for a free value (a list, a number)."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    labels: tuple[str, ...] = ()  # each choice in words, for the page; the value itself if none

    def __post_init__(self) -> None:
        if self.labels and len(self.labels) != len(self.choices):
            raise ValueError(f"option {self.name}: one label per choice")


class Players(Struct, frozen=True):
    """The player range, declared. `most_with(options)` narrows `most` where an option does
    (a two-player variant, say); the engine still checks the count it is given."""

    least: int
    most: int
    most_with: Callable[[Mapping[str, Any]], int] | None = None

    def most_for(self, options: Mapping[str, Any]) -> int:
        return self.most if self.most_with is None else self.most_with(options)


class Seating(Struct, frozen=True):
    """How players join at the table's set-up.

    `seat_of(piece)` names the player a tapped piece seats (a king's colour, a deck, a hero), or
    None; `by_button` lets a short press of `roll` seat "player N" (a game without personal
    pieces); `how` is the sentence the table says ("each player taps one of their kings")."""

    how: str
    seat_of: Callable[[str], str | None]
    by_button: bool = False


class SelfPlay(Struct, frozen=True):
    """Complete games played by the engine alone (`tabletap selfplay`, the bench, property
    tests). `policies` holds at least `random` and `greedy`; `seats(n)` gives n seat names the
    engine accepts; `variants` are the bench's tables, label -> (players, options); `resolve`
    fills in a chance outcome the policy left open (digital dice thrown from the game's own
    generator); `record` adds a game's own figures to a finished game's record, and
    `summary` turns those figures over many games into the report's lines."""

    seats: Callable[[int], list[str]]
    policies: Mapping[str, Chooser]
    variants: Mapping[str, tuple[int, Mapping[str, Any]]] = {}
    options: Mapping[str, Any] = {}
    resolve: Callable[[Any, Any, random.Random], Any] | None = None
    record: Callable[[Any, Any, list[str]], JSON] | None = None
    summary: Callable[[list[JSON], Mapping[str, Any]], JSON] | None = None
    # the policy whose games are as long as a family's (tools/drive.py, `make evenings`): a
    # game where uniform play wanders for thousands of actions names a purposeful one
    family_policy: str = "random"


class SoakCase(Struct, frozen=True):
    """One kind of game the soak (tools/soak.py) kills at random moments: its label, the
    players, and what the scenario-like start needs beyond them (options, setup, backend)."""

    label: str
    players: tuple[str, ...]
    extra: Mapping[str, Any] = {}


class Demo(Struct, frozen=True):
    """A short, known table the benches drive (`make bench`'s voice, Pico and start-up
    figures): the players and forced set-up, `taps`, pieces the game accepts when tapped at a
    reader one after another, each opening the chest, and `again`, one piece accepted again and
    again that opens the chest each time."""

    players: tuple[str, ...]
    taps: tuple[str, ...]
    again: str
    setup: Mapping[str, Any] = {}
    options: Mapping[str, Any] = {}


class Page(Struct, frozen=True):
    """The game's view on the phone page: the view's script (a file of the game's package,
    served by `tabletap web` as /views/<game>.js, with its `style` as /views/<game>.css) and
    `extras(engine, state)`, what the view needs beyond the engine's public view, worked out on
    the daemon's side: JSON, but for sentences and names (`Said`, `Named`, `ListOf`) anywhere
    in it, which the daemon renders in the table's language and sends beside as `key_said`
    for a phone in another (language/tree.py)."""

    script: str
    extras: Callable[[Any, Any], Any] | None = None
    style: str | None = None  # the view's styles, a file of the package (/views/<game>.css)
    # Words the page shows for a piece id still to enrol ("the blue key 3"), from speech.
    hint: str = ""


class Content(Struct, frozen=True):
    """A game whose content lives in packs: `check(pack) -> exit status` for `tabletap content
    check PACK`, printing its findings (a pack's name or a maker's folder)."""

    check: Callable[[str], int]
    what: str  # "a content pack", for the command's help


class ScoreFile(Struct, frozen=True):
    """A game that scores a finished position written in a file (`tabletap score GAME FILE`):
    `add_arguments(parser)` adds the game's own flags, `run(args) -> exit status` scores."""

    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    what: str  # "a finished kingdom written as a kingdom file"


class GameSpec(Struct, frozen=True):
    """One game, whole. See the module docstring and docs/ADDING-A-GAME.md."""

    name: str  # as scenarios, configs, journals and game cards spell it
    title: str  # as a person says it
    piece_prefix: str  # the first part of every piece id of the game
    players: Players
    options: tuple[Option, ...]
    seating: Seating
    engine: Callable[[], Engine[Any, Any]]
    table: Callable[[], GameTable]
    # every piece id of the set; `decks` for a game whose players bring their own set
    pieces: Callable[[tuple[str, ...]], list[str]]
    # what to put back on the table after undoing an action: (the action's journal JSON, the
    # state before it) -> the sentence; "" when nothing on the table moved
    put_back: Callable[[JSON, Any], Said | str]
    # a piece id's words ("the third blue key") from its parts after the prefix, a sentence of
    # the game's catalog; None: said plainly
    piece_words: Callable[[list[str]], Said | str | None]
    page: Page
    selfplay: SelfPlay
    docs: str  # the game's page under docs/games/
    decks: str | None = None  # the help of `--deck` where pieces depend on decks
    bench: str | None = None  # a module with `run()` for `make bench`
    demo: Demo | None = None  # a table the benches drive, for a game with a chest to open
    soak: tuple[SoakCase, ...] = ()
    content: Content | None = None
    score_file: ScoreFile | None = None
    scenarios: str | None = None  # a module with `main(argv)` that writes or checks scenarios
    # a move as a person names it from its journal JSON, after "ana's" ("claim of domino 13");
    # None, or "" for an action shape it does not know: "move"
    move_name: Callable[[JSON], Said | str] | None = None
    # action kinds that only tell the engine what the box gave (no player chose them, so nobody
    # calls them a move): undo goes back over them to the move before and takes them back with
    # it; each says what the family does about it ("tap them again")
    table_checks: Mapping[str, str] = {}

    def __post_init__(self) -> None:
        if not NAME.match(self.name) or not NAME.match(self.piece_prefix):
            raise ValueError(f"a game's name and piece prefix are lower-case words joined by "
                             f"hyphens, not {self.name!r} / {self.piece_prefix!r}")
        if not 1 <= self.players.least <= self.players.most:
            raise ValueError(f"{self.name}: the player range {self.players} is empty")

    def option_defaults(self) -> JSON:
        return {o.name: o.default for o in self.options}
