"""The named light patterns every lights adapter renders, and the colours they use.

The session speaks only in these names; a GPIO RGB LED, a NeoPixel ring on the Pico and the
simulator each render them their own way, so a new wiring never touches the session.
"""

from __future__ import annotations

from collections.abc import Callable

from tabletap.controller.language.messages import msg_p
from tabletap.controller.language.said import Said, plain

# pattern -> (animation, default colour). Animations: solid, blink, pulse, chase, rainbow, off.
PATTERNS: dict[str, tuple[str, str]] = {
    "off": ("off", "black"),
    "idle": ("pulse", "white"),
    "turn": ("solid", "white"),  # drawn in the current player's colour
    "accepted": ("solid", "green"),
    "rejected": ("blink", "red"),
    "fake": ("blink", "purple"),
    "pending": ("chase", "cyan"),  # a gesture waits for its next tap: the light runs on
    "win": ("rainbow", "white"),
    "reader-missing": ("blink", "amber"),
    "safe": ("solid", "amber"),  # the Pico's own safe state when the host fell silent
    "pairing": ("pulse", "blue"),  # a phone asks to pair: tap the parent card within 30 s
}

COLOURS: dict[str, tuple[int, int, int]] = {
    "black": (0, 0, 0),
    "white": (255, 255, 255),
    "red": (255, 0, 0),
    "green": (0, 200, 0),
    "blue": (0, 0, 255),
    "yellow": (255, 200, 0),
    "purple": (160, 0, 255),
    "cyan": (0, 200, 200),
    "amber": (255, 120, 0),
    "orange": (255, 80, 0),
    "pink": (255, 80, 160),
    "brown": (120, 60, 20),
    "grey": (100, 100, 100),
    "gold": (255, 180, 0),
}

# Seat colours when a player's name is not itself a colour (seats named by colour, such as
# players' decks, keep theirs).
SEAT_COLOURS = ["red", "blue", "green", "yellow", "purple", "cyan", "orange", "pink", "white",
                "brown"]


def player_colour(player: str, seat: int) -> str:
    return player if player in COLOURS else SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def rgb(colour: str | None) -> tuple[int, int, int]:
    return COLOURS.get(colour or "white", COLOURS["white"])


def colour_said(colour: str) -> Said:
    """A light's colour as a sentence's part ("Ana is red."), in the family's language; a colour
    this table does not name is said as it was written."""
    made = _COLOUR_WORDS.get(colour)
    return made() if made is not None else plain(colour)


# TRANSLATORS: the colours of a player's light, said at set-up ("Ana is red.")
_COLOUR_WORDS: dict[str, Callable[[], Said]] = {
    "white": lambda: msg_p("light colour", "white"),
    "red": lambda: msg_p("light colour", "red"),
    "green": lambda: msg_p("light colour", "green"),
    "blue": lambda: msg_p("light colour", "blue"),
    "yellow": lambda: msg_p("light colour", "yellow"),
    "purple": lambda: msg_p("light colour", "purple"),
    "cyan": lambda: msg_p("light colour", "cyan"),
    "amber": lambda: msg_p("light colour", "amber"),
    "orange": lambda: msg_p("light colour", "orange"),
    "pink": lambda: msg_p("light colour", "pink"),
    "brown": lambda: msg_p("light colour", "brown"),
    "grey": lambda: msg_p("light colour", "grey"),
    "gold": lambda: msg_p("light colour", "gold"),
    "black": lambda: msg_p("light colour", "black"),
}
