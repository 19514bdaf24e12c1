"""The voice's volume and mute, as a family changes them (issue 21): by the page's buttons or
by tapping the `voice/louder`, `voice/quieter` and `voice/mute` cards, kept across restarts in
`voice.json` in the state folder (0600, replaced atomically), since a volume that comes back
loud after a power cut at bedtime is the one thing a parent would not forgive.

The level is espeak-ng's amplitude (0..200) in steps a child hears; the config's `voice.volume`
is the level a box starts at before anyone changes it. Bedtime quiet (`voice.quiet` in the
config) caps the level by time of day without changing what was chosen.
"""

from __future__ import annotations

import datetime
import json
import logging
import os
from pathlib import Path
from typing import Any

from msgspec import Struct

log = logging.getLogger("tabletap.voice")

FILE = "voice.json"
STEP = 20
LOWEST = 20  # quieter never goes silent: that is what mute is for
HIGHEST = 200


class Level(Struct, frozen=True):
    volume: int
    muted: bool = False

    def louder(self) -> Level:
        return Level(min(HIGHEST, self.volume + STEP), False)

    def quieter(self) -> Level:
        return Level(max(LOWEST, self.volume - STEP), False)

    def mute(self, muted: bool = True) -> Level:
        return Level(self.volume, muted)

    def steps(self) -> int:
        """The level as a count a page shows (1 to 10)."""
        return round(self.volume / STEP)


def load(state_dir: str | Path, default: int) -> Level:
    """The level last chosen, or `default` (the config's) when none was or the file is bad."""
    path = Path(state_dir) / FILE
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
        volume, muted = int(data["volume"]), bool(data["muted"])
    except FileNotFoundError:
        return Level(default)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("%s cannot be read (%s): the voice starts at the config's volume", path, exc)
        return Level(default)
    return Level(max(0, min(HIGHEST, volume)), muted)


def save(state_dir: str | Path, level: Level) -> None:
    """Replaced whole (a temporary file, fsynced, renamed over), so a power cut leaves the old
    level or the new one. (The voice sits below the state folder's layer, so it does not borrow
    its helper: two bytes of JSON need no more than this.)"""
    path = Path(state_dir) / FILE
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    with open(fd, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"volume": level.volume, "muted": level.muted}) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _minutes(text: str) -> int:
    hours, _, minutes = text.partition(":")
    return int(hours) * 60 + int(minutes)


def in_quiet_hours(start: str, end: str, now: datetime.time) -> bool:
    """Whether `now` lies in [start, end), a window that may pass midnight ("19:30" to "07:00")."""
    t, a, b = now.hour * 60 + now.minute, _minutes(start), _minutes(end)
    return a <= t < b if a <= b else t >= a or t < b
