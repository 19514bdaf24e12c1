"""Complete games played by the engines alone: the policies and one game's record.

This is the one fast path for every whole game the project plays without a table: `tabletap
selfplay`, the `make bench` games-per-CPU-second figures and the property tests all call
`play_game` (or a policy's `choose`). It goes through the public engine contract only
(`legal_actions`, `apply`, `scores`, `winners`), so it plays by exactly the rules the table
plays by.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from tabletap.controller.games import registry
from tabletap.controller.games.spec import Chooser

POLICIES = ("random", "greedy")
MAX_ACTIONS = 20_000  # a game still going after this many actions is recorded unfinished


class _Variants(Mapping[str, tuple[str, int, dict[str, Any]]]):
    """The bench's tables, `game/label` -> (game, players, options), from every installed
    game's spec (`selfplay.variants`). The bench keys `games_per_cpu_s` by `game/label`;
    `tabletap selfplay` builds the same tables from --players and --option."""

    def _all(self) -> dict[str, tuple[str, int, dict[str, Any]]]:
        return {f"{spec.name}/{label}": (spec.name, players, dict(options))
                for spec in registry.games()
                for label, (players, options) in spec.selfplay.variants.items()}

    def __getitem__(self, key: str) -> tuple[str, int, dict[str, Any]]:
        return self._all()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


VARIANTS: Mapping[str, tuple[str, int, dict[str, Any]]] = _Variants()


def seat_names(game: str, players: int) -> list[str]:
    """Seat names the game accepts (its spec's `selfplay.seats`)."""
    return registry.game(game).selfplay.seats(players)


def chooser(game: str, policy: str) -> Chooser:
    """The policy's choice function: (engine, state, legal actions, rng) -> one of them."""
    try:
        return registry.game(game).selfplay.policies[policy]
    except KeyError:
        raise ValueError(f"no {policy!r} policy for {game!r}; policies are "
                         f"{', '.join(POLICIES)}") from None


@dataclass
class GameRecord:
    """What one finished (or abandoned) game tells the statistics."""

    seed: int
    players: list[str]
    winners: list[str]
    actions: int  # accepted actions, chance resolutions included
    turns: int  # turns taken (a seat change counts one)
    scores: dict[str, int]
    finished: bool
    order: list[str] = field(default_factory=list)  # players by their first turn
    # the game's own figures (its spec's `selfplay.record`): the variant bonuses each finished
    # kingdom earns, say, whether or not the game played with that variant
    bonuses: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "players": self.players, "winners": self.winners,
                "actions": self.actions, "turns": self.turns, "scores": self.scores,
                "finished": self.finished, "order": self.order, "bonuses": self.bonuses}


def play_game(
    game: str, players: list[str], seed: int, policy: str = "random",
    options: dict[str, Any] | None = None, max_actions: int = MAX_ACTIONS,
) -> GameRecord:
    """One complete game from a seed: the same seed, policy and table give the same game."""
    spec = registry.game(game)
    engine = registry.engine_for(game)
    choose = chooser(game, policy)
    rng = random.Random(seed)
    table = {**spec.selfplay.options, **(options or {})}
    state = engine.new_game(list(players), seed, table, {})
    actions = turns = 0
    mover = engine.current_player(state)
    order = [mover] if mover is not None else []
    resolve = spec.selfplay.resolve
    while not engine.is_over(state) and actions < max_actions:
        legal = engine.legal_actions(state)
        action = choose(engine, state, legal, rng)
        if resolve is not None:
            action = resolve(state, action, rng)
        state = engine.apply(state, action).state
        actions += 1
        now = engine.current_player(state)
        if now != mover:
            turns += 1
            mover = now
            if now is not None and now not in order:
                order.append(now)
    order += [p for p in players if p not in order]
    extra = spec.selfplay.record(engine, state, list(players)) if spec.selfplay.record else {}
    return GameRecord(seed, list(players), engine.winners(state), actions, turns,
                      engine.scores(state), engine.is_over(state), order, extra)
