"""What each action does to the game: the rulebook's turn, one function per action.

Each handler checks everything first and raises a Rejection before building anything, then
returns a new state and the events the table answers to. Physical dice: the engine cannot see the
dice or the pawn, so it checks only what it can (keys, the pond, turn order, the end). Digital
dice: it also walks the pawn and keeps the dice.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.rules.base import Event, Outcome, Rejection, chance
from tabletap.controller.rules.magic_keys.actions import EndTurn, Face, Move, Pond, Roll, TryKey
from tabletap.controller.rules.magic_keys.state import (
    DICE_COUNT,
    FOREST,
    HELD,
    POND,
    TOWER,
    MagicKeysState,
)
from tabletap.controller.rules.magic_keys.track import GOLD, RECOVERY, START, Track

MOON = "moon"
FACES: tuple[Face, ...] = (1, 2, 3, 4, MOON, MOON)  # "1, 2, 3, 4, moon, moon"

Result = Outcome[MagicKeysState, Any]


def check_not_over(state: MagicKeysState) -> None:
    if state.winner is not None:
        raise Rejection(
            "game-over",
            f"The game is over: {state.winner} won. Start a new game to play again.",
        )


def where_is(state: MagicKeysState, key: str) -> str:
    """Where a spent key is, in words, for rejection sentences."""
    place = state.places[key]
    if place == TOWER:
        return "hangs on the tower (a true key is never used twice)"
    if place == POND:
        return "is a fake key, already in the magic pond"
    return f"is a fake key, already lying in front of {place[len(HELD):]}"


def key_name(key: str) -> str:
    """`blue/3` -> `the blue key 3`: how a parent says it at the table."""
    if key == GOLD:
        return "the golden key"
    colour, _, number = key.partition("/")
    return f"the {colour} key {number}"


def check_key_name(track: Track, key: str) -> None:
    if key != GOLD and key not in track.keys:
        raise Rejection(
            "unknown-key",
            f"There is no key called {key!r}: keys are purple/1 to yellow/5, and gold.",
        )


def _space_name(space: str) -> str:
    return {START: "the start", RECOVERY: "the recovery space", GOLD: "the golden key's space"}.get(
        space, f"the {space} space"
    )


def _next_turn(
    state: MagicKeysState, events: list[Event], to_start: bool, why: str
) -> MagicKeysState:
    """Pass the turn to the player on the left (the next seat); fresh dice for them."""
    return state.model_copy(update=_next_turn_update(state, events, to_start, why))


def _next_turn_update(
    state: MagicKeysState, events: list[Event], to_start: bool, why: str
) -> dict[str, Any]:
    """_next_turn's changes, for a caller that folds them into its own single copy."""
    nxt = (state.current + 1) % len(state.players)
    pawn = state.pawn
    if to_start and pawn is not None:
        pawn = 0
    name = state.players[nxt]
    events.append(Event("turn", f"{why} It is {name}'s turn.", {"player": name}))
    return {
        "current": nxt,
        "pawn": pawn,
        "dice": DICE_COUNT,
        "showing": (),
        "rolled": False,
        "moved": False,
    }


def _check_digital_try(track: Track, state: MagicKeysState, key: str) -> None:
    """Digital dice: a key is pulled from the pawn's own space, after the dice are settled and
    the pawn has moved this turn (step 1: "After moving the game pawn, you can choose one of
    the following: ... Pull out a key"): a roll alone, even one whose moons the pond took
    back, is not a move."""
    if state.showing:
        raise Rejection(
            "choose-die-first",
            f"First choose a die to move by ({_list(state.showing)}), then pull a key.",
        )
    if state.dice == 0:
        raise Rejection(
            "no-dice-left",
            "All the dice show moon, so this turn ends without a key: throw a fake key into "
            "the pond to bring the dice back, or press end turn.",
        )
    if not state.moved:
        raise Rejection(
            "must-roll-first", "Roll the dice and move the pawn before pulling a key."
        )
    assert state.pawn is not None
    space = track.spaces[state.pawn]
    if space in (START, RECOVERY):
        raise Rejection(
            "not-on-key-space", f"The pawn is on {_space_name(space)}, where there is no key."
        )
    if space != key:
        raise Rejection(
            "not-on-key-space",
            f"The pawn is on {_space_name(space)}, so only that key can be pulled, not {key}.",
        )
    if key != GOLD and state.places[key] != FOREST:
        raise Rejection(
            "space-has-no-key",
            f"The {key} space is empty: that key {where_is(state, key)}. "
            "Roll on to a space that still holds a key.",
        )


