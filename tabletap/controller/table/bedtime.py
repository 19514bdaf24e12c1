"""Bedtime for the lights (issue 21): `lights.quiet: {start, end, brightness}` dims every light
by the clock on the wall, as `voice.quiet` lowers the voice.

The dimming is the light adapters' own (an RGB LED's or PWM LED's duty cycle, the Pico ring's
frames scaled on the board, the simulator's record), each through `set_brightness(fraction)`;
this wrapper only decides the fraction. It sets it before every pattern is shown, and a small
thread looks at the clock twice a minute so that a pattern resting on the lights at 19:30 (the
idle pulse of a table nobody touches) dims then, not at the next tap. The daemon's loop is not
involved: the check costs nothing and a game never waits for it.
"""

from __future__ import annotations

import datetime
import logging
import threading
from collections.abc import Callable
from typing import Any

from tabletap.controller.ports import Lights, Outputs
from tabletap.controller.settings.config import QuietLights
from tabletap.controller.spoken.volume import in_quiet_hours

log = logging.getLogger("tabletap.lights")

Wall = Callable[[], datetime.time]
CHECK_SECONDS = 30.0


def _wall() -> datetime.time:
    return datetime.datetime.now().time()


class BedtimeLights:
    """A Lights port that passes everything on, at the quiet hours' brightness while they last.

    Anything else (a simulator's `history`, a doctor's `value`) is the wrapped adapter's."""

    def __init__(self, inner: Lights, quiet: QuietLights, wall: Wall = _wall,
                 check_seconds: float | None = CHECK_SECONDS) -> None:
        self.inner = inner
        self.quiet = quiet
        self.wall = wall
        self._lock = threading.Lock()
        self._brightness = 1.0
        self._last: tuple[str, str | None, int | None] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if not callable(getattr(inner, "set_brightness", None)):
            log.warning("these lights cannot be dimmed: lights.quiet is ignored")
        elif check_seconds is not None:
            self._thread = threading.Thread(target=self._watch, args=(check_seconds,),
                                            name="bedtime-lights", daemon=True)
            self._thread.start()

    def brightness_now(self) -> float:
        """The fraction the lights show at now: the quiet hours' brightness, or all of it."""
        q = self.quiet
        return q.brightness / 100 if in_quiet_hours(q.start, q.end, self.wall()) else 1.0

    def _apply(self) -> bool:
        """Tell the adapter the brightness for now; True when it changed."""
        level = self.brightness_now()
        setter = getattr(self.inner, "set_brightness", None)
        if level == self._brightness or not callable(setter):
            return False
        self._brightness = level
        setter(level)
        log.info("lights at %d%% (%s)", round(level * 100),
                 "bedtime" if level < 1 else "bedtime over")
        return True

    def show(self, pattern: str, colour: str | None = None, count: int | None = None) -> None:
        with self._lock:
            self._apply()
            self._last = (pattern, colour, count)
            self.inner.show(pattern, colour, count)

    def tick(self) -> None:
        """Look at the clock: at the start or end of bedtime, show the pattern again at the new
        brightness (a pattern on a Pico or a gpiozero animation keeps the level it began with)."""
        with self._lock:
            if self._apply() and self._last is not None:
                self.inner.show(*self._last)

    def _watch(self, seconds: float) -> None:
        while not self._stop.wait(seconds):
            try:
                self.tick()
            except Exception:  # a light that fails now is the doctor's business, not this thread's
                log.exception("re-showing the lights at bedtime failed")

    @property
    def pattern(self) -> str:
        return self.inner.pattern

    def __getattr__(self, name: str) -> Any:
        if name == "inner":  # not set yet (a copy being made): no endless lookup
            raise AttributeError(name)
        return getattr(self.inner, name)

    def close(self) -> None:
        self._stop.set()
        self.inner.close()


def with_bedtime(outputs: Outputs, quiet: QuietLights | None) -> Outputs:
    """`outputs` with its lights dimmed at bedtime, or as they are without `lights.quiet`."""
    if quiet is None:
        return outputs
    return Outputs(outputs.chest, BedtimeLights(outputs.lights, quiet), outputs.buttons)
