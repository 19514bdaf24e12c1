"""Memory at the table: a card tapped at any reader is that card turned over.

The player picks a card up, taps it at a reader (any one: Memory needs only one) and lays it
down face up where it lay; the table says what it shows. Lifting a card means nothing, the
flip happened at the tap, and so do the buttons: two cards make a turn, so there is no turn
to end by hand (a short press of `roll` after a game card still takes a card back, as in every
game). A flip may also be entered by hand: `do: {action: flip, card: owl/a}`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tabletap.controller.games.base import (
    GameTable,
    ManualAction,
    PiecePlaced,
    TableInput,
)
from tabletap.controller.rules.base import Rejection
from tabletap_memory.pieces import PREFIX
from tabletap_memory.rules import ENGINE, Flip
from tabletap_memory.words import msg

CARD_PIECE = re.compile(rf"^{PREFIX}/card/([a-z0-9]+(?:-[a-z0-9]+)*/[ab])$")


def card_of(piece: str) -> str:
    """`memory/card/owl/a` -> `owl/a`; Rejection `unknown-piece` for any other id of the game
    (whether the picture is in the deck is the engine's `unknown-card`)."""
    m = CARD_PIECE.match(piece)
    if not m:
        # TRANSLATORS: refusal of a tag of this game that is no card (a tag enrolled wrongly)
        raise Rejection("unknown-piece", msg("That is not a card of this game: put it back in "
                                             "the box."))
    return m.group(1)


@dataclass
class MemoryTable(GameTable):
    """No gesture of Memory is ever half made, so this layer holds no state of its own."""

    game: str = "memory"
    engine: Any = ENGINE

    def interpret(self, state: Any, event: TableInput, now: float) -> Any:
        if isinstance(event, PiecePlaced):
            self.check_piece_game(event.piece)
            return Flip(card_of(event.piece))
        if isinstance(event, ManualAction):
            return self.engine.action_from_json(dict(event.data))
        return None  # a lift, a button: nothing in Memory
