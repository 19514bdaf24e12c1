"""Kingdomino at the table: taps confirm what the box gave, hands enter the moves.

What a tap means (any reader; Kingdomino needs only one):
- a domino `kingdomino/domino/N`: confirms that domino of the line just drawn. After a line is
  announced, every one of its dominoes must be tapped before play goes on; a domino the box did
  not give is rejected (`wrong-domino`), and so is a tap when nothing is waiting (`not-expected`).
- once the new line is all tapped, a domino of it: the claim of the player whose turn it is
  (the player lifts the domino their king will stand on and taps it). The engine's claim order
  decides whose turn it is, and refuses a claim out of step (`wrong-step`: place first) or of a
  domino a king already stands on (`taken`).
- a treasure token while a gem must be turned up: registers the gem that came up (`reveal`). The
  tokens lie chest side up and look alike, so the table reports which one was turned rather than
  asking for a particular one.
- a face-up gem token after a placement discovered a treasure: chooses that gem (Pending); the
  `orient` action then sets it down, `turns` quarter turns clockwise from treasures.yaml's
  orientation.
- kings and castles mean nothing (they are tagged for enrolment and inventory).

Everything else is entered by hand (`do:` steps, `tabletap do`, or the companion page): place,
discard, orient, and claim/confirm/reveal for a tag that will not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
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
from tabletap.controller.rules.base import Rejection
from tabletap.games.kingdomino.rules import ENGINE, KingdominoState
from tabletap.games.kingdomino.rules.actions import Action, normalise_token
from tabletap.games.kingdomino.words import gem, gems, msg

DOMINO_PIECE = re.compile(r"^kingdomino/domino/([1-9]|[1-3][0-9]|4[0-8])$")
TREASURE_PIECE = re.compile(
    r"^kingdomino/treasure/((?:ruby|sapphire|emerald|topaz|amethyst)/[1-3]|joker)$"
)
OTHER_PIECE = re.compile(r"^kingdomino/(?:king/[a-z]+/[12]|castle/[a-z]+)$")


@dataclass
class KingdominoTable(GameTable):
    game: str = "kingdomino"
    engine: Any = ENGINE
    held_gem: str | None = None  # a face-up gem tapped, waiting for `orient`

    def interpret(self, state: KingdominoState, event: TableInput, now: float) -> Any:
        if isinstance(event, PieceLifted | ButtonPressed):
            return None
        if isinstance(event, PiecePlaced):
            self.check_piece_game(event.piece)
            return self._tapped(state, event.piece)
        if isinstance(event, ManualAction):
            return self._manual(state, dict(event.data))
        return None

    def _tapped(self, state: KingdominoState, piece: str) -> Any:
        m = DOMINO_PIECE.match(piece)
        if m:
            domino = int(m.group(1))
            if not state.unconfirmed and any(x.domino == domino for x in state.next_line):
                return Action("claim", domino=domino)
            return Action("confirm", domino=domino)
        m = TREASURE_PIECE.match(piece)
        if m:
            return self._gem_tapped(state, m.group(1))
        if OTHER_PIECE.match(piece):
            return None
        # TRANSLATORS: a refusal: a tag of another game or set was tapped
        raise Rejection("unknown-piece", msg("That is not one of the Kingdomino pieces."))

    def _gem_tapped(self, state: KingdominoState, token: str) -> Any:
        if state.reveals:
            return Action("reveal", token=token)  # the engine checks it lay chest side up
        if state.step == "treasure" and not state.unconfirmed:
            if token not in state.face_up:
                # TRANSLATORS: a refusal; gem is the gem tapped, gems the face-up ones
                raise Rejection("not-face-up", msg(
                    "That %(gem)s is not face up; choose %(gems)s.", gem=gem(token),
                    gems=gems(state.face_up)))
            self.held_gem = token
            # TRANSLATORS: after a face-up gem is tapped; gem is its name
            return Pending(msg(
                "Set the %(gem)s on the corner, turn it the way you like, and say how many "
                "quarter turns on the phone.", gem=gem(token)))
        # TRANSLATORS: a refusal: a gem was tapped when no treasure was found
        raise Rejection("no-treasure", msg(
            "No treasure is waiting: a gem is taken only when a placement forms a square of "
            "four different landscapes."))

    def _manual(self, state: KingdominoState, data: dict[str, Any]) -> Any:
        if data.get("action") != "orient":
            return self.engine.action_from_json(data)
        extra = set(data) - {"action", "turns", "token"}
        if extra or "turns" not in data:
            # TRANSLATORS: a refusal: how a gem is turned was not said right
            raise Rejection("bad-action", msg("Say how many quarter turns the gem makes: none, "
                                              "one, two or three."))
        token = normalise_token(data["token"]) if data.get("token") is not None else None
        token = token or self.held_gem
        if token is None:
            # TRANSLATORS: a refusal: a gem's turns were entered before a gem was tapped
            raise Rejection("no-gem-chosen", msg("Tap one of the face-up gems first, then turn "
                                                 "it."))
        action = self.engine.action_from_json(
            {"action": "treasure", "token": token, "turns": data["turns"]}
        )
        self.held_gem = None  # the gesture is complete (or cancelled by the engine's answer)
        return action
