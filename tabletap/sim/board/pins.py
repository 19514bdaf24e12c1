"""Buttons and the lid in the simulated world, as pin levels the firmware's own debouncing reads.

A press in the world becomes the pin held low for a moment; a long press holds it past the
firmware's hold time. The firmware decides what that was, exactly as on the table.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque

from tabletap.controller.ports import InputEvent
from tabletap.sim.board.standins import Levels

log = logging.getLogger(__name__)

PRESS_S = 0.06  # a quick tap: longer than the 20 ms debounce, far shorter than a hold
GAP_S = 0.06  # released between two presses of the same button
SETTLE_S = 0.05  # after a release, time for the firmware's 20 ms debounce to see it


class WorldPins(Levels):
    def __init__(self, inputs: deque[InputEvent] | None, buttons: dict[str, int],
                 lid_pin: int | None, hold_s: float) -> None:
        self.inputs = inputs
        self.buttons = dict(buttons)
        self.lid_pin = lid_pin
        self.hold_s = hold_s
        self.lid_closed = True  # the chest starts shut
        self._low: dict[int, list[tuple[float, float]]] = {}
        self._lock = threading.Lock()

    def _take_inputs(self, now: float) -> None:
        while self.inputs:
            try:
                event = self.inputs.popleft()
            except IndexError:
                return
            if event.kind in ("lid-open", "lid-closed"):
                if self.lid_pin is None:
                    log.warning("the world moved the lid but no lid pin is configured")
                self.lid_closed = event.kind == "lid-closed"
                continue
            pin = self.buttons.get(event.name)
            if pin is None:
                log.warning("no board pin for button %r; press ignored", event.name)
                continue
            spans = self._low.setdefault(pin, [])
            start = max([now] + [end + GAP_S for _, end in spans])
            length = self.hold_s + PRESS_S if event.kind == "hold" else PRESS_S
            spans.append((start, start + length))

    def level(self, pin: int) -> int:
        now = time.monotonic()
        with self._lock:
            self._take_inputs(now)
            if pin == self.lid_pin:
                return 0 if self.lid_closed else 1
            spans = self._low.get(pin, [])
            while spans and spans[0][1] + SETTLE_S < now:
                spans.pop(0)
            return 0 if any(a <= now <= b for a, b in spans) else 1

    def busy(self) -> bool:
        """True while a press is still being acted out on some pin."""
        now = time.monotonic()
        with self._lock:
            return bool(self.inputs) or any(b + SETTLE_S >= now
                                            for s in self._low.values() for _, b in s)
