"""The named light patterns on an RGB LED or plain PWM LEDs, animated by gpiozero itself.

gpiozero's devices already run blink and pulse (with fades) in their own background threads, and
its `source` machinery feeds a device from a generator, which is how the rainbow turns. So the
daemon loop never animates anything: `show` picks the animation and returns.
"""

from __future__ import annotations

import colorsys
import itertools
from collections.abc import Iterator

from gpiozero import RGBLED, LEDBoard
from gpiozero.pins import Factory

from tabletap.controller.patterns import PATTERNS, rgb
from tabletap.controller.settings.config import LightsConfig
from tabletap.hw.gpio.errors import GpioError

BLINK_SECONDS = 0.3  # on and off, for blink
CHASE_SECONDS = 0.1  # a single LED cannot chase; it flickers fast instead
PULSE_SECONDS = 1.0  # fade in and fade out, for pulse
RAINBOW_STEPS = 60
ANIMATIONS = {"off", "solid", "blink", "chase", "pulse", "rainbow"}
RAINBOW_STEP_SECONDS = 0.05  # one turn of the colour wheel in three seconds


COUNT_STEP_SECONDS = 0.25  # one flash (or gap) of a counted pattern
COUNT_REST_STEPS = 6  # steady colour between two runs of flashes


def _counted(level: tuple[float, ...], count: int) -> Iterator[tuple[float, ...]]:
    """The colour, interrupted every couple of seconds by `count` flashes: a number a child can
    count off a single LED (the cards a player draws, say)."""
    dim = tuple(v * 0.1 for v in level)
    run = [level, dim] * count + [level] * COUNT_REST_STEPS
    return itertools.cycle(run)


_DIM_STEP_SECONDS = 0.05


def _dim_wave(animation: str, level: tuple[float, ...]) -> Iterator[tuple[float, ...]]:
    """A PWM board's blink or pulse at a dimmed `level`, one value every 50 ms."""
    off = tuple(0.0 for _ in level)
    if animation in ("blink", "chase"):
        period = BLINK_SECONDS if animation == "blink" else CHASE_SECONDS
        steps = max(1, round(period / _DIM_STEP_SECONDS))
        return itertools.cycle([level] * steps + [off] * steps)
    seconds = PULSE_SECONDS if animation == "pulse" else PULSE_SECONDS / 4
    half = max(1, round(seconds / _DIM_STEP_SECONDS))
    ramp = [tuple(v * i / half for v in level) for i in range(half + 1)]
    return itertools.cycle(ramp + ramp[-2:0:-1])


def _rainbow() -> Iterator[tuple[float, float, float]]:
    wheel = [colorsys.hsv_to_rgb(i / RAINBOW_STEPS, 1.0, 1.0) for i in range(RAINBOW_STEPS)]
    return itertools.cycle(wheel)


class GpioLights:
    """`kind: rgb` drives one RGB LED (three pins: red, green, blue); `kind: pwm` drives one or
    more single-colour LEDs together, brightness standing in for colour."""

    def __init__(self, cfg: LightsConfig, pin_factory: Factory) -> None:
        self.kind = cfg.kind
        if cfg.kind == "neopixel":
            raise GpioError(
                "lights.kind: neopixel is not driven by the gpio backend; wire the ring to the "
                "Pico (backend: serial), or use an RGB LED (kind: rgb) or PWM LEDs (kind: pwm) "
                "on the Pi's pins"
            )
        self.led: RGBLED | LEDBoard
        if cfg.kind == "rgb":
            if len(cfg.pins) != 3:
                raise GpioError(f"lights.pins: an RGB LED needs 3 pins (red, green, blue), "
                                f"not {len(cfg.pins)}")
            self.led = RGBLED(*cfg.pins, active_high=cfg.active_high, pwm=True,
                              pin_factory=pin_factory)
        else:
            if not cfg.pins:
                raise GpioError("lights.pins: PWM lights need at least one pin")
            self.led = LEDBoard(*cfg.pins, pwm=True, active_high=cfg.active_high,
                                pin_factory=pin_factory)
        self._pattern = "off"
        self._colour: str | None = None
        self._brightness = 1.0

    def set_brightness(self, fraction: float) -> None:
        """Bedtime (controller.table.bedtime): every duty cycle from the next show on is this
        fraction of the day's."""
        self._brightness = max(0.0, min(1.0, fraction))

    def _level(self, colour: tuple[int, int, int]) -> tuple[float, ...]:
        """The device value for a colour: RGB as is, single-colour LEDs by brightness; both
        scaled by the bedtime brightness."""
        b = self._brightness
        if self.kind == "rgb":
            return tuple(c / 255 * b for c in colour)
        return (max(colour) / 255 * b,) * len(self.led)

    def show(self, pattern: str, colour: str | None = None, count: int | None = None) -> None:
        if pattern not in PATTERNS:
            raise ValueError(f"unknown light pattern {pattern!r} (known: {', '.join(PATTERNS)})")
        animation, default = PATTERNS[pattern]
        if animation not in ANIMATIONS:  # a new animation in controller.patterns
            raise ValueError(f"light pattern {pattern!r} uses animation {animation!r}, which the "
                             "gpio lights cannot render yet")
        level = self._level(rgb(colour or default))
        led = self.led
        led.source = None  # stop a running rainbow before anything else
        if animation == "off":
            led.off()
        elif count and animation in ("solid", "pulse") and isinstance(led, RGBLED):
            # a count on a pulse (a digit of the pairing code) is flashed too: a single LED
            # cannot show a number any other way
            led.source_delay = COUNT_STEP_SECONDS
            led.source = _counted(level, count)
        elif animation == "solid":
            led.value = level
        elif animation != "solid" and self._brightness < 1 and not isinstance(led, RGBLED):
            # gpiozero's LEDBoard blinks and pulses to full duty whatever the level: dimmed,
            # the board is fed its wave scaled instead
            led.source_delay = _DIM_STEP_SECONDS
            led.source = _dim_wave(animation, level)
        elif animation in ("blink", "chase"):
            period = BLINK_SECONDS if animation == "blink" else CHASE_SECONDS
            if isinstance(led, RGBLED):
                led.blink(on_time=period, off_time=period, on_color=level)
            else:
                led.blink(on_time=period, off_time=period)
        elif animation == "pulse":
            if isinstance(led, RGBLED):
                led.pulse(fade_in_time=PULSE_SECONDS, fade_out_time=PULSE_SECONDS,
                          on_color=level)
            else:
                led.pulse(fade_in_time=PULSE_SECONDS, fade_out_time=PULSE_SECONDS)
        else:  # rainbow
            led.source_delay = RAINBOW_STEP_SECONDS
            if isinstance(led, RGBLED):
                b = self._brightness
                led.source = (tuple(v * b for v in c) for c in _rainbow())
            else:
                led.pulse(fade_in_time=PULSE_SECONDS / 4, fade_out_time=PULSE_SECONDS / 4)
        self._pattern, self._colour = pattern, colour

    @property
    def pattern(self) -> str:
        return self._pattern

    @property
    def colour(self) -> str | None:
        return self._colour

    @property
    def value(self) -> tuple[float, ...]:
        """What the LEDs show right now (an animation changes it over time)."""
        return tuple(self.led.value)

    def close(self) -> None:
        self.led.source = None
        self.led.close()
