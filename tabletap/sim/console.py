"""What the simulator's console shows besides the play-by-play (issue 21, defect 12): its
commands on `help`, the lights and the chest as they change (a developer at a screen has no
LEDs to look at), and each sentence once.

The session prints every sentence of the play-by-play and also logs it (for journald on a real
box, where nobody reads stdout); at the console both land on the same screen, so the log's
copy is dropped there, and only there.
"""

from __future__ import annotations

import logging
from typing import Any

from tabletap.controller.language.messages import msg
from tabletap.controller.language.words import Words
from tabletap.controller.table.service import under_systemd

# TRANSLATORS: the simulator console's `help`: the typed commands stay as they are (they are
# what the developer types); translate the explanations, keep the columns lined up
HELP_SAID = msg(
    "Commands:\n"
    "  tap PIECE [READER]      put a piece's tag on a reader and lift it half a second later\n"
    "  place PIECE [READER]    leave it on the reader;  remove PIECE [READER]  lift it\n"
    "  press NAME | hold NAME  a button, short or long (end-turn, roll)\n"
    "  roll FACE...            fix the next digital dice roll\n"
    "  unplug READER | plug READER\n"
    "  pico unplug | pico plug | pico noise FRACTION   the simulated Pico's USB line "
    "(backend: serial)\n"
    "  lights | chest          what the lights show, whether the chest is open\n"
    "  help                    this list\n"
    "PIECE is a piece id, as its tag says (a game's piece, game/<game>, admin/1, voice/repeat);"
    "\nREADER defaults to the config's default reader.")
HELP = Words()(HELP_SAID)  # English; help_text(language) for the table's


def help_text(language: str) -> str:
    """The console's help in the table's language."""
    return Words(language)(HELP_SAID)

# The session's log lines that repeat a printed sentence: an event's text, a refusal's.
ECHOES = {"%s: %s", "rejected %s: %s"}


class EchoFilter(logging.Filter):
    """Drops the session's log copy of a sentence the console already printed."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno < logging.ERROR and record.msg in ECHOES)


def quiet_echoes() -> None:
    """Install the filter on the session's logger (once), at a console only: under systemd the
    log is the journal, where the sentence must reach exactly once, with its priority."""
    if under_systemd():
        return
    logger = logging.getLogger("tabletap.session")
    if not any(isinstance(f, EchoFilter) for f in logger.filters):
        logger.addFilter(EchoFilter())


def lights_line(outputs: Any) -> str:
    lights = getattr(outputs, "lights", None)
    history = getattr(lights, "history", None)
    if not history:
        return "lights: off" if lights is not None else "lights: not shown for this backend"
    _, pattern, colour = history[-1]
    return f"lights: {pattern}" + (f" ({colour})" if colour else "")


def chest_line(outputs: Any) -> str:
    chest = getattr(outputs, "chest", None)
    if chest is None:
        return "chest: not shown for this backend"
    return "chest: open" if chest.is_open else "chest: closed"


class OutputWatch:
    """The lights' and the chest's state, printed on the console whenever it changes."""

    def __init__(self, context: dict[str, Any]) -> None:
        self.context = context
        self._last: tuple[str, str] | None = None

    def changes(self) -> list[str]:
        outputs = self.context.get("outputs")
        if outputs is None:
            return []
        now = (lights_line(outputs), chest_line(outputs))
        if now == self._last:
            return []
        before, self._last = self._last, now
        return [line for i, line in enumerate(now) if before is None or before[i] != line]

    def ask(self, what: str) -> str:
        outputs = self.context.get("outputs")
        if outputs is None:
            return f"{what}: not shown for this backend"
        return lights_line(outputs) if what == "lights" else chest_line(outputs)
