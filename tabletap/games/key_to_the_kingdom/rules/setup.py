"""A fresh game from the heroes, the options and a scenario's forced set-up.

Rulebook, Setup: each player takes a hero's figure, die, card and eight items (available side
up) and places the figure on the starting space; the event deck is shuffled; the five magic
items lie to the side; the key pieces are in piles; the Demon King's tokens are shuffled per
section; the Demon die sits on the throne; then everyone rolls for the first turn. Everything
here is checking what a person typed: each problem is a Rejection(`bad-setup`) with a sentence.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.language.said import Said
from tabletap.controller.rules.base import JSON, Rejection, chance
from tabletap.games.key_to_the_kingdom.rules import named
from tabletap.games.key_to_the_kingdom.rules.pack import (
    COLOURS,
    DEFAULT_PACK,
    MAGIC_ITEMS,
    Pack,
    PackError,
    load_pack,
)
from tabletap.games.key_to_the_kingdom.rules.state import MAGIC_PREFIX, KttkState, Phase
from tabletap.games.key_to_the_kingdom.words import msg

MIN_HEROES, MAX_HEROES = 2, 5
OPTIONS = ("pack", "digital_events", "dice")
SETUP = ("first", "deck", "castle", "positions", "keys", "magic", "companions", "exhausted",
         "demon", "flaps")


def _bad(message: str | Said) -> Rejection:
    return Rejection("bad-setup", message)


def pack_for(options: JSON) -> Pack:
    ref = options.get("pack", DEFAULT_PACK)
    if not isinstance(ref, str) or not ref:
        raise _bad("options.pack names a pack (default) or the folder of your own pack.")
    try:
        return load_pack(ref)
    except PackError as exc:
        # TRANSLATORS: set-up refused; problem is the pack's error, file, line and key (English)
        raise _bad(msg("The content pack cannot be used: %(problem)s", problem=str(exc))
                   ) from None


def _mapping(setup: JSON, key: str, players: tuple[str, ...]) -> dict[str, Any]:
    raw = setup.get(key) or {}
    if not isinstance(raw, dict):
        raise _bad(f"setup.{key} maps a hero to a value.")
    for hero in raw:
        if hero not in players:
            raise _bad(f"setup.{key}: {hero!r} is not playing.")
    return raw


def _list(raw: Any, key: str) -> list[Any]:
    if not isinstance(raw, list):
        raise _bad(f"setup.{key} lists values, like [sword, axe].")
    return raw


def new_state(players: list[str], seed: int, options: JSON, setup: JSON) -> KttkState:
    options = options or {}
    setup = setup or {}
    if not isinstance(options, dict) or not isinstance(setup, dict):
        raise _bad("options and setup are mappings.")
    for key in options:
        if key not in OPTIONS:
            raise _bad(f"Unknown Key to the Kingdom option {key!r}; options are "
                       f"{', '.join(OPTIONS)}.")
    for key in setup:
        if key not in SETUP:
            raise _bad(f"Unknown Key to the Kingdom setup {key!r}; use {', '.join(SETUP)}.")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise _bad("seed must be a whole number.")
    pack = pack_for(options)
    digital = options.get("digital_events", False)
    if not isinstance(digital, bool):
        raise _bad("options.digital_events is true or false.")
    dice = options.get("dice", "digital")
    if dice not in ("digital", "physical"):
        raise _bad("options.dice is digital (the roll button rolls) or physical (each roll "
                   "is entered).")
    heroes = named.heroes(pack, pack.heroes)
    if not isinstance(players, list) or not MIN_HEROES <= len(players) <= MAX_HEROES:
        # TRANSLATORS: set-up refused; least and most are numbers, heroes the pack's heroes
        raise _bad(msg("Key to the Kingdom is for %(least)s to %(most)s heroes, each player "
                       "named by their hero: %(heroes)s.", least=MIN_HEROES, most=MAX_HEROES,
                       heroes=heroes))
    for p in players:
        if p not in pack.heroes:
            # TRANSLATORS: set-up refused; name is a player's name as typed, heroes the heroes
            raise _bad(msg("%(name)s is not a hero of this game; the heroes are %(heroes)s.",
                           name=str(p), heroes=heroes))
    if len(set(players)) != len(players):
        # TRANSLATORS: set-up refused: two players chose the same hero
        raise _bad(msg("Each player chooses a different hero."))
    seats = tuple(players)

    items: dict[str, tuple[str | None, bool]] = {
        f"{h}/{kind}": (h, False) for h in seats for kind in pack.items
    }
    items.update({MAGIC_PREFIX + m: (None, False) for m in MAGIC_ITEMS})
    for hero, names in _mapping(setup, "magic", seats).items():
        for name in _list(names, "magic"):
            if name not in MAGIC_ITEMS or items[MAGIC_PREFIX + name][0] is not None:
                raise _bad(f"setup.magic: {name!r} is not a magic item left in the supply.")
            items[MAGIC_PREFIX + name] = (hero, False)
    for hero, names in _mapping(setup, "exhausted", seats).items():
        for name in _list(names, "exhausted"):
            item = MAGIC_PREFIX + name if name in MAGIC_ITEMS else f"{hero}/{name}"
            if items.get(item, (None,))[0] != hero:
                raise _bad(f"setup.exhausted: {hero} has no item {name!r}.")
            items[item] = (hero, True)

    keys: dict[str, str | None] = {
        f"{c}/{n}": None for c in COLOURS for n in range(1, pack.keys_per_colour + 1)
    }
    for hero, colours in _mapping(setup, "keys", seats).items():
        for colour in _list(colours, "keys"):
            pile = [k for k, who in keys.items() if who is None and k.startswith(f"{colour}/")]
            if colour not in COLOURS or not pile:
                raise _bad(f"setup.keys: {colour!r} is not a colour with a piece left "
                           "(red, green, blue).")
            if any(k.startswith(f"{colour}/") and who == hero for k, who in keys.items()):
                raise _bad(f"setup.keys: {hero} holds {colour} twice.")
            keys[pile[0]] = hero

    companions: dict[str, tuple[int, ...]] = {h: () for h in seats}
    kept: set[int] = set()
    for hero, names in _mapping(setup, "companions", seats).items():
        for name in _list(names, "companions"):
            if name not in pack.companions or pack.companions[name] in kept:
                raise _bad(f"setup.companions: {name!r} is not a companion card left.")
            kept.add(pack.companions[name])
            companions[hero] += (pack.companions[name],)

    positions = {h: pack.start for h in seats}
    for hero, space in _mapping(setup, "positions", seats).items():
        if space not in pack.spaces:
            raise _bad(f"setup.positions: no space {space!r}.")
        positions[hero] = space

    flaps = {f.id: f.starts for f in pack.flaps.values()}
    raw_flaps = setup.get("flaps") or {}
    if not isinstance(raw_flaps, dict):
        raise _bad("setup.flaps maps a flap to closed or open.")
    for flap, side in raw_flaps.items():
        if flap not in flaps or side not in ("closed", "open"):
            raise _bad(f"setup.flaps: {flap!r}: {side!r} (flaps: {', '.join(flaps)}; "
                       "closed or open).")
        flaps[flap] = side

    for hero, space in positions.items():
        where = pack.flap_of(pack.spaces[space].land)
        if where is not None and flaps[where[0]] != where[1]:
            raise _bad(f"setup.positions: {hero} on {space}, but {pack.spaces[space].land} is "
                       f"folded away (setup.flaps: {where[0]} {where[1]} shows it).")

    demon = setup.get("demon")
    if demon is not None and demon not in seats:
        raise _bad(f"setup.demon: {demon!r} is not playing.")

    cards = [n for n in range(1, len(pack.cards) + 1) if n not in kept]
    forced = _list(setup.get("deck", []), "deck")
    if any(not isinstance(n, int) or n not in cards for n in forced) or len(set(forced)) < len(
            forced):
        raise _bad("setup.deck lists event card numbers (each once, none kept as companion).")
    rest = [n for n in cards if n not in forced]
    if digital:
        chance(seed, 0, "deck").shuffle(rest)
    deck = tuple(forced) + tuple(rest)

    castle = []
    forced_castle = setup.get("castle")
    for i, (_name, tokens) in enumerate(pack.sections):
        order = [t.name for t in tokens]
        chance(seed, i, "castle").shuffle(order)
        castle.append(tuple(order))
    if forced_castle is not None:
        want = [sorted(t.name for t in tokens) for _, tokens in pack.sections]
        if (not isinstance(forced_castle, list) or len(forced_castle) != len(castle)
                or any(not isinstance(s, list) or sorted(s) != w
                       for s, w in zip(forced_castle, want, strict=False))):
            raise _bad("setup.castle lists each section's tokens in the order they lie.")
        castle = [tuple(s) for s in forced_castle]

    first = setup.get("first")
    if first is not None and first not in seats:
        raise _bad(f"setup.first: {first!r} is not playing.")
    return KttkState(
        pack=pack, players=seats, seed=seed, digital_events=digital,
        physical_dice=dice == "physical", chance=1,
        turn=seats.index(first) if first else 0, turn_number=1, positions=positions,
        items=items, keys=keys, flaps=flaps, demon=demon, deck=deck, discard=(),
        companions=companions, castle=tuple(castle), revealed=(),
        phase=Phase.TURN if first else Phase.FIRST_ROLL, ask=None,
        first_due=() if first else seats,
    )
