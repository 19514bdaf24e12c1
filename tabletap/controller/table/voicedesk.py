"""The family's controls of the voice (issue 21): louder, quieter, mute and "say that again",
from the page or by tapping a voice card (`voice/louder`, `voice/quieter`, `voice/mute`,
`voice/repeat`) at any reader, as the RFID boxes families already own work.

A voice card, like a parent card, never reaches the game: it is the table's own, so it works
in any game, in a set-up and with no game at all. The level is kept in the state folder
(spoken.volume), and bedtime quiet caps it by the clock on the wall.
"""

from __future__ import annotations

import collections
import datetime
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabletap.controller.spoken import volume
from tabletap.controller.spoken.speaker import Speaker

log = logging.getLogger("tabletap.voice")

CHANGES = ("louder", "quieter", "mute", "unmute", "repeat")
CARDS = ("louder", "quieter", "mute", "repeat")
VOICE_PIECE = re.compile(r"^voice/(louder|quieter|mute|repeat)$")
NOTHING_YET = "Nothing has been said yet."

Wall = Callable[[], datetime.time]


def voice_cards() -> list[str]:
    return [f"voice/{card}" for card in CARDS]


def _wall() -> datetime.time:
    return datetime.datetime.now().time()


class VoiceDesk:
    """The level the family chose, what bedtime makes of it, and the answers to a change."""

    def __init__(self, state_dir: str | Path, config: Any, wall: Wall = _wall) -> None:
        self.state_dir = state_dir
        self.quiet = config.quiet
        self.wall = wall
        self.level = volume.load(state_dir, config.volume)
        self.version = 0  # moves whenever the page's picture of the voice changes
        self.repeated: collections.deque[str] = collections.deque(maxlen=20)  # said again

    def bedtime(self) -> bool:
        q = self.quiet
        return q is not None and volume.in_quiet_hours(q.start, q.end, self.wall())

    def loudness(self) -> int:
        """The amplitude espeak-ng gets now: the chosen level, capped at bedtime."""
        if self.bedtime():
            return min(self.level.volume, self.quiet.volume)
        return self.level.volume

    def apply(self, speaker: Speaker) -> None:
        speaker.set_level(self.loudness(), self.level.muted)

    def view(self) -> dict[str, Any]:
        return {"level": self.level.steps(), "most": volume.HIGHEST // volume.STEP,
                "muted": self.level.muted, "bedtime": self.bedtime()}

    def card(self, piece: str, speaker: Speaker) -> str:
        """A voice card tapped: the mute card turns the voice off, and on again."""
        what = piece.split("/", 1)[1]
        if what == "mute" and self.level.muted:
            what = "unmute"
        return self.change(what, speaker)

    def change(self, what: str, speaker: Speaker) -> str:
        """Apply one change; the sentence the table answers with (said at the new level)."""
        if what == "repeat":
            return self.repeat(speaker)
        before = self.level
        if what == "louder":
            self.level = before.louder()
        elif what == "quieter":
            self.level = before.quieter()
        elif what == "mute":
            speaker.say_only("The voice is off. Tap the mute card again to hear it.")
            self.level = before.mute(True)
        elif what == "unmute":
            self.level = before.mute(False)
        else:
            raise ValueError(f"no voice change called {what!r}")
        self._keep()
        self.apply(speaker)
        said = self.answer(what)
        if what != "mute":
            speaker.say_only(said)
        return said

    def answer(self, what: str) -> str:
        steps, most = self.level.steps(), volume.HIGHEST // volume.STEP
        if what == "mute":
            return "The voice is off."
        capped = " It is bedtime, so the voice stays low." if self.bedtime() and \
            self.level.volume > self.quiet.volume else ""
        if what == "unmute":
            return f"The voice is on again, at {steps} of {most}.{capped}"
        word = "Louder" if what == "louder" else "Quieter"
        edge = " That is the loudest." if steps == most and what == "louder" else \
            " That is the quietest." if self.level.volume == volume.LOWEST and \
            what == "quieter" else ""
        return f"{word}: {steps} of {most}.{edge}{capped}"

    def repeat(self, speaker: Speaker) -> str:
        """The last sentence of the game said again (even when muted, the page shows it)."""
        last = speaker.said[-1] if speaker.said else NOTHING_YET
        speaker.say_only(last)
        self.repeated.append(last)
        return last

    def _keep(self) -> None:
        self.version += 1
        try:
            volume.save(self.state_dir, self.level)
        except OSError as exc:  # the voice still changes; only the restart forgets it
            log.warning("the voice's level could not be kept (%s): a restart forgets it",
                        exc.strerror or exc)
