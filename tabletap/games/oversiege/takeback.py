"""What the family puts back after an Oversiege action is undone (the action's journal JSON),
said as messages of the game's catalog: cards by their owner and name, never by their id."""

from __future__ import annotations

from typing import Any

from tabletap.controller.language.said import ListOf, Said
from tabletap.games.oversiege.words import card as named
from tabletap.games.oversiege.words import msg, piece


def _kind(action: dict[str, Any]) -> str:
    return str(action.get("type") or action.get("action") or "")


def _card_name(card: str) -> Any:
    """The name of a card played from hand ("stone"), from its id."""
    return named(card.split("/")[2])


def move_name(action: dict[str, Any]) -> Said | str:
    """A move as a person names it, after "ana's": "attack with the stone"."""
    k, card = _kind(action), action.get("card")
    if k == "end-turn":
        # TRANSLATORS: a move taken back, said after its player's name ("red's ...")
        return msg("end of the turn")
    if not isinstance(card, str):
        return ""
    if k == "attack":
        # TRANSLATORS: a move taken back, after its player's name; card a projectile ("stone")
        return msg("attack with the %(card)s", card=_card_name(card))
    if k == "armament":
        # TRANSLATORS: a move taken back, after its player's name; card an armament ("crossbow")
        return msg("placing of the %(card)s", card=_card_name(card))
    if k == "discard":
        # TRANSLATORS: a move taken back, after its player's name; card the card ("bolt")
        return msg("discard of the %(card)s", card=_card_name(card))
    if k == "rebuild":
        # TRANSLATORS: a move taken back, said after its player's name
        return msg("rebuild")
    if k == "key":
        # TRANSLATORS: a move taken back, said after its player's name
        return msg("opening with the key")
    # TRANSLATORS: a move taken back, said after its player's name
    return msg("blockade") if k == "blockade" else ""


def put_back(action: dict[str, Any], before: Any = None) -> Said | str:
    """What to put back by hand; "" when nothing on the table moved."""
    card, k = action.get("card"), _kind(action)
    if k == "end-turn":
        # TRANSLATORS: said after the end of a turn is taken back
        return msg("Put the cards just drawn back on top of the deck.")
    if card is None:
        return ""
    if k == "discard":
        # TRANSLATORS: said after a discard is taken back; card is the card ("the red bolt")
        return msg("Take %(card)s back from the discard pile into the hand.", card=piece(card))
    return _back_in_hand(k, piece(card), action)


def _back_in_hand(k: str, card: Said, action: dict[str, Any]) -> Said:
    """The sentence for a play from hand taken back: the card goes back in the hand, and what
    it did is undone; `card` is the card's words ("the red stone")."""
    if k == "attack":
        hit = ListOf(tuple(piece(t) for t in action.get("targets", [])))
        # TRANSLATORS: said after an attack is taken back; card is the projectile ("the red
        # stone"), targets the cards it hit ("blue's tower 1")
        return msg("Put %(card)s back in the hand, and stand %(targets)s back up as it was.",
                   card=card, targets=hit)
    if k == "rebuild":
        # TRANSLATORS: said after a rebuild is taken back; card is the rebuild card ("the blue
        # rebuild"), target the castle card rebuilt ("blue's tower 1")
        return msg("Put %(card)s back in the hand, and lay %(target)s down again as destroyed.",
                   card=card, target=piece(action["target"]))
    if k == "key":
        # TRANSLATORS: said after the key is taken back; card is the key ("the red key"),
        # target the chamber it opened ("blue's chamber")
        return msg("Put %(card)s back in the hand, and close %(target)s again.", card=card,
                   target=piece(action["target"]))
    if k == "armament" and action.get("replaces"):
        # TRANSLATORS: said after an armament is taken back; card is it ("the red battering
        # ram"), old the armament it replaced ("the red crossbow")
        return msg("Put %(card)s back in the hand, and bring %(old)s back from the discard "
                   "pile.", card=card, old=piece(action["replaces"]))
    # TRANSLATORS: said after a play is taken back; card is the card played ("the red crossbow")
    return msg("Put %(card)s back in the hand.", card=card)
