"""Memory (Concentration): the pure rules engine, its one action, its state and its decks.

examples/memory/README.md explains the rules as the table plays them, every reason code and
every decision taken; rules/engine.py's docstring holds the rules themselves.
"""

from __future__ import annotations

from tabletap_memory.rules.actions import Action, Flip, action_from_json, action_to_json
from tabletap_memory.rules.deck import Deck, DeckError, deck_names, load_deck, parse_deck
from tabletap_memory.rules.engine import MemoryEngine
from tabletap_memory.rules.state import MemoryState

# The shipped decks are read when a game first names one. A broken deck file refuses that
# game (`bad-deck`, naming file, line and key) instead of stopping the table: the daemon says
# why it cannot start, the table says why the game card does not start a game.
ENGINE = MemoryEngine()

__all__ = [
    "ENGINE",
    "Action",
    "Deck",
    "DeckError",
    "Flip",
    "MemoryEngine",
    "MemoryState",
    "action_from_json",
    "action_to_json",
    "deck_names",
    "load_deck",
    "parse_deck",
]
