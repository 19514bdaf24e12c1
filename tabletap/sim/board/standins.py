"""Stand-ins for MicroPython's `machine` and `neopixel`, and nothing else.

They record what the firmware drove (PWM duty, LED colours, watchdog feeds) with the time it
happened, and read button and lid levels from the simulated world. Everything above them is the
firmware's own code.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Executed:
    """One command the firmware executed (not a retransmission it only acknowledged again)."""

    t: float
    boot: int
    seq: int
    body: dict[str, Any]
    ack: dict[str, Any]


@dataclass
class Recorder:
    """What the simulated board's outputs did, over time. Thread-safe; waits use a condition."""

    pwm: list[tuple[float, int, int]] = field(default_factory=list)  # (t, pin, duty_u16)
    leds: list[tuple[float, tuple[RGB, ...]]] = field(default_factory=list)
    executed: list[Executed] = field(default_factory=list)
    wdt_feeds: int = 0
    cond: threading.Condition = field(default_factory=threading.Condition)

    def add(self, attr: str, item: object) -> None:
        with self.cond:
            getattr(self, attr).append(item)
            self.cond.notify_all()

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 2.0) -> bool:
        """Wait until predicate() holds (re-checked on every recorded change) or timeout."""
        with self.cond:
            return self.cond.wait_for(predicate, timeout)

    def duty(self, pin: int | None = None) -> int | None:
        with self.cond:
            for _, p, duty in reversed(self.pwm):
                if pin is None or p == pin:
                    return duty
        return None

    def colours(self) -> tuple[RGB, ...] | None:
        with self.cond:
            return self.leds[-1][1] if self.leds else None


class SimReset(BaseException):  # noqa: N818 - not an error: the board's own reset
    """Raised by `machine.reset()`: it unwinds the firmware's thread, as the real reset never
    returns; the simulated board then boots afresh."""


class Levels:
    """Input pin levels (1 = released, pull-up) as the world's buttons and lid set them."""

    def level(self, pin: int) -> int:
        return 1


class SimMachine:
    """The parts of `machine` the firmware uses: Pin, PWM, WDT, reset().

    The WDT, like the RP2040's, cannot be stopped: if the firmware stops feeding it for its
    timeout, `on_expire()` is called (the simulated board resets), unless `alive()` says the board
    was shut down on purpose.
    """

    def __init__(self, recorder: Recorder, levels: Levels,
                 on_expire: Callable[[], None] | None = None,
                 alive: Callable[[], bool] = lambda: True) -> None:
        rec = recorder
        self.wdts = 0  # watchdogs started: none when main.py stayed in the REPL
        machine = self

        class Pin:
            IN = 0
            OUT = 1
            PULL_UP = 1

            def __init__(self, id: int, mode: int | None = None, pull: int | None = None) -> None:
                self.id = id
                self.mode = mode
                self.pull = pull

            def value(self, v: int | None = None) -> int | None:
                if v is not None:
                    return None
                return levels.level(self.id)

        class PWM:
            def __init__(self, pin: Pin) -> None:
                self.pin = pin.id
                self._freq = 0
                self._duty = 0

            def freq(self, f: int | None = None) -> int | None:
                if f is None:
                    return self._freq
                self._freq = f
                return None

            def duty_u16(self, d: int | None = None) -> int | None:
                if d is None:
                    return self._duty
                if not 0 <= d <= 65535:
                    raise ValueError("duty must be 0..65535")
                self._duty = d
                rec.add("pwm", (time.monotonic(), self.pin, d))
                return None

            def deinit(self) -> None:
                self._duty = 0
                rec.add("pwm", (time.monotonic(), self.pin, 0))

        class WDT:
            def __init__(self, id: int = 0, timeout: int = 5000) -> None:
                if not 1 <= timeout <= 8388:
                    raise ValueError("WDT timeout must be 1..8388 ms on the RP2040")
                self.timeout = timeout
                self.last_feed = time.monotonic()
                machine.wdts += 1
                if on_expire is not None:
                    threading.Thread(target=self._watch, daemon=True, name="sim-wdt").start()

            def _watch(self) -> None:
                while alive():
                    if time.monotonic() - self.last_feed > self.timeout / 1000:
                        on_expire()
                        return
                    time.sleep(0.02)

            def feed(self) -> None:
                self.last_feed = time.monotonic()
                rec.wdt_feeds += 1

        self.Pin = Pin
        self.PWM = PWM
        self.WDT = WDT

    def reset(self) -> None:
        raise SimReset()


class SimNeoPixelModule:
    """`neopixel.NeoPixel`: a colour buffer that is recorded on each write()."""

    def __init__(self, recorder: Recorder) -> None:
        rec = recorder

        class NeoPixel:
            def __init__(self, pin: object, n: int) -> None:
                self.n = n
                self.buf: list[RGB] = [(0, 0, 0)] * n

            def __len__(self) -> int:
                return self.n

            def __setitem__(self, i: int, rgb: RGB) -> None:
                self.buf[i] = tuple(rgb)  # type: ignore[assignment]

            def __getitem__(self, i: int) -> RGB:
                return self.buf[i]

            def fill(self, rgb: RGB) -> None:
                self.buf = [tuple(rgb)] * self.n  # type: ignore[list-item]

            def write(self) -> None:
                rec.add("leds", (time.monotonic(), tuple(self.buf)))

        self.NeoPixel = NeoPixel
