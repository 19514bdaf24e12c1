"""Oversiege at the table: taps and the end-turn button made into engine plays.

Every card is tapped at a reader when it is played (any reader: Oversiege needs one). A play of
several cards is tapped card by card: the card from hand first, then what it acts on. Until the
last tap the table holds a half-made gesture and the lights show `pending`; a timeout, a short
press of end-turn, a card that cannot finish the gesture or a piece of another game cancels it
with a clear rejection.

    armament        the armament; with two in play, then the armament it replaces
    attack          the projectile, then its target (a double: then two targets, or one when
                    no second card is in its reach: it fires on that tap)
    rebuild         the rebuild card, then the tower or entrance it restores
    blockade        the blockade
    key             the key, then the chamber it opens
    discard         hold end-turn, then tap the card; or tap a card that waits for a
                    target, then hold end-turn
    end the turn    press end-turn
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabletap.controller.games.base import (
    ButtonPressed,
    GameTable,
    ManualAction,
    Pending,
    PieceLifted,
    PiecePlaced,
    TableInput,
)
from tabletap.controller.language.said import Named, Said
from tabletap.controller.rules.base import Rejection
from tabletap.games.oversiege.rules import ENGINE, Action, OversiegeEngine, OversiegeState
from tabletap.games.oversiege.rules.data import ARMAMENTS, PROJECTILES
from tabletap.games.oversiege.rules.pieces import parse_piece
from tabletap.games.oversiege.rules.state import HAND_KEPT
from tabletap.games.oversiege.words import card as named
from tabletap.games.oversiege.words import first as opening
from tabletap.games.oversiege.words import msg, msg_n, piece

GESTURE_TIMEOUT = 10.0  # seconds a half-made gesture waits for its next tap
END_TURN = "end-turn"


@dataclass
class _Gesture:
    """A half-made play. `kind` is the engine action, or `discard` for a held end-turn that
    waits for the card to discard."""

    kind: str
    card: str | None
    wants: int
    since: float
    targets: list[str] = field(default_factory=list)


@dataclass
class OversiegeTable(GameTable):
    game: str = "oversiege"
    engine: OversiegeEngine = field(default=ENGINE)
    timeout: float = GESTURE_TIMEOUT
    gesture: _Gesture | None = None

    def interpret(self, state: Any, event: TableInput, now: float) -> Any | Pending | None:
        if self.gesture is not None and now - self.gesture.since >= self.timeout:
            self.gesture = None  # expire() reports timeouts; a late tap starts afresh
        if isinstance(event, PieceLifted):
            return None
        if isinstance(event, ManualAction):
            self.gesture = None
            return self.engine.action_from_json(event.data)
        if isinstance(event, ButtonPressed):
            return self._button(state, event, now)
        if isinstance(event, PiecePlaced):
            return self._tap(state, event.piece, now)
        return None

    def turn_count(self, state: Any) -> int | None:
        """The turn lights show how many cards the player whose turn it is drew."""
        drawn = self.engine.public_view(state).get("drawn")
        return drawn if isinstance(drawn, int) else None

    def expire(self, now: float) -> Rejection | None:
        if self.gesture is None or now - self.gesture.since < self.timeout:
            return None
        card = self.gesture.card
        self.gesture = None
        seconds, n = f"{self.timeout:g}", max(1, round(self.timeout))
        if card is None:
            # TRANSLATORS: said when end-turn was held to discard and no card came; seconds is
            # how long the table waited (n, the same as a whole number)
            return Rejection("gesture-timeout", msg_n(
                "No card was tapped to discard within %(seconds)s second; the discard is "
                "cancelled.", "No card was tapped to discard within %(seconds)s seconds; the "
                "discard is cancelled.", n, seconds=seconds))
        # TRANSLATORS: said when a play waited for its next tap in vain; card is the card played
        # ("stone"), seconds how long the table waited (n, the same as a whole number)
        return Rejection("gesture-timeout", msg_n(
            "No tap came for the %(card)s within %(seconds)s second; the play is cancelled. Tap "
            "the card again to start over.", "No tap came for the %(card)s within %(seconds)s "
            "seconds; the play is cancelled. Tap the card again to start over.", n,
            card=_kind_of(card), seconds=seconds))

    # -- gestures -------------------------------------------------------------------------------

    def _button(self, state: OversiegeState, event: ButtonPressed, now: float) -> Any:
        if event.name != END_TURN:
            return None
        gesture = self.gesture
        if not event.long:
            if gesture is not None:
                self.gesture = None
                raise self._cancelled(gesture, "pressed")
            return Action("end-turn")
        if gesture is None:
            if not state.over:
                side = state.sides[state.current]
                if side.hand <= HAND_KEPT:
                    # TRANSLATORS: a refusal of a discard; player is a name, n the cards they
                    # hold (two or fewer)
                    raise Rejection("keep-two", msg_n(
                        "%(player)s holds %(n)s card and must end the turn with two: nothing "
                        "more can be discarded.", "%(player)s holds %(n)s cards and must end "
                        "the turn with two: nothing more can be discarded.", side.hand,
                        player=state.current))
            self.gesture = _Gesture("discard", None, 1, now)
            # TRANSLATORS: said when end-turn is held: the next card tapped is discarded
            return Pending(msg("Tap the card to discard."))
        self.gesture = None
        if gesture.kind == "discard":
            raise self._cancelled(gesture, "held")
        return Action("discard", gesture.card)

    def _tap(self, state: OversiegeState, piece: str, now: float) -> Any:
        gesture = self.gesture
        if gesture is not None:
            try:
                self.check_piece_game(piece)
            except Rejection:
                # a piece of another game is unrelated too: it cancels the half-made gesture,
                # so the next castle tap cannot finish a play the family has given up on
                self.gesture = None
                raise
        self.check_piece_game(piece)
        if gesture is not None and gesture.kind == "discard":
            self.gesture = None
            return Action("discard", piece)
        if gesture is not None:
            if not self._fits(state, gesture, piece):
                self.gesture = None
                raise self._cancelled(gesture, "unfit", piece)
            gesture.targets.append(piece)
            gesture.since = now
            if len(gesture.targets) < gesture.wants:
                if self._fires_alone(state, gesture):
                    self.gesture = None
                    return Action(gesture.kind, gesture.card, tuple(gesture.targets))
                # TRANSLATORS: said when a double's first target is tapped; target is that
                # card ("blue's tower 1")
                return Pending(msg("%(target)s is chosen; tap the second target.",
                                   target=opening(piece)))
            self.gesture = None
            return Action(gesture.kind, gesture.card, tuple(gesture.targets))
        return self._first(state, piece, now)

    def _first(self, state: OversiegeState, card: str, now: float) -> Any:
        part = parse_piece(card, self.engine.cards).part
        self.engine.check_card(state, card)
        if part == "blockade":
            return Action("blockade", card)
        if part in ARMAMENTS:
            if len(state.sides[state.current].armaments) < 2:
                return Action("armament", card)
            self.gesture = _Gesture("armament", card, 1, now)
            # TRANSLATORS: said when a third armament is tapped
            return Pending(msg("Two armaments are in play: tap the one this replaces."))
        if part in PROJECTILES:
            hits = self.engine.needs_targets(card)
            self.gesture = _Gesture("attack", card, hits, now)
            # TRANSLATORS: said when a projectile is tapped; n how many targets it takes
            return Pending(msg_n("Tap the target.", "Tap %(n)s targets.", hits))
        if part == "rebuild":
            self.gesture = _Gesture("rebuild", card, 1, now)
            # TRANSLATORS: said when a rebuild card is tapped
            return Pending(msg("Tap the tower or entrance to rebuild."))
        self.gesture = _Gesture("key", card, 1, now)
        # TRANSLATORS: said when the key is tapped
        return Pending(msg("Tap the chamber to open."))

    def _fires_alone(self, state: OversiegeState, gesture: _Gesture) -> bool:
        """A double whose first target is the only card in its reach fires at once (the
        engine accepts one target then: docs/games/oversiege.md, "a double with one target");
        otherwise, or when the first aim is refused, it waits for the second tap as before."""
        try:
            self.engine.apply(state, Action(gesture.kind, gesture.card, tuple(gesture.targets)))
        except Rejection:
            return False
        return True

    def _fits(self, state: OversiegeState, gesture: _Gesture, piece: str) -> bool:
        """Whether a tap can be the gesture's next card (the engine judges whether it is a
        legal one); anything else is an unrelated card and cancels the gesture."""
        try:
            target = parse_piece(piece, self.engine.cards)
        except Rejection:
            return False
        if piece == gesture.card:
            return False
        side = state.sides.get(target.deck)
        in_play = side is not None and piece in side.in_play()
        if gesture.kind == "attack":
            return target.castle or in_play
        if gesture.kind == "armament":
            return in_play and target.part in ARMAMENTS
        return target.castle

    def _cancelled(self, gesture: _Gesture, why: str, tapped: str = "") -> Rejection:
        """A half-made play given up: `why` is "pressed" (end-turn pressed), "held" (end-turn
        held again) or "unfit" (`tapped` cannot finish it); a whole sentence for each."""
        return Rejection("gesture-cancelled", _cancelled_said(gesture.card, why, tapped))


def _kind_of(card: str) -> Named:
    """A card played from hand (a gesture's, so a deck card) by its name: "stone"."""
    return named(card.split("/")[2])


def _cancelled_said(card: str | None, why: str, tapped: str) -> Said:
    if card is None and why == "held":
        # TRANSLATORS: said when end-turn is held twice in a row
        return msg("End-turn was held again, so nothing is discarded. Nothing changed.")
    if card is None:
        # TRANSLATORS: said when end-turn is pressed while the table waits for a card to discard
        return msg("End-turn was pressed, so nothing is discarded. Nothing changed.")
    if why == "unfit":
        # TRANSLATORS: said when a play is given up; card is the card played ("stone"),
        # tapped the card tapped after it that cannot finish it ("the red key")
        return msg("The play of the %(card)s is cancelled: %(tapped)s cannot finish it. Nothing "
                   "changed.", card=_kind_of(card), tapped=piece(tapped))
    # TRANSLATORS: said when end-turn is pressed before a play is finished; card is the card
    # played ("stone")
    return msg("The play of the %(card)s is cancelled: end-turn was pressed. Nothing changed.",
               card=_kind_of(card))
