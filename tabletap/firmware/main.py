"""The Pico's entry point: wire the pins, then serve the host forever.

On the board MicroPython runs this file at power-up. The simulated board calls `run()` with
stand-ins for `machine` and `neopixel` and a pseudo-terminal for the USB serial line; everything
else is this same code.
"""

import sys

try:
    from . import patterns
    from .board import Board
    from .clock import sleep_ms, ticks_ms
    from .inputs import Button, Lid
    from .servo import Servo
except ImportError:  # on the board
    import patterns
    from board import Board
    from clock import sleep_ms, ticks_ms
    from inputs import Button, Lid
    from servo import Servo

WATCHDOG_MS = 2000  # a loop that stops for this long resets the board
REPL_FLAG = "repl_mode"  # written by the `repl` op: the next boot stays in the REPL, for flashing
REPL_FLUSH_MS = 100  # time for the acknowledgement to leave over USB before the reset
POLL_MS = 4  # the longest the loop waits for the host before moving the servo and lights on


class UsbSerial:
    """The USB serial line as MicroPython offers it: stdin/stdout, polled without blocking."""

    def __init__(self):
        import select

        try:
            import micropython

            micropython.kbd_intr(-1)  # a corrupted byte must not become Ctrl-C
        except ImportError:
            pass
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)

    def read(self, timeout_ms):
        """What has arrived, up to 256 bytes, waiting up to timeout_ms for the first. A byte at a
        time, since stdin's read(n) blocks until it has n; into one bytearray, not a new bytes
        object for each byte as `+=` made."""
        data = bytearray()
        while self.poller.poll(0 if data else timeout_ms) and len(data) < 256:
            data.extend(self.stdin.read(1))
        return data

    def write(self, data):
        self.stdout.write(data)


class Hardware:
    def __init__(self, servo, ring, inputs):
        self.servo = servo
        self.ring = ring
        self.inputs = inputs

    def deinit(self):
        self.servo.deinit()


def hardware_factory(machine, neopixel):
    def make_hw(cfg, now):
        servo = Servo(machine.PWM(machine.Pin(cfg["servo_pin"])), cfg)
        np = neopixel.NeoPixel(machine.Pin(cfg["pixel_pin"], machine.Pin.OUT), cfg["pixels"])
        ring = patterns.Ring(np, cfg["pixels"])
        inputs = []
        for name in sorted(cfg["buttons"]):
            pin = machine.Pin(cfg["buttons"][name], machine.Pin.IN, machine.Pin.PULL_UP)
            inputs.append(Button(name, pin, cfg["hold_ms"], now))
        if cfg["lid_pin"] is not None:
            pin = machine.Pin(cfg["lid_pin"], machine.Pin.IN, machine.Pin.PULL_UP)
            inputs.append(Lid(pin, now))
        return Hardware(servo, ring, inputs)

    return make_hw


def new_boot_id():
    try:
        import os

        return int.from_bytes(os.urandom(4), "big") & 0x3FFFFFFF
    except (ImportError, AttributeError):
        import random

        return random.getrandbits(30)


def take_repl_flag(path):
    """True (and the flag gone) if the last boot was asked to leave the board in the REPL."""
    import os

    try:
        os.remove(path)
    except OSError:
        return False
    return True


def reset_to_repl(machine, path):
    """The host asked to flash: flag the next boot to stay in the REPL, then reset."""
    with open(path, "w") as f:
        f.write("1")
    sleep_ms(REPL_FLUSH_MS)
    machine.reset()


def run(io=None, machine=None, neopixel=None, boot=None, proto=None, trace=None, stop=None,
        started=None, repl_flag=REPL_FLAG):
    """Serve the host until `stop()` says so (never, on the board).

    Returns None at once, before the watchdog starts or Ctrl-C is turned off, when the previous
    boot was asked for the REPL (the `repl` op): MicroPython then gives mpremote its REPL.
    The keyword arguments are for the simulated board: its stand-ins, a seeded boot id, a
    protocol version to pretend (to test the host's refusal), a record of executed commands,
    `started(board)` to let it look inside, and where the REPL flag file lives.
    """
    if take_repl_flag(repl_flag):
        return None
    if machine is None:
        import machine
    if neopixel is None:
        import neopixel
    if io is None:
        io = UsbSerial()
    kwargs = {} if proto is None else {"proto": proto}
    board = Board(hardware_factory(machine, neopixel), io.write, new_boot_id() if boot is None
                  else boot, ticks_ms(), trace=trace, **kwargs)
    if started is not None:
        started(board)
    wdt = machine.WDT(timeout=WATCHDOG_MS)
    while stop is None or not stop():
        wdt.feed()
        data = io.read(POLL_MS)
        now = ticks_ms()
        try:
            if data:
                board.receive(data, now)
            board.tick(now)
            if board.repl_requested:
                board.repl_requested = False
                reset_to_repl(machine, repl_flag)
        except Exception as e:  # on the Pico: keep serving; a real hang is the watchdog's job
            if not hasattr(sys, "print_exception"):
                raise  # CPython (the simulated board): let the simulator see the bug
            sys.print_exception(e)
            sleep_ms(1)
    return board


if __name__ == "__main__":
    run()
