"""Magic Keys' messages (catalog domain `magic-keys`, docs/LANGUAGES.md): the message functions
every module of the game builds its sentences with, the spec's own sentences, and the names of
the keys and of the spaces the pawn moves to.

Very young children play this game, so a key is said as they see it, by its colour and its
place in that colour's row ("the second purple key"), never by its id; each key's name is a
message of its own, so that each language agrees its words (gender, case, Korean counters)
inside the name instead of in code.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.language.said import Domain, ListOf, Said

msg, msg_n, msg_p, msg_np = Domain("magic-keys").functions()

# TRANSLATORS: the game's name, as on its box (Happy Baobab's "Magic Keys")
TITLE = msg("Magic Keys")
# TRANSLATORS: set-up page and `games` list: the sentence beside the dice option
DICE_HELP = msg("The dice: real ones, or the table's lights roll them.")
# TRANSLATORS: set-up page: the choice of playing with the real dice of the box
DICE_REAL = msg("real dice")
# TRANSLATORS: set-up page: the choice of letting the table roll the dice with its lights
DICE_TABLE = msg("the table rolls")
# TRANSLATORS: said at set-up: how players join this game
SEATING = msg("press the roll button once for each player, or tap your player token")

# How a child names each key: its colour, and which one of that colour it is (1 to 5).
KEYS: dict[str, Said] = {
    # TRANSLATORS: a key's name, said inside sentences; the subject form where a language has cases
    "purple/1": msg_p("key", "the first purple key"),
    # TRANSLATORS: a key's name, said inside sentences
    "purple/2": msg_p("key", "the second purple key"),
    # TRANSLATORS: a key's name, said inside sentences
    "purple/3": msg_p("key", "the third purple key"),
    # TRANSLATORS: a key's name, said inside sentences
    "purple/4": msg_p("key", "the fourth purple key"),
    # TRANSLATORS: a key's name, said inside sentences
    "purple/5": msg_p("key", "the fifth purple key"),
    # TRANSLATORS: a key's name, said inside sentences
    "blue/1": msg_p("key", "the first blue key"),
    # TRANSLATORS: a key's name, said inside sentences
    "blue/2": msg_p("key", "the second blue key"),
    # TRANSLATORS: a key's name, said inside sentences
    "blue/3": msg_p("key", "the third blue key"),
    # TRANSLATORS: a key's name, said inside sentences
    "blue/4": msg_p("key", "the fourth blue key"),
    # TRANSLATORS: a key's name, said inside sentences
    "blue/5": msg_p("key", "the fifth blue key"),
    # TRANSLATORS: a key's name, said inside sentences
    "green/1": msg_p("key", "the first green key"),
    # TRANSLATORS: a key's name, said inside sentences
    "green/2": msg_p("key", "the second green key"),
    # TRANSLATORS: a key's name, said inside sentences
    "green/3": msg_p("key", "the third green key"),
    # TRANSLATORS: a key's name, said inside sentences
    "green/4": msg_p("key", "the fourth green key"),
    # TRANSLATORS: a key's name, said inside sentences
    "green/5": msg_p("key", "the fifth green key"),
    # TRANSLATORS: a key's name, said inside sentences
    "yellow/1": msg_p("key", "the first yellow key"),
    # TRANSLATORS: a key's name, said inside sentences
    "yellow/2": msg_p("key", "the second yellow key"),
    # TRANSLATORS: a key's name, said inside sentences
    "yellow/3": msg_p("key", "the third yellow key"),
    # TRANSLATORS: a key's name, said inside sentences
    "yellow/4": msg_p("key", "the fourth yellow key"),
    # TRANSLATORS: a key's name, said inside sentences
    "yellow/5": msg_p("key", "the fifth yellow key"),
    # TRANSLATORS: the golden key's name, said inside sentences
    "gold": msg_p("key", "the golden key"),
}

# Where a move takes the pawn, with its "to": a key's space is named by its key.
TO: dict[str, Said] = {
    # TRANSLATORS: where the pawn goes: "ana moves the pawn 2 spaces <to the start>"
    "start": msg_p("to the space", "to the start"),
    # TRANSLATORS: where the pawn goes: the red space with the characters, where dice come back
    "recovery": msg_p("to the space", "to the recovery space"),
    # TRANSLATORS: where the pawn goes: the last space, the golden key's, before the castle
    "gold": msg_p("to the space", "to the golden key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "purple/1": msg_p("to the space", "to the first purple key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "purple/2": msg_p("to the space", "to the second purple key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "purple/3": msg_p("to the space", "to the third purple key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "purple/4": msg_p("to the space", "to the fourth purple key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "purple/5": msg_p("to the space", "to the fifth purple key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "blue/1": msg_p("to the space", "to the first blue key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "blue/2": msg_p("to the space", "to the second blue key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "blue/3": msg_p("to the space", "to the third blue key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "blue/4": msg_p("to the space", "to the fourth blue key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "blue/5": msg_p("to the space", "to the fifth blue key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "green/1": msg_p("to the space", "to the first green key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "green/2": msg_p("to the space", "to the second green key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "green/3": msg_p("to the space", "to the third green key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "green/4": msg_p("to the space", "to the fourth green key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "green/5": msg_p("to the space", "to the fifth green key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "yellow/1": msg_p("to the space", "to the first yellow key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "yellow/2": msg_p("to the space", "to the second yellow key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "yellow/3": msg_p("to the space", "to the third yellow key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "yellow/4": msg_p("to the space", "to the fourth yellow key"),
    # TRANSLATORS: where the pawn goes: the space of that key
    "yellow/5": msg_p("to the space", "to the fifth yellow key"),
}

# A colour as a noun ("yellow has 3"), for a maker's set-up sentences.
COLOURS_SAID: dict[str, Said] = {
    # TRANSLATORS: a colour of keys, as a noun: "yellow has 3"
    "purple": msg_p("colour", "purple"),
    # TRANSLATORS: a colour of keys, as a noun: "yellow has 3"
    "blue": msg_p("colour", "blue"),
    # TRANSLATORS: a colour of keys, as a noun: "yellow has 3"
    "green": msg_p("colour", "green"),
    # TRANSLATORS: a colour of keys, as a noun: "yellow has 3"
    "yellow": msg_p("colour", "yellow"),
}

# TRANSLATORS: a die's face that is not a number, said in a roll: "ana rolls 3, moon and 1"
MOON = msg_p("die face", "moon")


def key(name: str) -> Said:
    """A key (`blue/3`, `gold`) as a child names it."""
    return KEYS[name]


def to_space(space: str) -> Said:
    """Where the pawn goes, with its "to" (a space of the track: a key's, start, recovery)."""
    return TO[space]


def faces(dice: tuple[Any, ...]) -> ListOf:
    """The faces of a roll, in the order rolled; a moon in words."""
    return ListOf(tuple(MOON if f == "moon" else f for f in dice))


def either(numbers: Any) -> ListOf:
    """Numbers to choose from: "2 or 4"."""
    return ListOf(tuple(numbers), style="or")


def both(numbers: Any) -> ListOf:
    """Numbers said together: "3 and 1"."""
    return ListOf(tuple(numbers))
