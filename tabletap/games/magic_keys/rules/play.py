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

from tabletap.controller.language.said import Said
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
from tabletap.games.magic_keys.words import either, msg, msg_n, to_space
from tabletap.games.magic_keys.words import faces as dice_faces
from tabletap.games.magic_keys.words import key as key_said

MOON = "moon"
FACES: tuple[Face, ...] = (1, 2, 3, 4, MOON, MOON)  # "1, 2, 3, 4, moon, moon"

Result = Outcome[MagicKeysState, Any]


def check_not_over(state: MagicKeysState) -> None:
    if state.winner is not None:
        raise Rejection(
            "game-over",
            # TRANSLATORS: refusal after the end; player is the winner's name
            msg("The game is over: %(player)s won. Start a new game to play again.",
                player=state.winner),
        )


def where_is(state: MagicKeysState, key: str, digital: bool = False) -> Said:
    """Why a spent key cannot be pulled, in words, for rejection sentences: where it is now."""
    place = state.places[key]
    name = key_said(key)
    if digital:
        if place == TOWER:
            # TRANSLATORS: refusal (table's dice): the pawn's space is empty; key is its name
            return msg("The pawn's space is empty: %(key)s already hangs on the tower. Roll on "
                       "to a space that still holds a key.", key=name)
        if place == POND:
            # TRANSLATORS: refusal (table's dice): the pawn's space is empty; key is its name
            return msg("The pawn's space is empty: %(key)s is a fake key, already in the magic "
                       "pond. Roll on to a space that still holds a key.", key=name)
        # TRANSLATORS: refusal (table's dice): key is its name; player holds that fake key
        return msg("The pawn's space is empty: %(key)s is a fake key, already in front of "
                   "%(player)s. Roll on to a space that still holds a key.", key=name,
                   player=place[len(HELD):])
    if place == TOWER:
        # TRANSLATORS: refusal: a true key already used; key is its name
        return msg("A true key is used only once, and %(key)s already hangs on the tower. "
                   "Pull a key still in the forest.", key=name)
    if place == POND:
        # TRANSLATORS: refusal: a fake key already thrown away; key is its name
        return msg("That key is fake: %(key)s is already in the magic pond. Pull a key still "
                   "in the forest.", key=name)
    # TRANSLATORS: refusal: a fake key already found; key is its name, player who holds it
    return msg("That key is fake: %(key)s already lies in front of %(player)s. Pull a key "
               "still in the forest.", key=name, player=place[len(HELD):])


def key_name(key: str) -> Said:
    """`blue/3` -> "the third blue key": how a child says it at the table."""
    return key_said(key)


_KNOWN = frozenset(KEYS)
_NAMES = frozenset((*KEYS, GOLD))  # every key a TryKey may name


def check_key_name(track: Track, key: str) -> None:
    # a set for the names a key can have; the track's tuple for anything else (unhashable)
    if key != GOLD and not (key in _KNOWN if key.__class__ is str else key in track.keys):
        raise Rejection(
            "unknown-key",
            # TRANSLATORS: refusal of a key name the game does not know (typed at a console)
            msg("There is no such key: the keys are five of each colour, and the golden key."),
        )


