"""Every piece id of a game's set (docs/CONTRACTS.md, "Pieces"): what `tabletap tags enroll` walks
through and `tabletap tags check` counts. One function per game.

Counts the rulebooks do not give come from the engines' data files (Oversiege's cards.yaml,
Kingdomino's treasures.yaml), so a maker who corrects a count there corrects it here too.
"""

from __future__ import annotations

from collections.abc import Callable

from tabletap.controller.rules.kingdomino.state import COLOURS as KING_COLOURS
from tabletap.controller.rules.kingdomino.treasures import all_tokens
from tabletap.controller.rules.oversiege.data import CASTLE_CARDS, load_cards

MAGIC_KEYS_COLOURS = ("purple", "blue", "green", "yellow")
KINGDOMINO_DOMINOES = 48
DEFAULT_DECKS = ("red", "blue")


def magic_keys() -> list[str]:
    """Twenty true and fake keys, five per colour section, and the golden key."""
    keys = [f"magic-keys/key/{c}/{n}" for c in MAGIC_KEYS_COLOURS for n in range(1, 6)]
    return keys + ["magic-keys/key/gold"]


def oversiege(decks: tuple[str, ...] = DEFAULT_DECKS) -> list[str]:
    """Each player's castle (four towers, entrance, chamber) and draw deck."""
    cards = load_cards()
    out: list[str] = []
    for deck in decks:
        out += [f"oversiege/{deck}/{part}" for part in CASTLE_CARDS]
        out += cards.deck_cards(deck)
    return out


def kingdomino() -> list[str]:
    """48 dominoes, the Lost Treasures' gem tokens, the kings and the castles."""
    out = [f"kingdomino/domino/{n}" for n in range(1, KINGDOMINO_DOMINOES + 1)]
    out += [f"kingdomino/treasure/{token}" for token in all_tokens()]
    out += [f"kingdomino/king/{c}/{n}" for c in KING_COLOURS for n in (1, 2)]
    out += [f"kingdomino/castle/{c}" for c in KING_COLOURS]
    return out


def key_to_the_kingdom() -> list[str]:
    """Every hero's figure and eight items, the five magic items, the fifteen key pieces, the
    event cards, the companions (for a companion card kept apart from the deck) and the Demon
    die, as the default content pack counts them."""
    from tabletap.controller.rules.key_to_the_kingdom.pack import MAGIC_ITEMS, load_pack

    pack = load_pack()
    out = [f"kttk/hero/{h}" for h in pack.heroes]
    out += [f"kttk/item/{h}/{i}" for h in pack.heroes for i in pack.items]
    out += [f"kttk/magic/{m}" for m in MAGIC_ITEMS]
    out += [f"kttk/key/{c}/{n}" for c in ("red", "green", "blue")
            for n in range(1, pack.keys_per_colour + 1)]
    out += [f"kttk/event/{n}" for n in range(1, len(pack.cards) + 1)]
    out += [f"kttk/companion/{name}" for name in pack.companions]
    return out + ["kttk/demon-die"]


ADMIN_CARDS = 2


def admin() -> list[str]:
    """The parent cards: a tap at any reader confirms a phone's pairing (docs/WEB.md)."""
    return [f"admin/{n}" for n in range(1, ADMIN_CARDS + 1)]


def game_cards() -> list[str]:
    """One card per game, to name the game at the table."""
    games = ("magic-keys", "oversiege", "kingdomino", "key-to-the-kingdom")
    return [f"game/{name}" for name in games]


GAMES: dict[str, Callable[..., list[str]]] = {
    "magic-keys": magic_keys,
    "oversiege": oversiege,
    "kingdomino": kingdomino,
    "key-to-the-kingdom": key_to_the_kingdom,
    "admin": admin,
    "game": game_cards,
}


def pieces_of(game: str, decks: tuple[str, ...] = (), only: str | None = None) -> list[str]:
    """The set of `game`, Oversiege with the given decks, narrowed to ids starting with `only`."""
    if game not in GAMES:
        raise ValueError(f"no piece list for {game!r}; known: {', '.join(GAMES)}")
    if game == "oversiege":
        found = oversiege(decks or DEFAULT_DECKS)
    elif decks:
        raise ValueError("--deck only applies to oversiege")
    else:
        found = GAMES[game]()
    if only:
        found = [p for p in found if p.startswith(only)]
        if not found:
            raise ValueError(f"no {game} piece id starts with {only!r}")
    return found
