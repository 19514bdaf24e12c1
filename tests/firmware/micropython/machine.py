# A minimal `machine` for the checks under MicroPython on Node: pins read a settable level, PWM
# remembers its duty. (The simulated board has its own, recording, stand-ins in sim/board.)
LEVELS = {}


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, id, mode=None, pull=None):
        self.id = id

    def value(self, v=None):
        if v is None:
            return LEVELS.get(self.id, 1)


class PWM:
    def __init__(self, pin):
        self.pin = pin.id
        self.duties = []
        self.f = 0

    def freq(self, f=None):
        if f is not None:
            self.f = f
        return self.f

    def duty_u16(self, d=None):
        if d is not None:
            self.duties.append(d)
        return self.duties[-1] if self.duties else 0

    def deinit(self):
        pass


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.feeds = 0

    def feed(self):
        self.feeds += 1


class ResetCalled(Exception):
    pass


def reset():
    raise ResetCalled()
