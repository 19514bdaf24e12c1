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

from tabletap.controller.language.messages import msg
from tabletap.controller.language.said import Said
from tabletap.controller.language.words import Words
from tabletap.controller.spoken import volume
from tabletap.controller.spoken.speaker import Speaker

log = logging.getLogger("tabletap.voice")

CHANGES = ("louder", "quieter", "mute", "unmute", "repeat")
CARDS = ("louder", "quieter", "mute", "repeat")
VOICE_PIECE = re.compile(r"^voice/(louder|quieter|mute|repeat)$")
# TRANSLATORS: the "say that again" card tapped before the table said anything
NOTHING_YET = msg("Nothing has been said yet.")

Wall = Callable[[], datetime.time]


def voice_cards() -> list[str]:
    return [f"voice/{card}" for card in CARDS]


def _wall() -> datetime.time:
    return datetime.datetime.now().time()


class VoiceDesk:
    """The level the family chose, what bedtime makes of it, and the answers to a change."""

    def __init__(self, state_dir: str | Path, config: Any, wall: Wall = _wall,
                 words: Words | None = None) -> None:
        self.state_dir = state_dir
        self.words = words or Words()  # the table's language: the answers are said in it
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
            # TRANSLATORS: said (the last thing before silence) when the mute card is tapped
            speaker.say_only(self.words(msg("The voice is off. Tap the mute card again to "
                                            "hear it.")))
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
        """The answer to a change, in the table's language: whole sentences, one after the
        other."""
        return " ".join(self.words(s) for s in self._answer(what))

    def _answer(self, what: str) -> list[Said]:
        steps, most = self.level.steps(), volume.HIGHEST // volume.STEP
        if what == "mute":
            # TRANSLATORS: shown on the phone page when the voice was turned off
            return [msg("The voice is off.")]
        out = []
        if what == "unmute":
            # TRANSLATORS: the voice turned on again; steps is its level, most the highest
            out.append(msg("The voice is on again, at %(steps)s of %(most)s.", steps=steps,
                           most=most))
        elif what == "louder":
            # TRANSLATORS: the voice made louder; steps is its level, most the highest
            out.append(msg("Louder: %(steps)s of %(most)s.", steps=steps, most=most))
            if steps == most:
                # TRANSLATORS: after "Louder": the voice is at its highest level
                out.append(msg("That is the loudest."))
        else:
            # TRANSLATORS: the voice made quieter; steps is its level, most the highest
            out.append(msg("Quieter: %(steps)s of %(most)s.", steps=steps, most=most))
            if self.level.volume == volume.LOWEST:
                # TRANSLATORS: after "Quieter": the voice is at its lowest level
                out.append(msg("That is the quietest."))
        if self.bedtime() and self.level.volume > self.quiet.volume:
            # TRANSLATORS: after a change of the voice, in the evening's quiet hours
            out.append(msg("It is bedtime, so the voice stays low."))
        return out

    def repeat(self, speaker: Speaker) -> str:
        """The last sentence of the game said again (even when muted, the page shows it)."""
        last = speaker.said[-1] if speaker.said else self.words(NOTHING_YET)
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
