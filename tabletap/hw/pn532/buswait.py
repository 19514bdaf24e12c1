"""Ready-waiting SPI and I2C buses for `adafruit_pn532.spi` / `.i2c`: the bus counterpart of
FramedSerial.

On SPI and I2C the driver asks the chip "ready?" (SPI status read 0x02; I2C status byte) and
sleeps 10 ms between asks, for up to the 0.5-1 s it chooses itself: every command costs at least
one 10 ms step, and a chip that is not there stalls the daemon 1.5 s per attempt. These wrappers
answer the driver's "ready?" only once the chip is ready, asking it every `step` seconds on the
injected clock, and give up after `timeout` with `BusTimeout`. Everything else goes straight to
the real bus. The driver itself is untouched.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.ports import Clock

SPI_STATUS_READ = 0x40  # 0x02, bit-reversed: the PN532 is LSB-first on SPI
SPI_READY = 0x80  # 0x01, bit-reversed
ACK_FRAME = b"\x00\x00\xff\x00\xff\x00"


class BusTimeout(Exception):
    """The chip was not ready within the timeout. Deliberately not an OSError: the I2C driver's
    ready loop swallows OSError and would go on waiting."""


class _Delegating:
    """Everything not overridden (try_lock, unlock, configure, plain writes) goes to the bus."""

    def __init__(self, bus: Any, timeout: float, clock: Clock, step: float = 0.001) -> None:
        self.bus = bus
        self.timeout = timeout
        self.clock = clock
        self.step = step

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bus, name)

    def _wait(self, ask: Any) -> None:
        deadline = self.clock.now() + self.timeout
        while not ask():
            if self.clock.now() >= deadline:
                raise BusTimeout(f"the PN532 was not ready within {self.timeout:.3f} s")
            self.clock.sleep(self.step)


class ReadyWaitingSpi(_Delegating):
    def write_readinto(self, out: Any, into: Any, **kw: Any) -> None:
        if len(out) == 2 and out[0] == SPI_STATUS_READ:

            def ready() -> bool:
                self.bus.write_readinto(out, into, **kw)
                return into[1] == SPI_READY

            self._wait(ready)
            return
        self.bus.write_readinto(out, into, **kw)


class ReadyWaitingI2c(_Delegating):
    # A 1-byte read is the driver's "ready?" only while a command is outstanding: from a write
    # with data until its reply (the frame after the ACK) was read. Otherwise it is something
    # else, e.g. adafruit_bus_device's probe falling back to a 1-byte read when the adapter
    # refuses a zero-length write: that must reach the bus as it is, whatever the status byte.
    _pending = False

    def writeto(self, address: int, buf: Any, **kw: Any) -> None:
        self.bus.writeto(address, buf, **kw)
        if bytes(buf)[kw.get("start", 0) : kw.get("end")]:
            self._pending = True

    def readfrom_into(self, address: int, buf: Any, **kw: Any) -> None:
        start = kw.get("start", 0)
        end = kw.get("end")
        n = (len(buf) if end is None else end) - start
        if n != 1 or not self._pending:
            self.bus.readfrom_into(address, buf, **kw)
            if n > 1 and bytes(buf)[start + 1 : start + 7] != ACK_FRAME:
                self._pending = False  # the reply (or an error frame) was read
            return

        def ready() -> bool:
            self.bus.readfrom_into(address, buf, **kw)
            return buf[start] == 0x01

        try:
            self._wait(ready)
        except BusTimeout:
            self._pending = False  # given up: the adapter drains and the next command starts anew
            raise