def _check_digital_try(track: Track, state: MagicKeysState, key: str) -> None:
    """Digital dice: a key is pulled from the pawn's own space, after the dice are settled and
    the pawn has moved this turn (step 1: "After moving the game pawn, you can choose one of
    the following: ... Pull out a key"): a roll alone, even one whose moons the pond took
    back, is not a move."""
    if state.showing:
        raise Rejection(
            "choose-die-first",
            # TRANSLATORS: refusal (table's dice); dice are the numbers showing, "3 or 1"
            msg("First choose a die to move by, %(dice)s, then pull a key.",
                dice=either(state.showing)),
        )
    if state.dice == 0:
        raise Rejection(
            "no-dice-left",
            # TRANSLATORS: refusal (table's dice): every die was set aside with a moon
            msg("All the dice show moon, so this turn ends without a key: throw a fake key "
                "into the pond to bring the dice back, or press end turn."),
        )
    if not state.moved:
        raise Rejection(
            # TRANSLATORS: refusal (table's dice): a key tapped before the pawn moved
            "must-roll-first", msg("Roll the dice and move the pawn before pulling a key.")
        )
    assert state.pawn is not None
    space = track.spaces[state.pawn]
    if space in (START, RECOVERY):
        if space == START:
            # TRANSLATORS: refusal (table's dice): a key tapped while the pawn is at the start
            said = msg("The pawn is on the start, where there is no key.")
        else:
            # TRANSLATORS: refusal (table's dice): the pawn is on the recovery space (red box)
            said = msg("The pawn is on the recovery space, where there is no key.")
        raise Rejection("not-on-key-space", said)
    if space != key:
        raise Rejection(
            "not-on-key-space",
            # TRANSLATORS: refusal (table's dice): another key tapped; key is the pawn's key
            msg("Only the key where the pawn stands can be pulled now: %(key)s.",
                key=key_said(space)),
        )
    if key != GOLD and state.places[key] != FOREST:
        raise Rejection("space-has-no-key", where_is(state, key, digital=True))


def _check_faces(state: MagicKeysState, dice: tuple[Face, ...]) -> None:
    if len(dice) != state.dice or any(
        isinstance(f, bool) or not isinstance(f, int | str) or f not in FACES for f in dice
    ):
        raise Rejection(
            "bad-roll",
            # TRANSLATORS: refusal of dice given by hand that do not fit; n is the dice in play
            msg_n("A roll now has exactly %(n)s die, showing 1, 2, 3, 4 or moon.",
                  "A roll now has exactly %(n)s dice, each showing 1, 2, 3, 4 or moon.",
                  state.dice),
        )


