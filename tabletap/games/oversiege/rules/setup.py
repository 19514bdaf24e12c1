"""A fresh table from the seats, the options (teams) and a scenario's forced setup.

Kept apart from the engine because it is all checking of what a person typed: every problem is a
Rejection(`bad-setup`) with a sentence, raised before any state exists.
"""

from __future__ import annotations

import re
from typing import Any

from tabletap.controller.rules.base import JSON, Rejection
from tabletap.games.oversiege.rules.data import ENTRANCE, TOWERS, Cards
from tabletap.games.oversiege.rules.state import HAND_KEPT, OversiegeState, Side

MAX_PLAYERS = 10  # GROUP PLAY: "games with up to ten players"
_DECK_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def _bad(message: str) -> Rejection:
    return Rejection("bad-setup", message)


def _teams(players: list[str], options: JSON) -> tuple[list[list[str]], bool]:
    unknown = set(options) - {"teams", "first_crown_wins"}
    if unknown:
        raise _bad(
            f"Unknown Oversiege option {sorted(map(str, unknown))[0]!r}; options are teams and "
            "first_crown_wins."
        )
    raw: Any = options.get("teams")
    if raw is None:
        return [[p] for p in players], False
    if not isinstance(raw, list) or not all(isinstance(t, list) and t for t in raw):
        raise _bad("options.teams must be a list of teams, each a non-empty list of players.")
    seen = [p for team in raw for p in team]
    if not all(isinstance(p, str) for p in seen) or sorted(seen) != sorted(players):
        raise _bad("options.teams must name every player exactly once.")
    if len(raw) < 2:
        raise _bad("options.teams needs at least two teams.")
    return [list(team) for team in raw], True


def _destroyed(players: list[str], raw: Any) -> dict[str, list[str]]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise _bad("setup.destroyed maps a player to a list of castle parts.")
    out: dict[str, list[str]] = {}
    for player, parts in raw.items():
        if player not in players:
            raise _bad(f"setup.destroyed: {player!r} is not a player.")
        if not isinstance(parts, list) or any(p not in (*TOWERS, ENTRANCE) for p in parts):
            raise _bad("setup.destroyed lists parts among tower/1..tower/4 and entrance.")
        out[player] = sorted(set(parts))
    return out


def _hands(players: list[str], raw: Any, deck_size: int) -> dict[str, int]:
    """Cards held before the first draw (the rulebook's two, unless a scenario says more)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise _bad("setup.hands maps a player to the number of cards they hold at the start.")
    for player, n in raw.items():
        if player not in players:
            raise _bad(f"setup.hands: {player!r} is not a player.")
        if isinstance(n, bool) or not isinstance(n, int) or not HAND_KEPT <= n <= deck_size:
            raise _bad(f"setup.hands: a hand holds {HAND_KEPT} to {deck_size} cards.")
    return dict(raw)


def build_state(
    players: list[str], seed: int, options: JSON, setup: JSON, cards: Cards
) -> OversiegeState:
    """The state before the first player's draw (the engine makes that draw)."""
    if not isinstance(players, list) or not 2 <= len(players) <= MAX_PLAYERS:
        raise _bad(f"Oversiege needs 2 to {MAX_PLAYERS} players, one deck each.")
    for p in players:
        if not isinstance(p, str) or not _DECK_NAME.fullmatch(p):
            raise _bad(f"{p!r} cannot name a deck: use lower-case letters, digits and '-'.")
    if len(set(players)) != len(players):
        raise _bad("Each player names their own deck; a deck name appears twice.")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise _bad("seed must be a whole number.")
    options = options or {}
    if not isinstance(options, dict):
        raise _bad("options must be a mapping, e.g. {first_crown_wins: true}.")
    teams, bridge = _teams(players, options)
    first_crown_wins = options.get("first_crown_wins", False)
    if not isinstance(first_crown_wins, bool):
        raise _bad("options.first_crown_wins is true or false.")
    setup = setup or {}
    if not isinstance(setup, dict):
        raise _bad("setup must be a mapping, e.g. {first: blue}.")
    unknown = set(setup) - {"first", "destroyed", "hands"}
    if unknown:
        raise _bad(
            f"Unknown Oversiege setup {sorted(map(str, unknown))[0]!r}; use first, destroyed "
            "or hands."
        )
    first = setup.get("first", players[0])
    if first not in players:
        raise _bad(f"setup.first: {first!r} is not a player.")
    destroyed = _destroyed(players, setup.get("destroyed"))
    hands = _hands(players, setup.get("hands"), cards.deck_size)
    sides = {
        p: Side(hand=hands.get(p, HAND_KEPT), deck=cards.deck_size - hands.get(p, HAND_KEPT),
                destroyed=destroyed.get(p, []))
        for p in players
    }
    return OversiegeState(
        players=list(players), teams=teams, bridge=bridge, seed=seed,
        first_crown_wins=first_crown_wins,
        turn=players.index(first), sides=sides,
    )
