"""Named buttons (short and long press) and the optional lid switch, as gpiozero Buttons.

Buttons are wired to ground with the Pi's pull-ups, so pressed = pin low. gpiozero calls us back
from its own threads; we only queue events under a lock and the daemon loop drains the queue.

A long press is reported the moment it has lasted `long_press_seconds` (gpiozero's `when_held`,
so the player gets an answer without letting go), or at release if by then the press lasted that
long on the injected clock: under the simulator that clock is virtual, and a press "held" for a
virtual second must not need a real second. Each press is reported exactly once.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Mapping
from functools import partial

from gpiozero import Button
from gpiozero.pins import Factory

from tabletap.controller.ports import Clock, InputEvent

LID = "lid"


class GpioButtons:
    def __init__(
        self,
        buttons: Mapping[str, str | int],
        lid_pin: str | int | None,
        clock: Clock,
        pin_factory: Factory,
        long_press_seconds: float = 1.0,
        bounce_seconds: float | None = None,
        before_events: Callable[[], None] | None = None,
    ) -> None:
        self.clock = clock
        self.long_press_seconds = long_press_seconds
        self._before_events = before_events
        self._lock = threading.Lock()
        self._queue: deque[InputEvent] = deque()
        self.on_input: Callable[[], None] | None = None  # the daemon's loop's wake-up
        self._pressed_at: dict[str, float] = {}  # name -> when the current press began
        self.devices: dict[str, Button] = {}
        self.lid: Button | None = None
        try:
            for name, pin in buttons.items():
                button = Button(pin, pull_up=True, bounce_time=bounce_seconds,
                                hold_time=long_press_seconds, pin_factory=pin_factory)
                button.when_pressed = partial(self._pressed, name)
                button.when_held = partial(self._held, name)
                button.when_released = partial(self._released, name)
                self.devices[name] = button
            if lid_pin is not None:
                # The switch closes (pin to ground) when the lid shuts: reed by its magnet,
                # microswitch by the lid pressing it.
                # hold_time 0: the lid has no long press, and gpiozero's hold thread would
                # otherwise sit out a second of waiting when we close while the lid is shut.
                self.lid = Button(lid_pin, pull_up=True, bounce_time=bounce_seconds,
                                  hold_time=0, pin_factory=pin_factory)
                self.lid.when_pressed = partial(self._queue_event, InputEvent(LID, "lid-closed"))
                self.lid.when_released = partial(self._queue_event, InputEvent(LID, "lid-open"))
        except Exception:
            self.close()
            raise

    def _queue_event(self, event: InputEvent) -> None:
        with self._lock:
            self._queue.append(event)
        self._woke()

    def _woke(self) -> None:
        """Tell the daemon's loop (asleep until its next timer) that an input is queued."""
        if self.on_input is not None:
            self.on_input()

    def _pressed(self, name: str) -> None:
        with self._lock:
            self._pressed_at[name] = self.clock.now()

    def _held(self, name: str) -> None:
        with self._lock:
            if self._pressed_at.pop(name, None) is not None:
                self._queue.append(InputEvent(name, "hold"))
        self._woke()

    def _released(self, name: str) -> None:
        with self._lock:
            began = self._pressed_at.pop(name, None)
            if began is None:  # already reported as a long press while held
                return
            long = self.clock.now() - began >= self.long_press_seconds
            self._queue.append(InputEvent(name, "hold" if long else "press"))
        self._woke()

    def pressed(self) -> dict[str, bool]:
        """Each button's reading now: a button that reads pressed at rest is stuck or miswired."""
        return {name: bool(button.is_pressed) for name, button in self.devices.items()}

    @property
    def lid_closed(self) -> bool | None:
        """The lid switch now (None without one)."""
        return None if self.lid is None else bool(self.lid.is_pressed)

    def events(self) -> list[InputEvent]:
        if self._before_events is not None:
            self._before_events()
        with self._lock:
            drained = list(self._queue)
            self._queue.clear()
        return drained

    def close(self) -> None:
        for button in [*self.devices.values(), self.lid]:
            if button is not None:
                button.close()
        self.devices.clear()
        self.lid = None
