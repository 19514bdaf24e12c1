"""How the game's things are said: heroes, items, spaces, lands, adventures, tokens and cards
by their names in the pack's data files (`Named`, one spelling per language), and the sentences
that hold them (`Said`). Nothing here names an id: a space is its land and its number there,
a key piece its colour."""

from __future__ import annotations

from typing import Any

from tabletap.controller.language.said import ListOf, Named, Said
from tabletap.games.key_to_the_kingdom.rules.pack import Pack
from tabletap.games.key_to_the_kingdom.words import msg, msg_p

COMPANION = "event/"
MAGIC = "magic/"

KEY_COLOURS: dict[str, Said] = {
    # TRANSLATORS: a key piece's colour, said inside sentences ("the red key piece")
    "red": msg_p("key colour", "red"),
    # TRANSLATORS: a key piece's colour, said inside sentences ("the green key piece")
    "green": msg_p("key colour", "green"),
    # TRANSLATORS: a key piece's colour, said inside sentences ("the blue key piece")
    "blue": msg_p("key colour", "blue"),
}


def colour(name: str) -> Said | str:
    return KEY_COLOURS.get(name, name)


def hero(pack: Pack, name: str | None) -> Named | str:
    """A hero (the player is the hero) by the pack's name for it."""
    if name is None:
        return ""
    return pack.named(f"heroes.{name}") if name in pack.heroes else name


def heroes(pack: Pack, names: Any) -> ListOf:
    return ListOf(tuple(hero(pack, n) for n in names))


def kind(pack: Pack, name: str | None) -> Named:
    """An item type ("sword") or a magic item ("bee-cannon"), without its owner."""
    if name in pack.magic:
        return pack.named(f"magic.{name}")
    return pack.named(f"items.{name}")


def item(pack: Pack, item_id: str) -> Said:
    """An item as the family knows it: `knight/sword` -> "knight's sword", `magic/bee-cannon`
    -> "the bee cannon", `event/7` -> the companion's name ("the wandering bard")."""
    head, _, tail = item_id.partition("/")
    if head == "magic":
        # TRANSLATORS: a magic item inside a sentence; item is its name ("the bee cannon")
        return msg("the %(item)s", item=kind(pack, tail))
    if head == "event" and tail.isdigit() and 1 <= int(tail) <= len(pack.cards):
        return companion(pack, int(tail))
    # TRANSLATORS: a hero's own item inside a sentence; hero is the hero, item the item's name
    return msg("%(hero)s's %(item)s", hero=hero(pack, head), item=kind(pack, tail))


def items(pack: Pack, ids: Any) -> ListOf:
    return ListOf(tuple(item(pack, i) for i in ids))


def shown(pack: Pack, name: str) -> Said:
    """What an adventure step or castle token shows: an item type or a companion's name."""
    if name in pack.companions:
        return companion(pack, pack.companions[name])
    # TRANSLATORS: an item type a board space shows, inside a sentence ("the boots")
    return msg("the %(item)s", item=kind(pack, name))


def companion(pack: Pack, n: int) -> Said:
    # TRANSLATORS: a companion card inside a sentence; companion is its name ("the owl")
    return msg("the %(companion)s", companion=card(pack, n))


def card(pack: Pack, n: int) -> Named:
    return pack.named(f"cards.{n}")


def card_text(pack: Pack, n: int) -> Named:
    return pack.named(f"texts.{n}")


def land(pack: Pack, name: str) -> Named:
    return pack.named(f"lands.{name}")


def adventure(pack: Pack, aid: str) -> Named:
    return pack.named(f"adventures.{aid}")


def token(pack: Pack, name: str) -> Named:
    return pack.named(f"tokens.{name}")


def section(pack: Pack, index: int) -> Named:
    """A castle section by its 0-based index ("the gate")."""
    return pack.named(f"sections.{index + 1}")


def space(pack: Pack, sid: str) -> Said | str:
    """A space by its land and its number there ("village space 11", "courtyard space 2"):
    a voice spelling "v eleven" tells a child nothing."""
    sp = pack.spaces.get(sid)
    if sp is None:
        return sid
    if sp.land == "courtyard":
        # TRANSLATORS: a space of the Demon King's courtyard; number counts them from 1
        return msg("courtyard space %(number)s", number=pack.courtyard.index(sid) + 1)
    number = pack.lands[sp.land].index(sid) + 1
    # TRANSLATORS: a space of the kingdom; land is its land ("village"), number counts from 1
    return msg("%(land)s space %(number)s", land=land(pack, sp.land), number=number)


def spaces(pack: Pack, ids: Any) -> ListOf:
    return ListOf(tuple(space(pack, s) for s in ids))
