"""Millisecond ticks: MicroPython's own on the board, monotonic time in the simulated board."""

try:
    from time import sleep_ms, ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython: the firmware running in sim.board
    import time

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b

    def sleep_ms(ms):
        time.sleep(ms / 1000)
