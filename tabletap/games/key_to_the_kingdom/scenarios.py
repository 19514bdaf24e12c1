"""Write the complete-game Key to the Kingdom scenarios from seeded self-play.

Each game is played by the engine's purposeful self-play player; every action is then written
as the gesture a family makes at the table (a tap, a button, a roll entered) and the scenario
runs it through the whole daemon. `--check` fails if the files on disk differ from what this
writes (so the scenarios stay in step with the engine and the table layer).

    .venv/bin/python tools/scenarios.py key-to-the-kingdom [--check]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import yaml

from tabletap.games.key_to_the_kingdom.rules import ENGINE
from tabletap.games.key_to_the_kingdom.rules.actions import (
    Action,
    Assign,
    Castle,
    Courtyard,
    Draw,
    Exhaust,
    Move,
    Nap,
    Refresh,
    Resolve,
    Roll,
    Shortcut,
    Steal,
    Sweep,
    TakeKey,
    TakeMagic,
    Use,
)
from tabletap.games.key_to_the_kingdom.rules.play import Play, apply_action
from tabletap.games.key_to_the_kingdom.rules.selfplay import purposeful_action
from tabletap.games.key_to_the_kingdom.rules.state import (
    Ask,
    CastleAsk,
    KttkState,
    Phase,
    StepAsk,
)

OUT = Path("scenarios") / "key-to-the-kingdom"  # from the repository root, where make runs
HEROES = ["knight", "wizard", "ranger", "rogue", "paladin"]
GAMES = {  # file -> (heroes, seed, digital events)
    "two-heroes.yaml": (2, 3, False),
    "three-heroes.yaml": (3, 4, True),
    "five-heroes.yaml": (5, 8, False),
}


def piece(item: str) -> str:
    if item.startswith("magic/"):
        return "kttk/" + item
    if item.startswith("event/"):
        return "kttk/" + item
    return "kttk/item/" + item


def _cycle_steps(options: list[str], chosen: str) -> list[dict[str, Any]]:
    presses = options.index(chosen) + 1
    return [{"press": "end-turn"} for _ in range(presses)] + [{"hold": "end-turn"}]


def gesture(state: KttkState, action: Action, resolved: Action) -> list[dict[str, Any]]:
    """The table gesture for one engine action (the state is the one the action found)."""
    if isinstance(action, Roll):
        assert isinstance(resolved, Roll)
        return [{"roll": [resolved.value]}, {"press": "roll"}]
    if isinstance(action, Use):
        roll = state.roll
        assert roll is not None
        if action.target or action.refresh:
            return [{"tap": piece(action.item)}, {"tap": piece(action.target or action.refresh)}]
        values = sorted(Play(state).st.item_value(action.item), reverse=True) \
            if not action.item.startswith("event/") else \
            [state.pack.card(int(action.item.split("/")[1])).bonus]
        cycle = [d for v in values for d in (v, -v)]
        want = action.sign * (action.amount or max(values))
        return [{"tap": piece(action.item)} for _ in range(cycle.index(want) + 1)]
    if isinstance(action, Move):
        reach = ENGINE.destinations(state)
        if len(reach) <= 1:
            return [{"press": "end-turn"}]
        return _cycle_steps(reach, action.to)
    if isinstance(action, Resolve):
        return [{"press": "end-turn"}]
    if isinstance(action, Shortcut):
        hero = state.ask_of(Ask).hero
        help_item = None
        if state.phase == Phase.ADVENTURE:
            at = state.ask_of(StepAsk)
            st = state.pack.adventures[at.adventure].steps[at.step]
            if st.item:
                help_item = Play(state).hero_item(hero, st.item)
            if help_item is None:
                assert st.companion is not None  # the shortcut is legal: the companion lets in
                return [{"tap": f"kttk/event/{state.pack.companions[st.companion]}"}]
        else:
            token = state.pack.token(state.ask_of(CastleAsk).token)
            help_item = Play(state).hero_item(hero, token.item)
        return [{"tap": piece(help_item)}]
    if isinstance(action, Nap):
        steps: list[dict[str, Any]] = [{"hold": "end-turn"}]
        if len(state.exhausted(state.current)) > state.pack.heroes[state.current].nap:
            steps += [{"tap": piece(i)} for i in action.items]
        return steps
    if isinstance(action, Refresh | Exhaust):
        return [{"tap": piece(i)} for i in action.items]
    if isinstance(action, Draw):
        return [{"tap": f"kttk/event/{action.card}"}]
    if isinstance(action, Assign):
        return [{"tap": "kttk/demon-die"}, {"tap": f"kttk/hero/{action.hero}"}]
    if isinstance(action, TakeMagic):
        return [{"tap": f"kttk/magic/{action.item}"}]
    if isinstance(action, Steal):
        return [{"tap": piece(action.item)}]
    if isinstance(action, Sweep):
        return [{"tap": f"kttk/hero/{action.hero}"}]
    if isinstance(action, TakeKey):
        return [{"tap": f"kttk/key/{action.piece}"}]
    if isinstance(action, Courtyard):
        return _cycle_steps(Play(state).free_courtyard(), action.space)
    raise AssertionError(action)


def scenario(heroes: int, seed: int, digital: bool) -> dict[str, Any]:
    players = HEROES[:heroes]
    options = {"digital_events": True} if digital else {}
    state = ENGINE.new_game(players, seed, options, {})
    rng = random.Random(seed)
    steps: list[dict[str, Any]] = []
    pending_castle = False
    while not state.over:
        action = purposeful_action(state, rng)
        before = state
        state, resolved, _ = apply_action(state, action)
        if isinstance(action, Castle):
            pending_castle = True  # the roll button enters the castle and rolls at once
            continue
        if pending_castle:
            assert isinstance(action, Roll | Shortcut)
            pending_castle = False
        out = gesture(before, action, resolved)
        out[-1] = dict(out[-1], expect={"accepted": True})
        steps += out
    steps[-1]["expect"] = {"accepted": True, "winner": state.winner, "lights": "win",
                           "state": {"over": True, "phase": "over"}}
    keys = {h: sorted(state.key_colours(h)) for h in players}
    return {
        "description": (
            f"A complete {heroes}-hero game on the stand-in pack, generated from seeded "
            f"self-play (tools/scenarios.py key-to-the-kingdom, seed {seed}), every act made as "
            "a table "
            f"gesture: {'digital' if digital else 'tapped'} event cards, dice entered with "
            f"`roll:` and the roll button, landing spaces cycled with end-turn. "
            f"{state.winner} wins; key pieces at the end: {keys}."),
        "game": "key-to-the-kingdom",
        "players": players,
        "seed": seed,
        "options": options,
        "steps": steps,
    }


def render(data: dict[str, Any]) -> str:
    head = "# GENERATED by tools/scenarios.py key-to-the-kingdom: do not edit by hand.\n"
    return head + yaml.safe_dump(data, sort_keys=False, width=100, default_flow_style=None)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    OUT.mkdir(parents=True, exist_ok=True)
    stale = []
    for name, (heroes, seed, digital) in GAMES.items():
        text = render(scenario(heroes, seed, digital))
        path = OUT / name
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print("stale generated scenarios (run tools/scenarios.py key-to-the-kingdom): "
              + ", ".join(stale),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
