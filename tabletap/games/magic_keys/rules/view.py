"""What `tabletap state --json` prints: the table as the family can see it.

Which forest keys are fake is the one secret in the game (on this set the latch decides), so it
only appears with `reveal=True`; keys already tried are public, as they are at the table.
"""

from __future__ import annotations

from tabletap.controller.rules.base import JSON
from tabletap.games.magic_keys.rules.state import DICE_COUNT, MagicKeysState
from tabletap.games.magic_keys.rules.track import Track


def public_view(track: Track, state: MagicKeysState, reveal: bool = False) -> JSON:
    over = state.winner is not None
    view: JSON = {
        "game": "magic-keys",
        "players": list(state.players),
        "scores": dict(state.gems),
        "current_player": None if over else state.player,
        "winners": [state.winner] if over else [],
        "over": over,
        "gems_required": track.gems_required[len(state.players)],
        "chest": state.chest,
        "dice_mode": state.dice_mode,
        "keys": dict(state.places),
        "fakes_held": {p: state.held_by(p) for p in state.players},
    }
    if state.dice_mode == "digital":
        assert state.pawn is not None
        view["pawn"] = {"position": state.pawn, "space": track.spaces[state.pawn]}
        view["dice"] = {
            "available": state.dice,
            "set_aside": DICE_COUNT - state.dice,
            "showing": list(state.showing),
            "rolled": state.rolled,
            "moved": state.moved,
        }
    if reveal:
        view["fake_keys"] = list(state.fake_keys)
        view["seed"] = state.seed
    return view
