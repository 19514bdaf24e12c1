"""What the family puts back after a Key to the Kingdom action is undone (the action's journal
JSON), as sentences of the game's catalog: items, heroes and spaces by their names in the pack
the game plays (the state before the action has it), never by their ids."""

from __future__ import annotations

from typing import Any

from tabletap.controller.language.said import ListOf, Said
from tabletap.games.key_to_the_kingdom.words import msg


def _pack(before: Any) -> Any:
    """The pack of the undone game (the state before the action), else the default pack;
    imported here so that importing the game's spec loads no engine."""
    pack = getattr(before, "pack", None)
    if pack is not None:
        return pack
    from tabletap.games.key_to_the_kingdom.rules.pack import load_pack

    return load_pack()


def _items(pack: Any, items: Any) -> Said | ListOf:
    from tabletap.games.key_to_the_kingdom.rules import named

    if not items:
        # TRANSLATORS: inside an undo sentence, when no item was chosen
        return msg("nothing")
    return named.items(pack, items)


def put_back(action: dict[str, Any], before: Any = None) -> Said | str:
    from tabletap.games.key_to_the_kingdom.rules import named

    pack = _pack(before)
    k = str(action.get("action") or "")
    if k == "use":
        return _use(pack, action)
    if k == "move":
        # TRANSLATORS: said after an undo; space is where the hero had moved to
        return msg("Move the hero back off %(space)s, to where the move began.",
                   space=named.space(pack, str(action["to"])))
    if k == "resolve":
        # TRANSLATORS: said after an undo of a roll taken as it stood
        return msg("The roll is open again: use items on it, or take it again.")
    if k == "shortcut":
        # TRANSLATORS: said after an undo of a shortcut (a space entered without rolling)
        return msg("Move the hero back out of the space the shortcut entered.")
    if k == "nap":
        # TRANSLATORS: said after an undo of a heroic nap; items are the items it refreshed
        return msg("Turn %(items)s back over as exhausted; the nap is undone.",
                   items=_items(pack, action.get("items")))
    if k == "refresh":
        # TRANSLATORS: said after an undo; items are the items refreshed
        return msg("Turn %(items)s back over as exhausted.",
                   items=_items(pack, action.get("items")))
    if k == "exhaust":
        # TRANSLATORS: said after an undo; items are the items exhausted
        return msg("Turn %(items)s back up.", items=_items(pack, action.get("items")))
    if k == "assign":
        # TRANSLATORS: said after an undo; hero is the hero who was given the Demon die
        return msg("Take the Demon die back from %(hero)s.",
                   hero=named.hero(pack, str(action["hero"])))
    if k == "take-magic":
        # TRANSLATORS: said after an undo; item is a magic item ("the bee cannon")
        return msg("Put %(item)s back in the supply.", item=named.item(
            pack, "magic/" + str(action["item"]).split("/")[-1]))
    if k == "steal":
        # TRANSLATORS: said after an undo; item is the stolen item ("wizard's rope")
        return msg("Give %(item)s back to its hero.", item=named.item(pack, str(action["item"])))
    if k == "sweep":
        # TRANSLATORS: said after an undo; hero is the hero swept into a whirlpool
        return msg("Bring %(hero)s back out of the whirlpool.",
                   hero=named.hero(pack, str(action["hero"])))
    if k == "take-key":
        # TRANSLATORS: said after an undo; colour is the key piece's colour
        return msg("Put the %(colour)s key piece back on the pile.",
                   colour=named.colour(str(action["piece"]).split("/")[0]))
    if k == "courtyard":
        # TRANSLATORS: said after an undo; space is a courtyard space
        return msg("Move the hero back off %(space)s.",
                   space=named.space(pack, str(action["space"])))
    if k == "castle":
        # TRANSLATORS: said after an undo of entering the castle
        return msg("Move the hero back into the courtyard: the castle is not entered yet.")
    if k == "draw":
        # TRANSLATORS: said after an undo of an event card drawn
        return msg("Put the event card back on top of the deck.")
    return ""  # a roll is chance: it is never taken back


def _use(pack: Any, action: dict[str, Any]) -> Said:
    from tabletap.games.key_to_the_kingdom.rules import named

    item = named.item(pack, str(action["item"]))
    target, refresh = action.get("target"), action.get("refresh")
    if target:
        # TRANSLATORS: said after an undo of the Kind of Evil Knife; item is the knife, target
        # the other hero's item it exhausted
        return msg("Turn %(item)s back up: it is not used on this roll, and turn %(target)s "
                   "back up too.", item=item, target=named.item(pack, str(target)))
    if refresh:
        # TRANSLATORS: said after an undo of the Coffee Beans; item is the beans, refreshed the
        # item they had refreshed
        return msg("Turn %(item)s back up: it is not used on this roll, and turn %(refreshed)s "
                   "back over as exhausted.", item=item, refreshed=named.item(pack, str(refresh)))
    # TRANSLATORS: said after an undo of an item used on a roll ("knight's sword")
    return msg("Turn %(item)s back up: it is not used on this roll.", item=item)
