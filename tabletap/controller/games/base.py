"""The table layer of a game: from physical gestures to engine actions.

An engine knows the rules; a GameTable knows the table: which reader a piece was tapped at, that
an attack is two taps (projectile, then target), that a button means "end the turn". It holds only
transient gesture state (a half-made gesture), which is never journaled: a restart simply forgets
a half-made gesture, and the family taps again.

Standard event kinds (controller.rules.base.Event.kind) the table session answers to:
    chest-open   open the chest latch (it relocks after `chest.open_seconds` or on lid close)
    fake         show the `fake` lights pattern
    turn         data {"player": name}: whose turn it is now
    win          data {"winners": [names]}: the win pattern, for good
Any other kind is informational: printed in the play-by-play and the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from msgspec import Struct

from tabletap.controller.language.messages import msg
from tabletap.controller.language.said import Said, plain
from tabletap.controller.rules.base import JSON, Engine, Rejection


class PiecePlaced(Struct, frozen=True):
    """A piece arrived on a reader (identity already resolved to a piece id)."""

    reader: str
    piece: str


class PieceLifted(Struct, frozen=True):
    reader: str
    piece: str


class ButtonPressed(Struct, frozen=True):
    name: str
    long: bool = False


class ManualAction(Struct, frozen=True):
    """An action entered by hand (`do:` in a scenario, `tabletap do` at the console)."""

    data: JSON


TableInput = PiecePlaced | PieceLifted | ButtonPressed | ManualAction


class Pending(Struct, frozen=True):
    """A gesture is half made (an attack waiting for its target): show `pending`, wait.

    With a `count` (the die a short press of `roll` chose, say) the lights show that
    number instead, flashed in the player's colour, as the turn lights show a count."""

    message: str | Said
    count: int | None = None


@dataclass
class GameTable:
    """Base class: subclasses set `game` and `engine` and override `interpret`.

    `interpret` returns an engine action to apply, a Pending, or None when the input means
    nothing for this game (a lift where lifting is no move, say); it raises Rejection for a
    wrong gesture.
    It must not change the game state (it has none of its own to change) and must leave its
    gesture state unchanged when it rejects, except to cancel the half-made gesture.
    """

    game: str = ""
    engine: Engine[Any, Any] = field(default=None)  # type: ignore[assignment]
    # the game's title, the English msgid of its catalog, set by registry.table_for so the
    # table layer can name its game in a sentence without importing the registry
    title: str = ""
    forced: dict[str, Any] = field(default_factory=dict)

    def interpret(self, state: Any, event: TableInput, now: float) -> Any | Pending | None:
        raise NotImplementedError

    def expire(self, now: float) -> Rejection | None:
        """Cancel a half-made gesture that timed out; the session shows the rejection."""
        return None

    def accepted(self, action: Any) -> None:
        """The engine accepted `action`: a forced chance outcome it used is spent now (a
        rejected press must not throw away a scenario's `roll:`)."""

    def turn_count(self, state: Any) -> int | None:
        """A number the turn lights show beside the player's colour, if the game has one."""
        return None

    def force(self, kind: str, value: Any) -> None:
        """Fix the next chance outcome of `kind` (a scenario's `roll:` step, say)."""
        self.forced[kind] = value

    def piece_game(self, piece: str) -> str:
        return piece.split("/", 1)[0]

    def check_piece_game(self, piece: str) -> None:
        """Reject a piece of another game with the same code in every game."""
        if self.piece_game(piece) != self.piece_prefix():
            # TRANSLATORS: refusal when a piece of another game is tapped; game is the title
            # of the game on the table
            raise Rejection("wrong-game", msg(
                "That piece belongs to another game; this table is playing %(game)s.",
                game=Said(self.game, self.title) if self.title else plain(self.game)))

    def piece_prefix(self) -> str:
        return self.game

    def said(self, state: Any, text: str) -> str:
        """`text` with the game's own ids put into words for the voice. Piece ids are already
        said plainly by controller.spoken.words; a game whose sentences name other ids (a board
        space, say) overrides this, since only the game knows what its ids stand for."""
        return text