def _physical(state: MagicKeysState) -> None:
    if state.dice_mode == "physical":
        raise Rejection(
            "physical-dice",
            # TRANSLATORS: refusal: the table's dice asked for in a game with real dice
            msg("This game uses real dice: roll them at the table and move the pawn by hand."),
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


def _turn_event(said: Said, name: str) -> Event:
    return Event("turn", said, {"player": name})


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
        # TRANSLATORS: the golden key opens the chest; player is a name
        opened = msg("%(player)s tries the golden key in the chest: click, a true key! It goes "
                     "back to its place.", player=player)
    else:
        # TRANSLATORS: a true key opens the chest; player is a name, key the key's name
        opened = msg("%(player)s tries %(key)s in the chest: click, a true key! It hangs on "
                     "the tower now.", player=player, key=key_name(key))
    events = [Event("chest-open", opened, {"player": player, "key": key, "gems": won})]
    if won == track.gems_for(key):
        # TRANSLATORS: gems from the chest; player is a name, total the gems they have now
        gems = msg_n("%(player)s takes %(n)s gem and now has %(total)s.",
                     "%(player)s takes %(n)s gems and now has %(total)s.", won,
                     player=player, total=total)
    else:
        # TRANSLATORS: the chest had fewer gems than the key is worth; total is what they have
        gems = msg_n("%(player)s takes the last %(n)s gem in the chest and now has %(total)s.",
                     "%(player)s takes the last %(n)s gems in the chest and now has %(total)s.",
                     won, player=player, total=total)
    events.append(
        Event("gems", gems,
              {"player": player, "gems": won, "total": total, "chest": state.chest - won})
    )
    if nxt is None:
        needed = track.gems_required[len(state.players)]
        events.append(
            Event(
                "win",
                # TRANSLATORS: the end; player is the winner, total their gems, needed to win
                msg("%(player)s has %(total)s gems, %(needed)s are needed: %(player)s wins!",
                    player=player, total=total, needed=needed),
                {"winners": [player]},
            )
        )
    else:
        events.append(_turn_over(state, nxt))
    return events


def _turn_over(state: MagicKeysState, nxt: str) -> Event:
    if state.pawn is not None:
        # TRANSLATORS: a turn ends (table's dice); player is whose it was, next whose it is now
        said = msg("%(player)s's turn is over. The pawn goes back to the start. It is "
                   "%(next)s's turn.", player=state.player, next=nxt)
    else:
        # TRANSLATORS: a turn ends; player is whose it was, next whose it is now
        said = msg("%(player)s's turn is over. It is %(next)s's turn.", player=state.player,
                   next=nxt)
    return _turn_event(said, nxt)


def _said_fake(state: MagicKeysState, key: str, nxt: str) -> tuple[Event, ...]:
    player = state.player
    return (
        Event(
            "fake",
            # TRANSLATORS: a fake key does not open the chest; player is a name, key its name
            msg("%(player)s tries %(key)s in the chest: it stays shut, a fake key! %(player)s "
                "keeps it in front of them.", player=player, key=key_name(key)),
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
        raise Rejection(code, where_is(state, key))
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
            "pond-needs-fake-key",
            # TRANSLATORS: refusal: the golden key tapped at the pond
            msg("The golden key is always true: only fake keys go in the pond."),
        )
    place = state.places[key]
    if place == FOREST:
        raise Rejection(
            "pond-needs-fake-key",
            # TRANSLATORS: refusal: a key still in the forest tapped at the pond
            msg("That key has not been tried at the chest yet: only a fake key you have found "
                "can go into the pond."),
        )
    if place == TOWER:
        raise Rejection(
            "pond-needs-fake-key",
            # TRANSLATORS: refusal: a true key from the tower tapped at the pond
            msg("That key is a true key from the tower: only fake keys go in the pond."),
        )
    if place == POND:
        # TRANSLATORS: refusal: a key already in the pond tapped at the pond again
        raise Rejection("fake-key-already-in-pond", msg("That key is already in the magic pond."))
    owner = place[len(HELD):]
    if owner != player:
        raise Rejection(
            "not-your-fake-key",
            # TRANSLATORS: refusal at the pond; owner holds that fake key, player's turn it is
            msg("That fake key lies in front of %(owner)s. It is %(player)s's turn, and only "
                "the player whose turn it is can throw their own fake key into the pond.",
                owner=owner, player=player),
        )
    values = list(state)
    values[PLACES] = state.places.moved(key, POND)
    if state.dice_mode == "digital":
        values[DICE] = DICE_COUNT
    return new_outcome((rebuilt(values), action, lambda: _said_pond(state, key)))


def _said_pond(state: MagicKeysState, key: str) -> tuple[Event, ...]:
    player = state.player
    if state.dice_mode == "digital":
        # TRANSLATORS: a fake key goes into the pond (table's dice); player is a name
        text = msg("%(player)s throws the fake key into the magic pond and brings back all the "
                   "dice.", player=player)
    else:
        # TRANSLATORS: a fake key goes into the pond (real dice); player is a name
        text = msg("%(player)s throws the fake key into the magic pond and brings back all the "
                   "dice set aside.", player=player)
    return (Event("pond", text, {"player": player, "key": key}),)


def _moons_end(state: MagicKeysState, nxt: str) -> Event:
    # TRANSLATORS: a turn ends in moons; player is whose it was, next whose it is now
    return _turn_event(msg("%(player)s's turn ends in moons; the pawn stays where it is. It is "
                           "%(next)s's turn.", player=state.player, next=nxt), nxt)


def end_turn(track: Track, state: MagicKeysState, action: EndTurn) -> Result:
    """Step 3, case 2: "If all dice show moon: Finish your turn immediately" (pawn stays)."""
    check_not_over(state)
    if state.dice_mode == "digital" and state.dice > 0:
        raise Rejection(
            "dice-left",
            # TRANSLATORS: refusal of end turn (table's dice); player is a name
            msg_n("%(player)s still has %(n)s die to play: roll it, or pull the key where the "
                  "pawn stands.", "%(player)s still has %(n)s dice to play: roll them, or pull "
                  "the key where the pawn stands.", state.dice, player=state.player),
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
            # TRANSLATORS: refusal of a roll: every die was set aside with a moon
            msg("Every die has been set aside with a moon: throw a fake key into the pond to "
                "bring them back, or press end turn."),
        )
    raise Rejection(
        "choose-die-first",
        # TRANSLATORS: refusal of a roll before moving; dice are the numbers showing, "3 or 1"
        msg("First move the pawn by one of the dice showing: %(dice)s.",
            dice=either(state.showing)),
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


def _rolled(player: str, faces: tuple[Face, ...]) -> Event:
    # TRANSLATORS: a roll of the table's dice; player is a name, dice the faces ("3, moon and 1")
    return Event("roll", msg("%(player)s rolls %(dice)s.", player=player, dice=dice_faces(faces)),
                 {"player": player, "dice": list(faces)})


def _said_teleport(track: Track, state: MagicKeysState, faces: tuple[Face, ...]) -> tuple[
    Event, ...
]:
    player = state.player
    return (
        _rolled(player, faces),
        Event(
            "teleport",
            # TRANSLATORS: three moons on the first roll at the start; player is a name
            msg("All three moons on the first roll at the start: teleport! The pawn jumps to "
                "the recovery space and %(player)s gets all the dice back.", player=player),
            {"player": player, "to": track.recovery_position},
        ),
    )


def _roll_sentence(player: str, faces: tuple[Face, ...], moons: int, numbers: tuple[int, ...],
                   stuck: bool) -> Said:
    """The roll in words: what it shows, the moons set aside, the numbers to move by; with
    every die set aside and a fake key held (`stuck`), what the player may do."""
    shown = dice_faces(faces)
    moves = either(sorted(set(numbers)))
    if not numbers:
        if stuck:
            # TRANSLATORS: all moons, and the player holds a fake key; player is a name
            return msg("%(player)s rolls %(dice)s. All moons! %(player)s may throw a fake key "
                       "into the pond to bring the dice back, or press end turn.",
                       player=player, dice=shown)
        # TRANSLATORS: a roll of moons only; player is a name, dice the faces
        return msg("%(player)s rolls %(dice)s. All moons!", player=player, dice=shown)
    if moons:
        # TRANSLATORS: a roll with moons; dice the faces, moves the numbers to move by ("2 or 4")
        return msg_n("%(player)s rolls %(dice)s. %(n)s moon set aside. Move by %(moves)s.",
                     "%(player)s rolls %(dice)s. %(n)s moons set aside. Move by %(moves)s.",
                     moons, player=player, dice=shown, moves=moves)
    # TRANSLATORS: a roll of numbers; dice the faces, moves the numbers to move by ("2 or 4")
    return msg("%(player)s rolls %(dice)s. Move by %(moves)s.", player=player, dice=shown,
               moves=moves)


def _said_roll(
    state: MagicKeysState, faces: tuple[Face, ...], nxt: str | None
) -> tuple[Event, ...]:
    """The roll; with every die set aside, what the player may do, or the next turn (`nxt`)."""
    player = state.player
    moons, numbers = _count(faces)
    left = state.dice - moons
    text = _roll_sentence(player, faces, moons, numbers, left == 0 and nxt is None)
    data = {"player": player, "dice": list(faces), "set_aside": moons, "dice_left": left}
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
                # TRANSLATORS: refusal of a move: every die was set aside with a moon
                msg("Every die shows moon: there is nothing to move by. Throw a fake key into "
                    "the pond or press end turn."),
            )
        raise Rejection(
            # TRANSLATORS: refusal of a move before the dice are rolled
            "must-roll-first", msg("Roll the dice first, then move by one of the numbers.")
        )
    raise Rejection(
        "no-such-die",
        # TRANSLATORS: refusal of a move; steps asked for, dice the numbers showing ("3 or 1")
        msg("No die shows %(steps)s: choose %(dice)s.", steps=steps,
            dice=either(state.showing)),
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
    if to < start + steps:
        # TRANSLATORS: a move past the end stops at the golden key; steps is the die's number
        text = msg("%(player)s moves by %(steps)s: the pawn reaches the golden key and stops "
                   "there.", player=player, steps=steps)
    else:
        # TRANSLATORS: a move; player is a name, to where the pawn lands ("to the start")
        text = msg_n("%(player)s moves the pawn %(n)s space %(to)s.",
                     "%(player)s moves the pawn %(n)s spaces %(to)s.", steps, player=player,
                     to=to_space(space))
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
                # TRANSLATORS: the pawn stopped on the recovery space; player is a name
                msg("The pawn stops on the recovery space: %(player)s gets all the dice back.",
                    player=player),
                {"player": player},
            )
        )
    return events
