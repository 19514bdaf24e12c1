"""Every piece id of a set (docs/CONTRACTS.md, "Pieces"): what `tabletap tags enroll` walks
through and `tabletap tags check` counts.

A game's own set comes from its spec's `pieces` (controller.games.spec), which reads the game's data
files, so a maker who corrects a count there corrects it here too. The table's own cards (the
parent cards and one game card per installed game) are listed here.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.games import registry

ADMIN_CARDS = 2
TABLE_SETS = ("admin", "game", "voice")


def admin() -> list[str]:
    """The parent cards: a tap at any reader confirms a phone's pairing (docs/WEB.md)."""
    return [f"admin/{n}" for n in range(1, ADMIN_CARDS + 1)]


def game_cards() -> list[str]:
    """One card per installed game, to name the game at the table."""
    return [f"game/{name}" for name in registry.game_names()]


def voice_cards() -> list[str]:
    """The voice's cards: louder, quieter, mute (again: on), say that again
    (controller.table.voicedesk)."""
    from tabletap.controller.table.voicedesk import voice_cards as cards

    return cards()


def sets() -> list[str]:
    """The names `pieces_of` takes: every installed game, then the table's own cards."""
    return [*registry.game_names(), *TABLE_SETS]


def pieces_of(game: str, decks: tuple[str, ...] = (), only: str | None = None) -> list[str]:
    """The set of `game` (with the given decks, for a game whose players bring their own),
    narrowed to ids starting with `only`."""
    spec = registry.find(game)
    if game in TABLE_SETS:
        if decks:
            raise ValueError(f"--deck does not apply to the {game} cards")
        found = {"admin": admin, "game": game_cards, "voice": voice_cards}[game]()
    elif spec is None:
        raise ValueError(f"no piece list for {game!r}; known: {', '.join(sets())}")
    elif decks and spec.decks is None:
        raise ValueError(f"--deck does not apply to {game}: its players bring no deck")
    else:
        found = spec.pieces(tuple(decks))
    if only:
        found = [p for p in found if p.startswith(only)]
        if not found:
            raise ValueError(f"no {game} piece id starts with {only!r}")
    return found


def __getattr__(name: str) -> Any:
    """Each game's set by its package's name (`pieces.<package>()`), as this module had one
    function per game before games became plugins: kept for callers of that form."""
    for spec in registry.games():
        if spec.name.replace("-", "_") == name:
            return lambda decks=(): spec.pieces(tuple(decks))
    raise AttributeError(name)