def _open_chest(
    track: Track, state: MagicKeysState, key: str, events: list[Event]
) -> dict[str, Any]:
    """A true key: gems by colour (what is left if the chest runs short), the key to the tower
    (the golden key back to its place), and the win the moment the gems are enough. Returns
    the state's changes (try_key folds the next turn's into the same copy)."""
    player = state.player
    won = min(track.gems_for(key), state.chest)
    total = state.gems[player] + won
    places = dict(state.places)
    if key == GOLD:
        where = "The golden key goes back to its place."
    else:
        places[key] = TOWER
        where = f"{key_name(key).capitalize()} hangs on the tower."
    events.append(
        Event(
            "chest-open",
            f"{player} tries {key_name(key)} in the chest: click, a true key! {where}",
            {"player": player, "key": key, "gems": won},
        )
    )
    short = "" if won == track.gems_for(key) else " (all that was left in the chest)"
    events.append(
        Event(
            "gems",
            f"{player} takes {won} gem{'s' if won != 1 else ''}{short} and now has {total}.",
            {"player": player, "gems": won, "total": total, "chest": state.chest - won},
        )
    )
    update: dict[str, Any] = {
        "places": places,
        "gems": {**state.gems, player: total},
        "chest": state.chest - won,
    }
    needed = track.gems_required[len(state.players)]
    if total >= needed:
        events.append(
            Event(
                "win",
                f"{player} has {total} gems, {needed} are needed: {player} wins!",
                {"winners": [player]},
            )
        )
        update.update(winner=player, showing=(), rolled=False, moved=False)
        if state.pawn is not None:
            update["pawn"] = 0
    return update


def _keep_fake(state: MagicKeysState, key: str, events: list[Event]) -> dict[str, Any]:
    player = state.player
    events.append(
        Event(
            "fake",
            f"{player} tries {key_name(key)} in the chest: it stays shut, a fake key! "
            f"{player} keeps it in front of them.",
            {"player": player, "key": key},
        )
    )
    return {"places": {**state.places, key: HELD + player}}


def try_key(track: Track, state: MagicKeysState, action: TryKey) -> Result:
    """Step 2, "Pull out a key and open the treasure chest", then step 3, "End the turn"."""
    check_not_over(state)
    key = action.key
    check_key_name(track, key)
    if state.dice_mode == "digital":
        _check_digital_try(track, state, key)
    elif key != GOLD and state.places[key] != FOREST:
        code = "key-already-used" if state.places[key] == TOWER else "fake-key-already-revealed"
        raise Rejection(
            code, f"{key_name(key).capitalize()} {where_is(state, key)}; pull a key still in the "
            "forest."
        )
    player = state.player
    events: list[Event] = []
    # the key's changes and the next turn's go into one copy of the state
    if key == GOLD or key not in state.fake_keys:
        update = _open_chest(track, state, key, events)
        if update.get("winner") is not None:
            return Outcome(state.model_copy(update=update), action, tuple(events))
    else:
        update = _keep_fake(state, key, events)
    back = " The pawn goes back to the start." if state.pawn is not None else ""
    update.update(_next_turn_update(state, events, True, f"{player}'s turn is over.{back}"))
    return Outcome(state.model_copy(update=update), action, tuple(events))


def pond(track: Track, state: MagicKeysState, action: Pond) -> Result:
    """"Magic Pond and Fake Key": at any time of your turn, one fake key you have, dice back."""
    check_not_over(state)
    key = action.key
    check_key_name(track, key)
    player = state.player
    if key == GOLD:
        raise Rejection(
            "pond-needs-fake-key", "The golden key is always true: only fake keys go in the pond."
        )
    place = state.places[key]
    if place == FOREST:
        raise Rejection(
            "pond-needs-fake-key",
            f"{key} has not been tried at the chest yet: only a fake key you have found "
            "can go into the pond.",
        )
    if place == TOWER:
        raise Rejection(
            "pond-needs-fake-key",
            f"{key} is a true key hanging on the tower: only fake keys go in the pond.",
        )
    if place == POND:
        raise Rejection("fake-key-already-in-pond", f"{key} is already in the magic pond.")
    owner = place[len(HELD):]
    if owner != player:
        raise Rejection(
            "not-your-fake-key",
            f"{key} lies in front of {owner}; it is {player}'s turn, and only the player whose "
            "turn it is can throw their own fake key into the pond.",
        )
    places = dict(state.places)
    places[key] = POND
    update: dict[str, Any] = {"places": places}
    text = f"{player} throws the fake key ({key_name(key)}) into the magic pond"
    if state.dice_mode == "digital":
        update["dice"] = DICE_COUNT
        text += " and brings back all the dice."
    else:
        text += " and brings back all the dice set aside."
    new = state.model_copy(update=update)
    return Outcome(new, action, (Event("pond", text, {"player": player, "key": key}),))


def end_turn(track: Track, state: MagicKeysState, action: EndTurn) -> Result:
    """Step 3, case 2: "If all dice show moon: Finish your turn immediately" (pawn stays)."""
    check_not_over(state)
    if state.dice_mode == "digital" and state.dice > 0:
        raise Rejection(
            "dice-left",
            f"{state.player} still has {state.dice} di{'c' if state.dice > 1 else ''}e to "
            "play: roll them, or pull the key where the pawn stands.",
        )
    events: list[Event] = []
    state = _next_turn(
        state, events, False, f"{state.player}'s turn ends in moons; the pawn stays where it is."
    )
    return Outcome(state, action, tuple(events))


def _list(numbers: tuple[int, ...]) -> str:
    return ", ".join(str(n) for n in numbers)


