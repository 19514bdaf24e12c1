"""Complete games played by the engines alone: the policies and one game's record.

This is the one fast path for every whole game the project plays without a table: `tabletap
selfplay`, the `make bench` games-per-CPU-second figures and the property tests all call
`play_game` (or a policy's `choose`). It goes through the public engine contract only
(`legal_actions`, `apply`, `scores`, `winners`), so it plays by exactly the rules the table
plays by.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tabletap.controller.rules import engine_for

# Variants: (game, label) -> (players, options). The bench keys `games_per_cpu_s` by
# `game/label`; `tabletap selfplay` builds the same tables from --players and --option.
VARIANTS: dict[str, tuple[str, int, dict[str, Any]]] = {
    "magic-keys/physical": ("magic-keys", 3, {"dice": "physical"}),
    "magic-keys/digital": ("magic-keys", 3, {"dice": "digital"}),
    "oversiege/2": ("oversiege", 2, {}),
    "oversiege/10": ("oversiege", 10, {}),
    "kingdomino/2": ("kingdomino", 2, {}),
    "kingdomino/4": ("kingdomino", 4, {}),
}
POLICIES = ("random", "greedy")
MAX_ACTIONS = 20_000  # a game still going after this many actions is recorded unfinished

# Oversiege: how often the random player picks each kind of play when one of that kind is
# legal. Uniform play hardly ever lines up the key, so attacks and keys are favoured and games
# reach their end (the property tests' weights).
OVERSIEGE_WEIGHTS = {"key": 40, "attack": 12, "armament": 6, "rebuild": 3, "blockade": 3,
                     "discard": 2, "end-turn": 1}
# greedy: the most aggressive kind available, a random one of that kind
OVERSIEGE_ORDER = ("key", "attack", "armament", "blockade", "rebuild", "discard", "end-turn")


def seat_names(game: str, players: int) -> list[str]:
    """Seat names a game accepts (Oversiege names decks: lower-case letters)."""
    if game == "oversiege":
        return [f"p{i + 1}" for i in range(players)]
    if game == "key-to-the-kingdom":  # seats are the heroes of the default pack
        from tabletap.controller.rules.key_to_the_kingdom.pack import load_pack
        heroes = list(load_pack().heroes)
        if players > len(heroes):
            raise ValueError(f"Key to the Kingdom seats at most {len(heroes)} heroes")
        return heroes[:players]
    return [f"seat{i + 1}" for i in range(players)]


Chooser = Callable[[Any, Any, list[Any], random.Random], Any]


def _oversiege_random(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
    by_kind: dict[str, list[Any]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    kinds = sorted(by_kind)
    kind = rng.choices(kinds, [OVERSIEGE_WEIGHTS[k] for k in kinds])[0]
    return rng.choice(by_kind[kind])


def _oversiege_greedy(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
    rank = {k: i for i, k in enumerate(OVERSIEGE_ORDER)}
    best = min(rank[a.kind] for a in legal)
    return rng.choice([a for a in legal if rank[a.kind] == best])


def _uniform(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
    return rng.choice(legal)


def _magic_keys_random(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
    """Uniform over the legal actions: what `rng.choice(legal)` picks (random's rejection
    sampling over getrandbits, written out: the same stream, so seeded games stay the games
    they were), without its two calls, on the game with the most moves per game."""
    count = len(legal)
    if not count:
        raise IndexError("no legal action to choose from")
    width = count.bit_length()
    pick = rng.getrandbits(width)
    while pick >= count:
        pick = rng.getrandbits(width)
    return legal[pick]


def _magic_keys_greedy(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
    """What a child who remembers the fakes would do, without peeking at unrevealed keys:
    the key worth most gems, a move onto a key still in the forest, a pond throw when the dice
    are gone; never end the turn while anything else is possible."""
    track = engine.track

    def value(action: Any) -> float:
        kind = type(action).__name__
        if kind == "TryKey":
            return 10 + track.gems_for(action.key)
        if kind == "Move":
            to = min(state.pawn + action.steps, track.gold_position)
            space = track.spaces[to]
            if space == "gold":
                return 9 + track.gems_for("gold")
            if space == "recovery":
                return 5
            return 5 + track.gems_for(space) if state.places.get(space) == "forest" else 0
        if kind == "Roll":
            return 3
        if kind == "Pond":
            return 2 if state.dice_mode == "digital" and state.dice == 0 else -1
        return -5  # EndTurn

    scored = [(value(a), a) for a in legal]
    best = max(v for v, _ in scored)
    return rng.choice([a for v, a in scored if v == best])


def _kingdomino_greedy(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
    """Place for the most points now (one ply, own kingdom); claim, confirm and gems at random."""
    if len(legal) == 1 or legal[0].action != "place":
        return rng.choice(legal)
    player = engine.current_player(state)
    best, choice = -1, []
    for action in legal:
        points = engine.scores(engine.apply(state, action).state)[player]
        if points > best:
            best, choice = points, [action]
        elif points == best:
            choice.append(action)
    return rng.choice(choice)


_THROWS: list[list[Any]] = []  # per number of dice, every Roll, in base-6 order of the faces


def _throw_dice(state: Any, action: Any, rng: random.Random) -> Any:
    """Magic Keys with digital dice: the dice are thrown here, as a table with real dice
    would hand them over (`Roll(faces)`, which the engine checks), from the game's generator,
    so a game is one seeded stream and no roll pays for seeding its own generator.

    Each die is what `rng.choice(FACES)` draws (random's rejection sampling over
    getrandbits(3), written out: the same stream, so seeded games stay the games they were),
    and the Roll is one made once for those faces: a roll was the costliest step of a game."""
    if action.__class__.__name__ != "Roll" or action.dice is not None:
        return action
    if not _THROWS:
        from itertools import product

        from tabletap.controller.rules.magic_keys.play import DICE_COUNT, FACES
        _THROWS.extend([type(action)(faces) for faces in product(FACES, repeat=n)]
                       for n in range(DICE_COUNT + 1))
    bits = rng.getrandbits
    throw = 0
    for _ in range(state.dice):
        face = bits(3)
        while face >= 6:
            face = bits(3)
        throw = throw * 6 + face
    return _THROWS[state.dice][throw]


def _kttk_purposeful(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
    """Key to the Kingdom: head for the needed adventures (the game's own purposeful player);
    uniform play wanders for thousands of actions before anyone wins."""
    from tabletap.controller.rules.key_to_the_kingdom.selfplay import purposeful_action
    return purposeful_action(state, rng)


_CHOOSERS: dict[tuple[str, str], Chooser] = {
    ("oversiege", "random"): _oversiege_random,
    ("oversiege", "greedy"): _oversiege_greedy,
    ("magic-keys", "random"): _magic_keys_random,
    ("magic-keys", "greedy"): _magic_keys_greedy,
    ("kingdomino", "random"): _uniform,
    ("kingdomino", "greedy"): _kingdomino_greedy,
    ("key-to-the-kingdom", "random"): _uniform,
    ("key-to-the-kingdom", "greedy"): _kttk_purposeful,
}
# Options a game plays with unless told otherwise: Key to the Kingdom's event cards are drawn
# by the engine (nobody taps a physical deck).
DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {"key-to-the-kingdom": {"digital_events": True}}


def chooser(game: str, policy: str) -> Chooser:
    """The policy's choice function: (engine, state, legal actions, rng) -> one of them."""
    try:
        return _CHOOSERS[(game, policy)]
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
    # Kingdomino: the variant bonuses each finished kingdom earns, whether or not the game
    # played with that variant (so one run tells how often each would be earned)
    bonuses: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "players": self.players, "winners": self.winners,
                "actions": self.actions, "turns": self.turns, "scores": self.scores,
                "finished": self.finished, "order": self.order, "bonuses": self.bonuses}


def play_game(
    game: str, players: list[str], seed: int, policy: str = "random",
    options: dict[str, Any] | None = None, max_actions: int = MAX_ACTIONS,
) -> GameRecord:
    """One complete game from a seed: the same seed, policy and table give the same game."""
    engine = engine_for(game)
    choose = chooser(game, policy)
    rng = random.Random(seed)
    table = {**DEFAULT_OPTIONS.get(game, {}), **(options or {})}
    state = engine.new_game(list(players), seed, table, {})
    actions = turns = 0
    mover = engine.current_player(state)
    order = [mover] if mover is not None else []
    resolve = _throw_dice if game == "magic-keys" else None
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
    bonuses: dict[str, dict[str, int]] = {}
    if game == "kingdomino":
        from tabletap.controller.rules.kingdomino.scoring import variant_bonuses
        bonuses = {p: variant_bonuses(state.kingdoms[p].cells, state.size, True, True)
                   for p in players}
    return GameRecord(seed, list(players), engine.winners(state), actions, turns,
                      engine.scores(state), engine.is_over(state), order, bonuses)
