"""Finding games by name: every installed distribution's `tabletap.games` entry points.

A game is a package that exports one `GameSpec` (controller.games.spec) and registers it under the
entry-point group `tabletap.games`, the way adapters register under `tabletap.backends`. So
the controller names no game, and `pip install` of a game's distribution adds it to the table,
the page, self-play and the CLI (docs/ADDING-A-GAME.md).

A distribution whose entry point fails to load, or gives something that is not a well-formed
spec, is left out with one warning naming it: a broken add-on must not stop the table.
"""

from __future__ import annotations

import logging
from functools import cache
from typing import TYPE_CHECKING, Any

from tabletap.controller import entrypoints
from tabletap.controller.games.spec import GameSpec  # noqa: F401 - re-exported for type hints
from tabletap.controller.language.said import Said, plain
from tabletap.controller.rules.base import Rejection

if TYPE_CHECKING:
    from tabletap.controller.games.base import GameTable
    from tabletap.controller.rules.base import Engine

GROUP = "tabletap.games"
log = logging.getLogger("tabletap.registry")


@cache
def _specs() -> dict[str, GameSpec]:
    found: dict[str, GameSpec] = {}
    prefixes: dict[str, str] = {}
    for ep in sorted(entrypoints.select(GROUP), key=lambda ep: ep.name):
        where = f"the game {ep.name!r} ({ep.value})"
        try:
            spec = ep.load()
        except Exception as exc:  # noqa: BLE001 - an add-on's bug must not stop the table
            log.warning("%s could not be loaded, so it is left out: %s", where, exc)
            continue
        if not isinstance(spec, GameSpec):
            log.warning("%s is not a GameSpec, so it is left out", where)
            continue
        if spec.name != ep.name:
            log.warning("%s calls itself %r, so it is left out", where, spec.name)
            continue
        if ep.name in found:
            log.warning("%s is registered twice; the first stays", where)
            continue
        if spec.piece_prefix in prefixes or spec.piece_prefix in RESERVED:
            log.warning("%s uses the piece prefix %r, which %s already has, so it is left out",
                        where, spec.piece_prefix,
                        prefixes.get(spec.piece_prefix, "the table itself"))
            continue
        found[ep.name] = spec
        prefixes[spec.piece_prefix] = ep.name
        _PACKAGES[ep.name] = ep.module
    return found


_PACKAGES: dict[str, str] = {}  # game name -> the module its spec came from (files live there)


# Piece prefixes of the table's own cards (docs/CONTRACTS.md, "Pieces"): no game may take them.
RESERVED = frozenset({"game", "admin", "voice"})


def games() -> list[GameSpec]:
    """Every installed game, by name."""
    return list(_specs().values())


def game_names() -> list[str]:
    return list(_specs())


def find(name: str) -> GameSpec | None:
    return _specs().get(name)


def game(name: str) -> GameSpec:
    """The spec of `name`; raises Rejection(`unknown-game`) naming the games there are."""
    spec = _specs().get(name)
    if spec is None:
        raise Rejection(
            "unknown-game", f"tabletap does not know a game called {name!r}; "
            f"it knows {', '.join(game_names()) or 'no game (is tabletap installed?)'}.")
    return spec


def package_of(name: str) -> str:
    """The import name of the package `name`'s spec comes from (its view and data are files
    of that package)."""
    game(name)
    return _PACKAGES[name]


def public(spec: GameSpec) -> dict[str, Any]:
    """What a page or a listing may show of a game: its name, title, players and options
    with their sentences (JSON)."""
    return {"name": spec.name, "title": spec.title,
            "players": {"least": spec.players.least, "most": spec.players.most},
            "how_to_join": spec.seating.how, "hint": spec.page.hint,
            "decks": spec.decks is not None,
            "options": [{"name": o.name, "default": o.default, "help": o.help,
                         "choices": list(o.choices),
                         "labels": list(o.labels) or [str(c) for c in o.choices]}
                        for o in spec.options]}


def by_prefix(prefix: str) -> GameSpec | None:
    """The game whose piece ids start with `prefix/`."""
    for spec in _specs().values():
        if spec.piece_prefix == prefix:
            return spec
    return None


def of_piece(piece: str) -> GameSpec | None:
    return by_prefix(piece.split("/", 1)[0])


@cache
def engine_for(name: str) -> Engine[Any, Any]:
    """The engine of `name` (one per process: engines are stateless); Rejection if unknown."""
    return game(name).engine()


def table_for(name: str) -> GameTable:
    """A fresh table layer for `name` (it holds a half-made gesture, so never shared)."""
    spec = game(name)
    table = spec.table()
    table.title = spec.title
    return table


def title(name: str) -> str:
    """A game's title as a person says it; an unknown name is said word by word."""
    spec = _specs().get(name)
    return spec.title if spec is not None else name.replace("-", " ")


def title_said(name: str) -> Said:
    """A game's title as a sentence's part, in the family's language: its message in the
    game's own catalog (each game marks its title with its `msg`, docs/LANGUAGES.md); an
    unknown name plainly."""
    spec = _specs().get(name)
    return Said(name, spec.title) if spec is not None else plain(name.replace("-", " "))
