"""Memory's one action, a card turned over, and its JSON form (the journal, `do:` steps).

`action_from_json` only checks the shape: whether the card is in the deck, taken or already
face up is the engine's business, so that a journal entry or a typed `do` with a wrong card is
refused with the same code and sentence as the same card tapped at the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletap.controller.language.said import Said
from tabletap.controller.rules.base import JSON, Rejection
from tabletap_memory.words import msg


@dataclass(frozen=True, slots=True)
class Flip:
    """A card turned over: `<picture>/<a|b>`, its piece id after `memory/card/`."""

    card: str


Action = Flip


def action_to_json(action: Action) -> JSON:
    if isinstance(action, Flip):
        return {"action": "flip", "card": action.card}
    raise TypeError(f"not a Memory action: {action!r}")


def _bad(message: Said) -> Rejection:
    return Rejection("bad-action", message)


def _not_a_flip() -> Rejection:
    # TRANSLATORS: refusal of a move typed by hand that is not a card turned over
    return _bad(msg("A move in Memory is a card turned over, nothing else."))


def action_from_json(data: Any) -> Action:
    """Raises Rejection `bad-action`: the only action is a flip with its card, so whatever is
    malformed the family hears what a move is, in words and without the JSON."""
    if not isinstance(data, dict) or data.get("action") != "flip":
        raise _not_a_flip()
    if set(data) - {"action", "card"}:
        raise _not_a_flip()
    card = data.get("card")
    if not isinstance(card, str) or not card:
        # TRANSLATORS: refusal of a card turned over by hand without saying which card
        raise _bad(msg("Say which card is turned over."))
    return Flip(card)