def _check_faces(state: MagicKeysState, dice: tuple[Face, ...]) -> None:
    if len(dice) != state.dice or any(
        isinstance(f, bool) or not isinstance(f, int | str) or f not in FACES for f in dice
    ):
        raise Rejection(
            "bad-roll",
            f"A roll now has exactly {state.dice} di{'c' if state.dice != 1 else ''}e, each "
            f"showing 1, 2, 3, 4 or moon; {list(dice)} does not fit.",
        )


def _physical(state: MagicKeysState) -> None:
    if state.dice_mode == "physical":
        raise Rejection(
            "physical-dice",
            "This game uses real dice: roll them at the table and move the pawn by hand.",
        )


def roll(track: Track, state: MagicKeysState, action: Roll) -> Result:
    """Step 1, "Roll the dice and move forward": moons are set aside; Teleport on a first roll."""
    check_not_over(state)
    _physical(state)
    if state.dice == 0:
        raise Rejection(
            "no-dice-left",
            "Every die has been set aside with a moon: throw a fake key into the pond to bring "
            "them back, or press end turn.",
        )
    if state.showing:
        raise Rejection(
            "choose-die-first",
            f"First move the pawn by one of the dice showing ({_list(state.showing)}).",
        )
    if action.dice is None:
        rng = chance(state.seed, state.rolls, "roll")
        faces = tuple(rng.choice(FACES) for _ in range(state.dice))
    else:
        faces = tuple(action.dice)  # a scenario may hand over a list
        _check_faces(state, faces)
    player = state.player
    moons = sum(1 for f in faces if f == MOON)
    numbers = tuple(int(f) for f in faces if f != MOON)
    first_at_start = not state.rolled and state.pawn == 0
    shown = ", ".join(str(f) for f in faces)
    events: list[Event] = []
    update: dict[str, Any] = {"rolls": state.rolls + 1, "rolled": True}
    if first_at_start and moons == DICE_COUNT:
        events.append(
            Event("roll", f"{player} rolls {shown}.", {"player": player, "dice": list(faces)})
        )
        events.append(
            Event(
                "teleport",
                f"All three moons on the first roll at the start: teleport! The pawn jumps to "
                f"the recovery space and {player} gets all the dice back.",
                {"player": player, "to": track.recovery_position},
            )
        )
        update.update(pawn=track.recovery_position, dice=DICE_COUNT, showing=(), moved=True)
        return Outcome(state.model_copy(update=update), Roll(faces), tuple(events))
    left = state.dice - moons
    update.update(dice=left, showing=numbers)
    if numbers:
        tail = f" Move by {' or '.join(str(n) for n in sorted(set(numbers)))}."
    else:
        tail = " All moons!"
    if moons and numbers:
        tail = f" {moons} moon{'s' if moons > 1 else ''} set aside." + tail
    events.append(
        Event(
            "roll",
            f"{player} rolls {shown}.{tail}",
            {"player": player, "dice": list(faces), "set_aside": moons, "dice_left": left},
        )
    )
    new = state.model_copy(update=update)
    if left == 0:
        if new.held_by(player):
            events[-1] = Event(
                "roll",
                events[-1].text + f" {player} may throw a fake key into the pond to bring the "
                "dice back, or press end turn.",
                events[-1].data,
            )
        else:
            new = _next_turn(
                new, events, False, f"{player}'s turn ends in moons; the pawn stays where it is."
            )
    return Outcome(new, Roll(faces), tuple(events))


def move(track: Track, state: MagicKeysState, action: Move) -> Result:
    """Step 1: "choose one of the remaining dice and advance the game pawn"; Recovery on a stop."""
    check_not_over(state)
    _physical(state)
    if not state.showing:
        if state.dice == 0:
            raise Rejection(
                "no-dice-left",
                "Every die shows moon: there is nothing to move by. Throw a fake key into the "
                "pond or press end turn.",
            )
        raise Rejection(
            "must-roll-first", "Roll the dice first, then move by one of the numbers."
        )
    if action.steps not in state.showing:
        raise Rejection(
            "no-such-die",
            f"No die shows {action.steps}: choose one of {_list(state.showing)}.",
        )
    assert state.pawn is not None
    player = state.player
    start = state.pawn
    to = min(start + action.steps, track.gold_position)
    space = track.spaces[to]
    text = (
        f"{player} moves the pawn {action.steps} space{'s' if action.steps > 1 else ''} "
        f"to {_space_name(space)}."
    )
    if to < start + action.steps:
        text = (
            f"{player} moves by {action.steps}: the pawn reaches the golden key's space and "
            "stops there "
            f"({to - start} space{'s' if to - start != 1 else ''})."
        )
    events = [
        Event(
            "move",
            text,
            {"player": player, "steps": action.steps, "from": start, "to": to, "space": space},
        )
    ]
    update: dict[str, Any] = {"pawn": to, "showing": (), "moved": True}
    if to == track.recovery_position:
        update["dice"] = DICE_COUNT
        events.append(
            Event(
                "recovery",
                f"The pawn stops on the recovery space: {player} gets all the dice back.",
                {"player": player},
            )
        )
    return Outcome(state.model_copy(update=update), action, tuple(events))
