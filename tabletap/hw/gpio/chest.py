"""The chest latch as a gpiozero AngularServo.

The latch moves in small steps on the injected clock (`travel_seconds` for the whole swing)
rather than jumping: a servo slammed across its range can strip a plastic latch or brown out the
supply. Every step is clamped to the configured limits, so no value outside them is ever
commanded, whatever the caller asks. `set_open` returns once the latch has arrived (on virtual
time, at once), which keeps the daemon single-threaded and the simulator deterministic.
"""

from __future__ import annotations

import math

from gpiozero import AngularServo
from gpiozero.pins import Factory

from tabletap.controller.ports import Clock
from tabletap.controller.settings.config import SERVO_FRAME_SECONDS, ServoConfig


class GpioChest:
    def __init__(self, cfg: ServoConfig, clock: Clock, pin_factory: Factory) -> None:
        self.cfg = cfg
        self.clock = clock
        # The far limit exactly as gpiozero computes it (min + range), which can differ from
        # the configured one in the last bit; gpiozero refuses anything past its own figure.
        far = cfg.min_angle + (cfg.max_angle - cfg.min_angle)
        self._low, self._high = sorted((cfg.min_angle, far))
        self.servo = AngularServo(
            cfg.pin,
            initial_angle=self.clamp(cfg.closed_angle),  # a box that boots is a latched box
            min_angle=cfg.min_angle,
            max_angle=cfg.max_angle,
            min_pulse_width=cfg.min_pulse_width,
            max_pulse_width=cfg.max_pulse_width,
            frame_width=SERVO_FRAME_SECONDS,
            pin_factory=pin_factory,
        )
        self._target = self.clamp(cfg.closed_angle)
        self._open = False
        self._width_after_move: float | None = self.servo.pulse_width
        if cfg.detach_after_travel:
            self.clock.sleep(cfg.travel_seconds)  # give it time to get there first
            self.servo.detach()

    def clamp(self, angle: float) -> float:
        return min(self._high, max(self._low, angle))

    @property
    def angle(self) -> float:
        """Where the latch was last sent (the servo's own reading is None while detached)."""
        return self._target

    @property
    def pulse_width(self) -> float | None:
        """The pulse width on the pin now, in seconds; None while no pulses are sent."""
        width = self.servo.pulse_width
        return None if width is None or width == 0 else width

    def move_to(self, angle: float) -> None:
        """Travel to `angle` (clamped) in frame-sized steps at a steady speed: `travel_seconds`
        for the whole swing between closed and open, less for a shorter move."""
        target = self.clamp(angle)
        start = self._target
        # The config keeps open and closed a degree apart at least; the floor also bounds the
        # step count of a move far outside the swing (the doctor's sweep).
        swing = max(abs(self.cfg.open_angle - self.cfg.closed_angle), 1.0)
        seconds = self.cfg.travel_seconds * abs(target - start) / swing
        steps = max(1, math.ceil(seconds / SERVO_FRAME_SECONDS - 1e-9))
        pause = seconds / steps
        for i in range(1, steps + 1):
            step = target if i == steps else self.clamp(start + (target - start) * i / steps)
            self.servo.angle = step
            self._target = step
            if pause:
                self.clock.sleep(pause)
        self._width_after_move = self.servo.pulse_width
        if self.cfg.detach_after_travel:
            self.servo.detach()

    def expected_width(self, angle: float) -> float:
        """The pulse width the configured calibration gives `angle`, in seconds."""
        c = self.cfg
        share = (angle - c.min_angle) / (c.max_angle - c.min_angle)
        return c.min_pulse_width + share * (c.max_pulse_width - c.min_pulse_width)

    def sweep(self, degrees: float = 10.0) -> str:
        """`tabletap doctor`'s gentle test: a few degrees towards open and back to closed, each
        pulse width read back from the pin. Raises RuntimeError when the pin disagrees."""
        closed = self.clamp(self.cfg.closed_angle)
        opened = self.clamp(self.cfg.open_angle)
        step = min(abs(degrees), abs(opened - closed))
        towards = self.clamp(closed + math.copysign(step, opened - closed))
        seen = []
        for angle in (closed, towards, closed):
            self.move_to(angle)
            width = self._width_after_move
            if width is None or not math.isclose(width, self.expected_width(angle), abs_tol=1e-7):
                raise RuntimeError(f"the servo pin carries {width} s for {angle:g} degrees, "
                                   f"not {self.expected_width(angle):.6f} s")
            seen.append(width)
        self._open = False
        return (f"swept {step:g}° from closed ({closed:g}°) towards open and back; pulses "
                + " → ".join(f"{w * 1000:.3f}" for w in seen) + " ms")

    def set_open(self, open_: bool) -> None:
        self.move_to(self.cfg.open_angle if open_ else self.cfg.closed_angle)
        self._open = open_

    @property
    def is_open(self) -> bool:
        """Read back from the PWM duty on the pin, so "open" means the pulses say open; while
        detached there are no pulses, and the latch is where it was last sent."""
        if self.servo.closed:
            return self._open
        angle = self.servo.angle
        if angle is None:
            return self._open
        return math.isclose(angle, self.clamp(self.cfg.open_angle), abs_tol=1e-6)

    def close(self) -> None:
        self.servo.close()
