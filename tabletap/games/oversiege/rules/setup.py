"""A fresh table from the seats, the options (teams) and a scenario's forced setup.

Kept apart from the engine because it is all checking of what a person typed: every problem is a
Rejection(`bad-setup`) with a sentence, raised before any state exists.
"""

from __future__ import annotations

import re
from typing import Any

from tabletap.controller.language.said import Said
from tabletap.controller.rules.base import JSON, Rejection
from tabletap.games.oversiege.rules.data import ENTRANCE, TOWERS, Cards
from tabletap.games.oversiege.rules.state import HAND_KEPT, OversiegeState, Side
from tabletap.games.oversiege.words import msg

MAX_PLAYERS = 10  # GROUP PLAY: "games with up to ten players"
_DECK_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def _bad(message: Said) -> Rejection:
    return Rejection("bad-setup", message)


def _teams(players: list[str], options: JSON) -> tuple[list[list[str]], bool]:
    unknown = set(options) - {"teams", "first_crown_wins"}
    if unknown:
        # TRANSLATORS: a refusal of the set-up; option is its name
        raise _bad(msg("Oversiege has no option %(option)s; its options are teams and "
                       "the first crown wins.", option=sorted(map(str, unknown))[0]))
    raw: Any = options.get("teams")
    if raw is None:
        return [[p] for p in players], False
    if not isinstance(raw, list) or not all(isinstance(t, list) and t for t in raw):
        # TRANSLATORS: a refusal of the set-up; teams is an option's name
        raise _bad(msg("The teams must be a list of teams, each a list of players."))
    seen = [p for team in raw for p in team]
    if not all(isinstance(p, str) for p in seen) or sorted(seen) != sorted(players):
        # TRANSLATORS: a refusal of the set-up; teams is an option's name
        raise _bad(msg("The teams must name every player exactly once."))
    if len(raw) < 2:
        # TRANSLATORS: a refusal of the set-up; teams is an option's name
        raise _bad(msg("There must be at least two teams."))
    return [list(team) for team in raw], True


def _destroyed(players: list[str], raw: Any) -> dict[str, list[str]]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        # TRANSLATORS: a refusal of the set-up; a scenario's castle cards destroyed at the start
        raise _bad(msg("The destroyed castle cards are given for each player, as a list."))
    out: dict[str, list[str]] = {}
    for player, parts in raw.items():
        if player not in players:
            # TRANSLATORS: a refusal of the set-up; player is a name
            raise _bad(msg("Castle cards destroyed at the start: %(player)s is not a player.",
                           player=str(player)))
        if not isinstance(parts, list) or any(p not in (*TOWERS, ENTRANCE) for p in parts):
            # TRANSLATORS: a refusal of the set-up; castle cards destroyed at the start
            raise _bad(msg("Only the four towers and the entrance can be destroyed at the "
                           "start."))
        out[player] = sorted(set(parts))
    return out


def _hands(players: list[str], raw: Any, deck_size: int) -> dict[str, int]:
    """Cards held before the first draw (the rulebook's two, unless a scenario says more)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        # TRANSLATORS: a refusal of the set-up; a scenario's hands at the start
        raise _bad(msg("The hands at the start give each player's number of cards."))
    for player, n in raw.items():
        if player not in players:
            # TRANSLATORS: a refusal of the set-up; player is a name
            raise _bad(msg("Hands at the start: %(player)s is not a player.",
                           player=str(player)))
        if isinstance(n, bool) or not isinstance(n, int) or not HAND_KEPT <= n <= deck_size:
            # TRANSLATORS: a refusal of the set-up; least and most are numbers of cards
            raise _bad(msg("A hand holds %(least)s to %(most)s cards at the start.",
                           least=HAND_KEPT, most=deck_size))
    return dict(raw)


def build_state(
    players: list[str], seed: int, options: JSON, setup: JSON, cards: Cards
) -> OversiegeState:
    """The state before the first player's draw (the engine makes that draw)."""
    if not isinstance(players, list) or not 2 <= len(players) <= MAX_PLAYERS:
        # TRANSLATORS: a refusal of the set-up; most is the most players
        raise _bad(msg("Oversiege needs 2 to %(most)s players, one deck each.",
                       most=MAX_PLAYERS))
    for p in players:
        if not isinstance(p, str) or not _DECK_NAME.fullmatch(p):
            # TRANSLATORS: a refusal of the set-up; player is what was given as a player
            raise _bad(msg("%(player)s cannot name a deck: a deck is named by its colour, in "
                           "small letters.", player=str(p)))
    if len(set(players)) != len(players):
        # TRANSLATORS: a refusal of the set-up; two players chose one deck
        raise _bad(msg("Each player plays their own deck; one deck is named twice."))
    if isinstance(seed, bool) or not isinstance(seed, int):
        # TRANSLATORS: a refusal of the set-up; the seed shuffles the decks
        raise _bad(msg("The seed must be a whole number."))
    options = options or {}
    if not isinstance(options, dict):
        # TRANSLATORS: a refusal of the set-up; the options were not given by name
        raise _bad(msg("The options must be given by name."))
    teams, bridge = _teams(players, options)
    first_crown_wins = options.get("first_crown_wins", False)
    if not isinstance(first_crown_wins, bool):
        # TRANSLATORS: a refusal of the set-up; first_crown_wins is an option's name
        raise _bad(msg("The option the first crown wins is yes or no."))
    setup = setup or {}
    if not isinstance(setup, dict):
        # TRANSLATORS: a refusal of the set-up; a scenario's set-up was not given by name
        raise _bad(msg("The set-up must be given by name."))
    unknown = set(setup) - {"first", "destroyed", "hands"}
    if unknown:
        # TRANSLATORS: a refusal of the set-up; what is the name given
        raise _bad(msg("Oversiege has no set-up %(what)s; use first, destroyed or hands.",
                       what=sorted(map(str, unknown))[0]))
    first = setup.get("first", players[0])
    if first not in players:
        # TRANSLATORS: a refusal of the set-up; player is a name given to play first
        raise _bad(msg("The first player, %(player)s, is not a player.", player=str(first)))
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
