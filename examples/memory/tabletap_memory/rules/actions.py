"""Memory's one action, a card turned over, and its JSON form (the journal, `do:` steps).

`action_from_json` only checks the shape: whether the card is in the deck, taken or already
face up is the engine's business, so that a journal entry or a typed `do` with a wrong card is
refused with the same code and sentence as the same card tapped at the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletap.controller.rules.base import JSON, Rejection


@dataclass(frozen=True, slots=True)
class Flip:
    """A card turned over: `<picture>/<a|b>`, its piece id after `memory/card/`."""

    card: str


Action = Flip


def action_to_json(action: Action) -> JSON:
    if isinstance(action, Flip):
        return {"action": "flip", "card": action.card}
    raise TypeError(f"not a Memory action: {action!r}")


def _bad(message: str) -> Rejection:
    return Rejection("bad-action", message)


def action_from_json(data: Any) -> Action:
    """Raises Rejection `bad-action` naming what is malformed."""
    if not isinstance(data, dict):
        raise _bad(f"An action must be a mapping with an \"action\", not {data!r}.")
    kind = data.get("action")
    if kind != "flip":
        raise _bad(f"Memory has no action {kind!r}; it knows only flip, like "
                   "{action: flip, card: owl/a}.")
    extra = sorted(map(str, set(data) - {"action", "card"}))
    if extra:
        raise _bad(f"A flip has no field {', '.join(map(repr, extra))}; it takes a card.")
    card = data.get("card")
    if not isinstance(card, str) or not card:
        raise _bad("A flip needs the card turned over, like \"owl/a\".")
    return Flip(card)
