"""Magic Keys played by the engine alone: the policies and the dice thrown from the game's own
generator (controller.selfplay.play runs them)."""

from __future__ import annotations

import random
from typing import Any


def uniform(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
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


def greedy(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
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


_THROWS: list[list[Any]] = []  # per number of dice, every Roll, in base-6 order of the faces


def throw_dice(state: Any, action: Any, rng: random.Random) -> Any:
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

        from tabletap.games.magic_keys.rules.play import DICE_COUNT, FACES
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
