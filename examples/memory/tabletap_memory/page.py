"""What the phone page needs of a Memory game beyond the engine's public view: the words of
the deck's pictures, so the view says "owl" as the table does without reading a deck file."""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]


def extras(engine: Any, state: Any) -> JSON:
    deck = engine.deck(state.deck)
    return {"names": dict(deck.names), "title": deck.title}
