"""What each action does to the game: the rulebook's turn, one function per action.

Each handler checks everything first and raises a Rejection before building anything, then
returns a new state and the events the table answers to. Physical dice: the engine cannot see the
dice or the pawn, so it checks only what it can (keys, the pond, turn order, the end). Digital
dice: it also walks the pawn and keeps the dice.

Self-play and the property tests play hundreds of thousands of moves a second through these
handlers, so they make the next state in one step from the last one's values (`rebuilt`) and
hand over their events as a function (`Outcome` calls it when the events are read): the
sentences are worked out for a family at the table, not for games nobody reads. Each `_said_*`
function below is the narration of one handler, from values the handler has settled.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.rules.base import Event, Outcome, Rejection, chance, new_outcome
from tabletap.games.magic_keys.rules.actions import EndTurn, Face, Move, Pond, Roll, TryKey
from tabletap.games.magic_keys.rules.state import (
    CHEST,
    CURRENT,
    DICE,
    DICE_COUNT,
    FOREST,
    GEMS,
    HELD,
    MOVED,
    PAWN,
    PLACES,
    POND,
    ROLLED,
    ROLLS,
    SHOWING,
    TOWER,
    WINNER,
    MagicKeysState,
    rebuilt,
)
from tabletap.games.magic_keys.rules.track import GOLD, KEYS, RECOVERY, START, Track

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


_KNOWN = frozenset(KEYS)
_NAMES = frozenset((*KEYS, GOLD))  # every key a TryKey may name


def check_key_name(track: Track, key: str) -> None:
    # a set for the names a key can have; the track's tuple for anything else (unhashable)
    if key != GOLD and not (key in _KNOWN if key.__class__ is str else key in track.keys):
        raise Rejection(
            "unknown-key",
            f"There is no key called {key!r}: keys are purple/1 to yellow/5, and gold.",
        )


def _space_name(space: str) -> str:
    return {START: "the start", RECOVERY: "the recovery space", GOLD: "the golden key's space"}.get(
        space, f"the {space} space"
    )


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


# What a roll shows, for every roll of none to three dice (the moons set aside, the numbers to
# move by), looked up rather than counted on every roll.
_COUNTED: dict[tuple[Face, ...], tuple[int, tuple[int, ...]]] = {}
_PLAIN = frozenset((int, str))


def _count(faces: tuple[Face, ...]) -> tuple[int, tuple[int, ...]]:
    return sum(1 for f in faces if f == MOON), tuple(int(f) for f in faces if f != MOON)


def _all_rolls(dice: int) -> list[tuple[Face, ...]]:
    if dice == 0:
        return [()]
    return [(*rest, f) for rest in _all_rolls(dice - 1) for f in FACES[:5]]


for _n in range(DICE_COUNT + 1):
    _COUNTED.update((faces, _count(faces)) for faces in _all_rolls(_n))


def _turn_event(why: str, name: str) -> Event:
    return Event("turn", f"{why} It is {name}'s turn.", {"player": name})


def _pass_turn(values: list[Any], state: MagicKeysState, to_start: bool) -> str:
    """Pass the turn to the player on the left (the next seat); fresh dice for them. Writes
    the changes into `values` (the next state's) and returns the next player's name."""
    nxt = (state.current + 1) % len(state.players)
    if to_start and state.pawn is not None:
        values[PAWN] = 0
    values[CURRENT] = nxt
    values[DICE:MOVED + 1] = _FRESH_DICE
    return state.players[nxt]


# dice, showing, rolled, moved (neighbours in the state) for a new turn
_FRESH_DICE = (DICE_COUNT, (), False, False)
assert (DICE, SHOWING, ROLLED, MOVED) == (DICE, DICE + 1, DICE + 2, DICE + 3)


def _said_true_key(
    track: Track, state: MagicKeysState, key: str, won: int, nxt: str | None
) -> list[Event]:
    """A true key: the chest opens, the gems, then the win (`nxt` None) or the next turn."""
    player = state.player
    total = state.gems[player] + won
    if key == GOLD:
        where = "The golden key goes back to its place."
    else:
        where = f"{key_name(key).capitalize()} hangs on the tower."
    events = [
        Event(
            "chest-open",
            f"{player} tries {key_name(key)} in the chest: click, a true key! {where}",
            {"player": player, "key": key, "gems": won},
        )
    ]
    short = "" if won == track.gems_for(key) else " (all that was left in the chest)"
    events.append(
        Event(
            "gems",
            f"{player} takes {won} gem{'s' if won != 1 else ''}{short} and now has {total}.",
            {"player": player, "gems": won, "total": total, "chest": state.chest - won},
        )
    )
    if nxt is None:
        needed = track.gems_required[len(state.players)]
        events.append(
            Event(
                "win",
                f"{player} has {total} gems, {needed} are needed: {player} wins!",
                {"winners": [player]},
            )
        )
    else:
        events.append(_turn_over(state, nxt))
    return events


def _turn_over(state: MagicKeysState, nxt: str) -> Event:
    back = " The pawn goes back to the start." if state.pawn is not None else ""
    return _turn_event(f"{state.player}'s turn is over.{back}", nxt)


def _said_fake(state: MagicKeysState, key: str, nxt: str) -> tuple[Event, ...]:
    player = state.player
    return (
        Event(
            "fake",
            f"{player} tries {key_name(key)} in the chest: it stays shut, a fake key! "
            f"{player} keeps it in front of them.",
            {"player": player, "key": key},
        ),
        _turn_over(state, nxt),
    )


def try_key(track: Track, state: MagicKeysState, action: TryKey) -> Result:
    """Step 2, "Pull out a key and open the treasure chest", then step 3, "End the turn"."""
    key = action.key
    if state.winner is not None or key.__class__ is not str or key not in _NAMES:
        check_not_over(state)
        check_key_name(track, key)
    if state.dice_mode == "digital":
        assert state.pawn is not None
        if state.showing or not state.dice or not state.moved or (
            track.key_at[state.pawn] != key or (key != GOLD and state.places[key] != FOREST)
        ):
            _check_digital_try(track, state, key)  # says which, in the rulebook's order
    elif key != GOLD and state.places[key] != FOREST:
        code = "key-already-used" if state.places[key] == TOWER else "fake-key-already-revealed"
        raise Rejection(
            code, f"{key_name(key).capitalize()} {where_is(state, key)}; pull a key still in the "
            "forest."
        )
    player = state.players[state.current]
    values = list(state)
    if key != GOLD and key in state.fake_keys:
        # a fake key stays shut; the player keeps it in front of them, and the turn is over
        values[PLACES] = state.places.moved(key, HELD + player)
        nxt = _pass_turn(values, state, True)
        return new_outcome((rebuilt(values), action, lambda: _said_fake(state, key, nxt)))
    # A true key: gems by colour (what is left if the chest runs short), the key to the tower
    # (the golden key back to its place), and the win the moment the gems are enough.
    won = track.gems_of[key]
    if won > state.chest:
        won = state.chest
    total = state.gems[player] + won
    if key != GOLD:
        values[PLACES] = state.places.moved(key, TOWER)
    values[GEMS] = {**state.gems, player: total}
    values[CHEST] = state.chest - won
    if total >= track.gems_required[len(state.players)]:
        values[WINNER] = player
        values[SHOWING], values[ROLLED], values[MOVED] = (), False, False
        if state.pawn is not None:
            values[PAWN] = 0
        return new_outcome(
            (rebuilt(values), action, lambda: _said_true_key(track, state, key, won, None))
        )
    after = _pass_turn(values, state, True)
    return new_outcome(
        (rebuilt(values), action, lambda: _said_true_key(track, state, key, won, after))
    )


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
    values = list(state)
    values[PLACES] = state.places.moved(key, POND)
    if state.dice_mode == "digital":
        values[DICE] = DICE_COUNT
    return new_outcome((rebuilt(values), action, lambda: _said_pond(state, key)))


def _said_pond(state: MagicKeysState, key: str) -> tuple[Event, ...]:
    player = state.player
    text = f"{player} throws the fake key ({key_name(key)}) into the magic pond"
    if state.dice_mode == "digital":
        text += " and brings back all the dice."
    else:
        text += " and brings back all the dice set aside."
    return (Event("pond", text, {"player": player, "key": key}),)


def _moons_end(state: MagicKeysState, nxt: str) -> Event:
    return _turn_event(f"{state.player}'s turn ends in moons; the pawn stays where it is.", nxt)


def end_turn(track: Track, state: MagicKeysState, action: EndTurn) -> Result:
    """Step 3, case 2: "If all dice show moon: Finish your turn immediately" (pawn stays)."""
    check_not_over(state)
    if state.dice_mode == "digital" and state.dice > 0:
        raise Rejection(
            "dice-left",
            f"{state.player} still has {state.dice} di{'c' if state.dice > 1 else ''}e to "
            "play: roll them, or pull the key where the pawn stands.",
        )
    values = list(state)
    nxt = _pass_turn(values, state, False)
    return new_outcome((rebuilt(values), action, lambda: (_moons_end(state, nxt),)))


def _refuse_roll(state: MagicKeysState) -> None:
    """Why no roll is possible now (the first reason, in the rulebook's order)."""
    check_not_over(state)
    _physical(state)
    if state.dice == 0:
        raise Rejection(
            "no-dice-left",
            "Every die has been set aside with a moon: throw a fake key into the pond to bring "
            "them back, or press end turn.",
        )
    raise Rejection(
        "choose-die-first",
        f"First move the pawn by one of the dice showing ({_list(state.showing)}).",
    )


def roll(track: Track, state: MagicKeysState, action: Roll) -> Result:
    """Step 1, "Roll the dice and move forward": moons are set aside; Teleport on a first roll."""
    if state.winner is not None or state.dice_mode == "physical" or not state.dice or (
        state.showing
    ):
        _refuse_roll(state)
    faces = action.dice
    if faces is None:
        rng = chance(state.seed, state.rolls, "roll")
        faces = tuple(rng.choice(FACES) for _ in range(state.dice))
        counted = _COUNTED[faces]
    else:
        if faces.__class__ is not tuple:
            faces = tuple(faces)  # a scenario may hand over a list
        counted = _COUNTED.get(faces) if _PLAIN.issuperset(map(type, faces)) else None
        if counted is None or len(faces) != state.dice:
            _check_faces(state, faces)  # the rule and its sentence, for anything unusual
            counted = _count(faces)
    resolved = action if action.__class__ is Roll and action.dice is faces else Roll(faces)
    moons, numbers = counted
    values = list(state)
    values[ROLLS] = state.rolls + 1
    values[ROLLED] = True
    if moons == DICE_COUNT and not state.rolled and state.pawn == 0:
        # all moons on the first roll at the start: Teleport
        values[PAWN] = track.recovery_position
        values[DICE], values[SHOWING], values[MOVED] = DICE_COUNT, (), True
        return new_outcome(
            (rebuilt(values), resolved, lambda: _said_teleport(track, state, faces))
        )
    left = state.dice - moons
    values[DICE] = left
    values[SHOWING] = numbers
    nxt = None
    if left == 0 and not state.places.held.get(state.player):
        nxt = _pass_turn(values, state, False)  # all moons and no fake key for the pond
    return new_outcome(
        (rebuilt(values), resolved, lambda: _said_roll(state, faces, nxt))
    )


def _shown(faces: tuple[Face, ...]) -> str:
    return ", ".join(str(f) for f in faces)


def _said_teleport(track: Track, state: MagicKeysState, faces: tuple[Face, ...]) -> tuple[
    Event, ...
]:
    player = state.player
    return (
        Event("roll", f"{player} rolls {_shown(faces)}.", {"player": player, "dice": list(faces)}),
        Event(
            "teleport",
            f"All three moons on the first roll at the start: teleport! The pawn jumps to "
            f"the recovery space and {player} gets all the dice back.",
            {"player": player, "to": track.recovery_position},
        ),
    )


def _said_roll(
    state: MagicKeysState, faces: tuple[Face, ...], nxt: str | None
) -> tuple[Event, ...]:
    """The roll; with every die set aside, what the player may do, or the next turn (`nxt`)."""
    player = state.player
    moons, numbers = _count(faces)
    left = state.dice - moons
    if numbers:
        tail = f" Move by {' or '.join(str(n) for n in sorted(set(numbers)))}."
    else:
        tail = " All moons!"
    if moons and numbers:
        tail = f" {moons} moon{'s' if moons > 1 else ''} set aside." + tail
    text = f"{player} rolls {_shown(faces)}.{tail}"
    data = {"player": player, "dice": list(faces), "set_aside": moons, "dice_left": left}
    if left == 0 and nxt is None:
        text += (
            f" {player} may throw a fake key into the pond to bring the dice back, or press end "
            "turn."
        )
    if nxt is None:
        return (Event("roll", text, data),)
    return (Event("roll", text, data), _moons_end(state, nxt))


def _refuse_move(state: MagicKeysState, steps: int) -> None:
    """Why this move is not possible now (the first reason, in the rulebook's order)."""
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
    raise Rejection(
        "no-such-die",
        f"No die shows {steps}: choose one of {_list(state.showing)}.",
    )


def move(track: Track, state: MagicKeysState, action: Move) -> Result:
    """Step 1: "choose one of the remaining dice and advance the game pawn"; Recovery on a stop."""
    steps = action.steps
    if state.winner is not None or state.dice_mode == "physical" or steps not in state.showing:
        _refuse_move(state, steps)
    assert state.pawn is not None
    to = state.pawn + steps
    if to > track.gold_position:
        to = track.gold_position  # the pawn stops on the golden key's space
    values = list(state)
    values[PAWN], values[SHOWING], values[MOVED] = to, (), True
    if to == track.recovery_position:
        values[DICE] = DICE_COUNT
    return new_outcome((rebuilt(values), action, lambda: _said_move(track, state, steps)))


def _said_move(track: Track, state: MagicKeysState, steps: int) -> list[Event]:
    assert state.pawn is not None
    player, start = state.player, state.pawn
    to = min(start + steps, track.gold_position)
    space = track.spaces[to]
    recovery = to == track.recovery_position
    text = (
        f"{player} moves the pawn {steps} space{'s' if steps > 1 else ''} "
        f"to {_space_name(space)}."
    )
    if to < start + steps:
        text = (
            f"{player} moves by {steps}: the pawn reaches the golden key's space and "
            "stops there "
            f"({to - start} space{'s' if to - start != 1 else ''})."
        )
    events = [
        Event(
            "move",
            text,
            {"player": player, "steps": steps, "from": start, "to": to, "space": space},
        )
    ]
    if recovery:
        events.append(
            Event(
                "recovery",
                f"The pawn stops on the recovery space: {player} gets all the dice back.",
                {"player": player},
            )
        )
    return events
