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
    # TRANSLATORS: the colours of a player's light, said at set-up ("Ana is red.")
    "red": lambda: msg_p("light colour", "red"),
    # TRANSLATORS: the colours of a player's light, said at set-up ("Ana is red.")
    "green": lambda: msg_p("light colour", "green"),
    # TRANSLATORS: the colours of a player's light, said at set-up ("Ana is red.")
    "blue": lambda: msg_p("light colour", "blue"),
    # TRANSLATORS: the colours of a player's light, said at set-up ("Ana is red.")
    "yellow": lambda: msg_p("light colour", "yellow"),
    # TRANSLATORS: the colours of a player's light, said at set-up ("Ana is red.")
    "purple": lambda: msg_p("light colour", "purple"),
    # TRANSLATORS: the colours of a player's light, said at set-up ("Ana is red.")
    "cyan": lambda: msg_p("light colour", "cyan"),
    # TRANSLATORS: the colours of a player's light, said at set-up ("Ana is red.")
    "amber": lambda: msg_p("light colour", "amber"),
    # TRANSLATORS: the colours of a player's light, said at set-up ("Ana is red.")
    "orange": lambda: msg_p("light colour", "orange"),
    # TRANSLATORS: the colours of a player's light, said at set-up ("Ana is red.")
    "pink": lambda: msg_p("light colour", "pink"),
    # TRANSLATORS: the colours of a player's light, said at set-up ("Ana is red.")
    "brown": lambda: msg_p("light colour", "brown"),
    # TRANSLATORS: the colours of a player's light, said at set-up ("Ana is red.")
    "grey": lambda: msg_p("light colour", "grey"),
    # TRANSLATORS: the colours of a player's light, said at set-up ("Ana is red.")
    "gold": lambda: msg_p("light colour", "gold"),
    # TRANSLATORS: the colours of a player's light, said at set-up ("Ana is red.")
    "black": lambda: msg_p("light colour", "black"),
}
