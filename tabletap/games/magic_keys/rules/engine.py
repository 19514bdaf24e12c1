"""The Magic Keys engine object: the Engine contract, wired to the handlers and the track.

The track is passed in rather than read here, so tests can play on an edited board and the
engine itself stays a pure function of (track, state, action).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from tabletap.controller.loading.schema import SchemaError, loc_text
from tabletap.controller.rules.base import JSON, Outcome, Rejection
from tabletap.games.magic_keys.rules import legal, play, view
from tabletap.games.magic_keys.rules.actions import (
    Action,
    EndTurn,
    Move,
    Pond,
    Roll,
    TryKey,
    action_from_json,
    action_to_json,
)
from tabletap.games.magic_keys.rules.newgame import new_game
from tabletap.games.magic_keys.rules.state import MagicKeysState
from tabletap.games.magic_keys.rules.track import Track
from tabletap.games.magic_keys.words import msg

# each action's handler, looked up by the action's type (play.py)
_HANDLERS: dict[type, Callable[..., Outcome[MagicKeysState, Action]]] = {
    TryKey: play.try_key,
    Pond: play.pond,
    EndTurn: play.end_turn,
    Roll: play.roll,
    Move: play.move,
}


class MagicKeysEngine:
    name = "magic-keys"

    def __init__(self, track: Track) -> None:
        self.track = track
        # self-play asks for the legal actions on every move: straight to the function
        self.legal_actions = partial(legal.legal_actions, track)  # type: ignore[method-assign]

    def new_game(
        self, players: list[str], seed: int, options: JSON, setup: JSON
    ) -> MagicKeysState:
        return new_game(self.track, players, seed, options, setup)

    def apply(self, state: MagicKeysState, action: Action) -> Outcome[MagicKeysState, Action]:
        try:
            handler = _HANDLERS[action.__class__]
        except KeyError:  # a subclass of an action, or not an action at all
            handler = next((h for t, h in _HANDLERS.items() if isinstance(action, t)), None)
            if handler is None:
                # TRANSLATORS: refusal of something that is not a Magic Keys action
                raise Rejection("bad-action", msg("Magic Keys cannot play that.")) from None
        return handler(self.track, state, action)

    def legal_actions(self, state: MagicKeysState) -> list[Action]:
        return legal.legal_actions(self.track, state)  # (__init__ binds it straight)

    def state_to_json(self, state: MagicKeysState) -> JSON:
        return state.model_dump(mode="json")

    def state_from_json(self, data: JSON) -> MagicKeysState:
        """Raises ValueError naming the first problem (a damaged journal or state file)."""
        try:
            state = MagicKeysState.model_validate(data)
        except SchemaError as exc:
            where = loc_text(exc.loc) or "state"
            raise ValueError(f"not a Magic Keys state: {where}: {exc.message}") from None
        if set(state.places) != set(self.track.keys):
            raise ValueError("not a Magic Keys state: places must list every coloured key")
        if state.pawn is not None and not 0 <= state.pawn < len(self.track.spaces):
            raise ValueError("not a Magic Keys state: the pawn is off the track")
        return state

    def action_to_json(self, action: Action) -> JSON:
        return action_to_json(action)

    def action_from_json(self, data: JSON) -> Action:
        return action_from_json(data)

    def public_view(self, state: MagicKeysState, reveal: bool = False) -> JSON:
        return view.public_view(self.track, state, reveal)

    def scores(self, state: MagicKeysState) -> dict[str, int]:
        return dict(state.gems)

    def current_player(self, state: MagicKeysState) -> str | None:
        return None if state.winner is not None else state.players[state.current]

    def winners(self, state: MagicKeysState) -> list[str]:
        return [] if state.winner is None else [state.winner]

    def is_over(self, state: MagicKeysState) -> bool:
        return state.winner is not None
