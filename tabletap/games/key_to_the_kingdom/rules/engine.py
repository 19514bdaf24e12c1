"""The Key to the Kingdom engine object: the Engine contract over play, legal and the pack.

The pack travels with the state (`options.pack` names it, the journal header keeps it), so one
engine object serves every pack and a maker's own content needs no code.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.rules.base import JSON, Event, Outcome
from tabletap.games.key_to_the_kingdom.rules import actions as act
from tabletap.games.key_to_the_kingdom.rules import board, legal, named
from tabletap.games.key_to_the_kingdom.rules.actions import Action
from tabletap.games.key_to_the_kingdom.rules.pack import MAGIC_ITEMS
from tabletap.games.key_to_the_kingdom.rules.play import apply_action, waiting_for
from tabletap.games.key_to_the_kingdom.rules.setup import new_state
from tabletap.games.key_to_the_kingdom.rules.state import (
    MAGIC_PREFIX,
    KttkState,
    Phase,
    Purpose,
    state_from_json,
    state_to_json,
)
from tabletap.games.key_to_the_kingdom.words import msg


class KttkEngine:
    name = "key-to-the-kingdom"

    def new_game(self, players: list[str], seed: int, options: JSON, setup: JSON) -> KttkState:
        return new_state(players, seed, options, setup)

    def opening_events(self, state: KttkState) -> tuple[Event, ...]:
        pack = state.pack
        heroes = named.heroes(pack, state.players)
        if state.phase == Phase.TURN:
            # TRANSLATORS: the game starts; player is the hero whose turn it is
            first = msg("%(player)s takes the first turn.", player=named.hero(pack, state.current))
        else:
            # TRANSLATORS: the game starts with a roll of every hero
            first = msg("Each hero rolls their die; the highest roll takes the first turn.")
        if pack.stand_in:
            # TRANSLATORS: the game starts; heroes are the heroes playing, first the sentence
            # saying who begins; the content is the program's own, not the printed game's
            said = msg("Key to the Kingdom, with tabletap's stand-in content: %(heroes)s. "
                       "%(first)s", heroes=heroes, first=first)
        else:
            # TRANSLATORS: as above; pack is the content pack's name, as its maker wrote it
            said = msg("Key to the Kingdom with the %(pack)s pack: %(heroes)s. %(first)s",
                       pack=pack.name, heroes=heroes, first=first)
        return (Event("setup", said),)

    def apply(self, state: KttkState, action: Action) -> Outcome[KttkState, Action]:
        new, resolved, events = apply_action(state, action)
        return Outcome(new, resolved, tuple(events))

    def legal_actions(self, state: KttkState) -> list[Action]:
        return legal.legal_actions(state)

    def destinations(self, state: KttkState) -> list[str]:
        """The spaces the move in progress can end on (the table's landing choice)."""
        if (state.phase != Phase.ROLL or state.roll is None
                or state.roll.purpose != Purpose.MOVE):
            return []
        return board.destinations(state, state.current, state.roll.result)

    def state_to_json(self, state: KttkState) -> JSON:
        return state_to_json(state)

    def state_from_json(self, data: JSON) -> KttkState:
        try:
            return state_from_json(data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"not a Key to the Kingdom state: {exc!r}") from None

    def action_to_json(self, action: Action) -> JSON:
        return act.action_to_json(action)

    def action_from_json(self, data: JSON) -> Action:
        return act.action_from_json(data)

    def public_view(self, state: KttkState, reveal: bool = False) -> JSON:
        pack = state.pack
        heroes: dict[str, Any] = {}
        for hero in state.players:
            heroes[hero] = {
                "space": state.positions[hero],
                "courtyard": state.in_courtyard(hero),
                "available": state.available(hero),
                "exhausted": state.exhausted(hero),
                "keys": sorted(state.key_colours(hero)),
                "companions": [pack.card(n).name for n in state.companions[hero]],
                "demon_die": state.demon == hero,
            }
        roll = state.roll
        view: JSON = {
            "game": self.name,
            "pack": pack.name,
            "stand_in": pack.stand_in,
            "dice": "physical" if state.physical_dice else "digital",
            "digital_events": state.digital_events,
            "players": list(state.players),
            "turn": self.current_player(state),
            "turn_number": state.turn_number,
            "phase": state.phase.value,
            "waiting_for": waiting_for(state.phase).msgid,  # the page says it (TT.t)
            "ask": {} if state.ask is None else state.ask.to_json(effects=False),
            "roll": None if roll is None else {
                "purpose": roll.purpose.value, "die": roll.die, "value": roll.value,
                "uses": {i: d for i, d in roll.uses}, "result": roll.result},
            "reach": self.destinations(state),
            "heroes": heroes,
            "flaps": dict(state.flaps),
            "demon_die": state.demon,
            "supply": [m for m in MAGIC_ITEMS if state.items[MAGIC_PREFIX + m][0] is None],
            "key_piles": {c: sum(1 for k, w in state.keys.items()
                                 if w is None and k.startswith(c + "/"))
                          for c in ("red", "green", "blue")},
            "deck": len(state.deck),
            "discard": list(state.discard),
            "castle": [{"section": pack.sections[i][0], "tokens_left": len(s),
                        "face_up": [t for t in s if t in state.revealed]}
                       for i, s in enumerate(state.castle)],
            "first_rolls": dict(state.first_rolls),
            "over": state.over,
            "winner": state.winner,
        }
        if reveal:
            view["deck_order"] = list(state.deck)
            view["castle_order"] = [list(s) for s in state.castle]
        return view

    def scores(self, state: KttkState) -> dict[str, int]:
        """Key pieces held (a whole key is 3); the winner counts 4."""
        return {h: len(state.key_colours(h)) + (h == state.winner) for h in state.players}

    def current_player(self, state: KttkState) -> str | None:
        return None if state.over else state.current

    def winners(self, state: KttkState) -> list[str]:
        return [] if state.winner is None else [state.winner]

    def is_over(self, state: KttkState) -> bool:
        return state.over

