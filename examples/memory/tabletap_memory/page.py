"""What the phone page needs of a Memory game beyond the engine's public view: the names of the
deck's pictures and its title, in every language the deck file spells them, so the view says
"owl" (or "Eule") as the table does without reading a deck file, in the page's own language
(a phone may choose another than the table's)."""

from __future__ import annotations

from typing import Any

from tabletap.controller.language.said import Named

JSON = dict[str, Any]


def _spellings(named: Named) -> dict[str, str]:
    """language -> name; `en` is always there (the view's fallback)."""
    return dict(named.names)


def extras(engine: Any, state: Any) -> JSON:
    deck = engine.deck(state.deck)
    return {"names": {picture: _spellings(named) for picture, named in deck.names.items()},
            "title": _spellings(deck.title)}
