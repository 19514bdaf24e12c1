"""Magic Keys at the table: which reader a key was tapped at decides the action.

A key at the `chest` reader is a try at the chest, a key at the `pond` reader is thrown into the
magic pond; the `end-turn` button ends a turn that ran out of dice, the `roll` button rolls the
digital dice. Lifting a key means nothing: the action happened when it was tapped.

Digital dice, while numbers show: a short press of `roll` names the next die showing (the
play-by-play says it and where the pawn would land, the lights flash its number in the
player's colour), and a long press moves the pawn by the die named, so a family can move and
roll again without a console. A long press with one number showing moves by it at once.
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
from tabletap.games.magic_keys.rules import ENGINE, EndTurn, Move, Pond, Roll, TryKey
from tabletap.games.magic_keys.words import both, either, msg, to_space

KEY_PIECE = re.compile(r"^magic-keys/key/(?:(purple|blue|green|yellow)/([1-5])|(gold))$")


def key_of(piece: str) -> str:
    """`magic-keys/key/blue/3` -> `blue/3`; Rejection `unknown-piece` for anything else."""
    m = KEY_PIECE.match(piece)
    if not m:
        # TRANSLATORS: refusal of a tag that is not a key of this game
        raise Rejection("unknown-piece", msg("That is not one of the Magic Keys pieces."))
    return "gold" if m.group(3) else f"{m.group(1)}/{m.group(2)}"


def manual_action(data: dict[str, Any]) -> dict[str, Any]:
    """`do: {action: move, steps: 3}` -> the engine's JSON form `{type: move, steps: 3}`."""
    if "action" not in data:
        # TRANSLATORS: refusal of a hand-entered action that does not say which action it is
        raise Rejection("bad-action", msg("A hand-entered action needs to say which action it "
                                          "is."))
    converted = {k: v for k, v in data.items() if k != "action"}
    converted["type"] = data["action"]
    return converted


@dataclass
class MagicKeysTable(GameTable):
    game: str = "magic-keys"
    engine: Any = ENGINE
    chosen: tuple[int, int] | None = None  # (the roll it belongs to, the die named), transient

    def interpret(self, state: Any, event: TableInput, now: float) -> Any:
        if isinstance(event, PieceLifted):
            return None
        if isinstance(event, PiecePlaced):
            self.check_piece_game(event.piece)
            key = key_of(event.piece)
            if event.reader == "chest":
                return self._stop_and_try(state, key)
            if event.reader == "pond":
                return Pond(key)
            raise Rejection(
                "wrong-reader",
                # TRANSLATORS: refusal of a key tapped at a reader this game does not use
                msg("Magic Keys uses only the chest reader and the pond reader: tap keys "
                    "there."),
            )
        if isinstance(event, ButtonPressed):
            if event.name == "end-turn":
                return EndTurn()
            if event.name == "roll":
                if state.dice_mode == "digital" and state.showing:
                    return self._choose_or_move(state, event.long)
                return Roll(self.forced.get("roll"))
            return None
        if isinstance(event, ManualAction):
            action = self.engine.action_from_json(manual_action(event.data))
            if isinstance(action, Roll) and action.dice is None:
                return Roll(self.forced.get("roll"))
            return action
        return None

    def _stop_and_try(self, state: Any, key: str) -> Any:
        """With digital dice, a key tapped at the chest while a roll waits for its move is the
        move to that key's space and the try, in one gesture: the child moves the pawn, pulls
        the key and tries it, with no console. Only a move that a die showing makes exactly
        (or, for the golden key, reaches or passes) is read this way; anything else goes to the
        engine as a plain try, which says why it is refused."""
        if state.dice_mode != "digital" or not state.showing or state.pawn is None:
            return TryKey(key)
        distance = self.engine.track.position_of(key) - state.pawn
        dice = sorted(set(state.showing))
        fits = [n for n in dice if n == distance or (key == "gold" and 0 < distance <= n)]
        return (Move(fits[0]), TryKey(key)) if fits else TryKey(key)

    def _choose_or_move(self, state: Any, long: bool) -> Any:
        """Step 1, "Choose one of the remaining dice and advance the game pawn by the number
        indicated on the chosen dice", by the `roll` button: a short press names the next
        die showing, a long press moves by the die named."""
        numbers = list(dict.fromkeys(state.showing))  # each number once, in the order rolled
        chosen = self.chosen[1] if self.chosen and self.chosen[0] == state.rolls else None
        if long:
            if chosen is None and len(numbers) == 1:
                chosen = 0
            if chosen is None:
                raise Rejection(
                    "choose-die-first",
                    # TRANSLATORS: refusal of a long press of roll; dice the numbers, "3 and 1"
                    msg("The dice show %(dice)s: press roll to hear them one by one, then hold "
                        "roll to move by the one named.", dice=both(numbers)),
                )
            return Move(numbers[chosen])
        chosen = 0 if chosen is None else (chosen + 1) % len(numbers)
        self.chosen = (state.rolls, chosen)
        n = numbers[chosen]
        others = [x for x in numbers if x != n]
        to = self._landing(state, n)
        if others:
            # TRANSLATORS: a short press of roll names a die; to where the pawn would land
            # ("to the second purple key"), others the other numbers showing ("1 or 2")
            said = msg("%(player)s: move by %(n)s, %(to)s? Hold roll to move, or press roll "
                       "for the %(others)s.", player=state.player, n=n, to=to,
                       others=either(others))
        else:
            # TRANSLATORS: a short press of roll names a die; to where the pawn would land
            said = msg("%(player)s: move by %(n)s, %(to)s? Hold roll to move.",
                       player=state.player, n=n, to=to)
        return Pending(said, count=n)

    def _landing(self, state: Any, n: int) -> Any:
        """Where a move by `n` stops, as the family says it (the golden key stops the pawn)."""
        track = self.engine.track
        return to_space(track.spaces[min(state.pawn + n, track.gold_position)])

    def accepted(self, action: Any) -> None:
        self.chosen = None  # a new roll, a move or a try: the die named is spent
        if isinstance(action, Roll):
            self.forced.pop("roll", None)

    def force(self, kind: str, value: Any) -> None:
        if kind == "roll":
            value = tuple(value)
        super().force(kind, value)
