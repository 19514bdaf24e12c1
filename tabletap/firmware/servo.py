"""The chest latch's servo on 50 Hz PWM: smooth travel, and hard limits nothing can exceed.

Whatever a config or a corrupted command says, the pulse stays inside [min_us, max_us], and those
stay inside ABS_MIN_US..ABS_MAX_US, the range any hobby servo accepts.
"""

ABS_MIN_US = 400
ABS_MAX_US = 2600
PERIOD_US = 20000  # 50 Hz


def clamp(x, lo, hi):
    return lo if x < lo else hi if x > hi else x


def duty_u16(pulse_us):
    return int(pulse_us * 65535 // PERIOD_US)


class Servo:
    def __init__(self, pwm, cfg):
        self.pwm = pwm
        pwm.freq(50)
        self.angle = None  # unknown until the first update: a servo jumps there at power-up
        self.duty = None
        self.configure(cfg)
        self.opened = False
        self.target = self.closed_angle
        self.then = None  # where to go once the target is reached (a sweep's way back)
        self.last_ms = None

    def configure(self, cfg):
        self.min_us = clamp(cfg["min_us"], ABS_MIN_US, ABS_MAX_US)
        self.max_us = clamp(cfg["max_us"], self.min_us, ABS_MAX_US)
        self.min_angle = cfg["min_angle"]  # drives min_us; above max_angle for a reversed servo
        self.max_angle = cfg["max_angle"]
        self.lo_angle = min(self.min_angle, self.max_angle)
        self.hi_angle = max(self.min_angle, self.max_angle)
        self.open_angle = clamp(cfg["open_angle"], self.lo_angle, self.hi_angle)
        self.closed_angle = clamp(cfg["closed_angle"], self.lo_angle, self.hi_angle)
        swing = abs(self.open_angle - self.closed_angle)
        travel = cfg["travel_s"]
        self.speed = swing / travel if travel > 0 else None  # degrees per second; None: jump
        if hasattr(self, "opened"):
            self.set_open(self.opened)  # new angles take effect at once

    def set_open(self, open_):
        self.opened = bool(open_)
        self.target = self.open_angle if open_ else self.closed_angle
        self.then = None

    def sweep(self, degrees):
        """A small move toward open and back, to show the servo works without unlatching."""
        if self.opened:
            raise ValueError("the latch is open")
        degrees = clamp(degrees, 0, 30)
        toward = 1 if self.open_angle > self.closed_angle else -1
        self.target = clamp(self.closed_angle + toward * degrees, self.lo_angle, self.hi_angle)
        self.then = self.closed_angle

    def pulse_us(self, angle):
        span = self.max_angle - self.min_angle
        frac = (clamp(angle, self.lo_angle, self.hi_angle) - self.min_angle) / span
        return clamp(self.min_us + frac * (self.max_us - self.min_us), self.min_us, self.max_us)

    def update(self, now, ticks_diff):
        target = clamp(self.target, self.lo_angle, self.hi_angle)
        if self.angle is None or self.speed is None:
            self.angle = target
        elif self.angle != target:
            dt = ticks_diff(now, self.last_ms) / 1000
            step = self.speed * dt
            if abs(target - self.angle) <= step:
                self.angle = target
            elif target > self.angle:
                self.angle += step
            else:
                self.angle -= step
        self.last_ms = now
        if self.angle == target and self.then is not None:
            self.target, self.then = self.then, None
        duty = duty_u16(self.pulse_us(self.angle))
        if duty != self.duty:
            self.pwm.duty_u16(duty)
            self.duty = duty

    def deinit(self):
        self.pwm.deinit()
