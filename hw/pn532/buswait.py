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

from controller.ports import Clock

SPI_STATUS_READ = 0x40  # 0x02, bit-reversed: the PN532 is LSB-first on SPI
SPI_READY = 0x80  # 0x01, bit-reversed


class BusTimeout(Exception):
    """The chip was not ready within the timeout. Deliberately not an OSError: the I2C driver's
    ready loop swallows OSError and would go on waiting."""


class _Delegating:
    def __init__(self, bus: Any, timeout: float, clock: Clock, step: float) -> None:
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
    def __init__(self, bus: Any, timeout: float, clock: Clock, step: float = 0.001) -> None:
        super().__init__(bus, timeout, clock, step)

    def try_lock(self) -> bool:
        return self.bus.try_lock()

    def unlock(self) -> None:
        self.bus.unlock()

    def configure(self, **settings: Any) -> None:
        self.bus.configure(**settings)

    def write(self, buf: Any, **kw: Any) -> None:
        self.bus.write(buf, **kw)

    def write_readinto(self, out: Any, into: Any, **kw: Any) -> None:
        if len(out) == 2 and out[0] == SPI_STATUS_READ:

            def ready() -> bool:
                self.bus.write_readinto(out, into, **kw)
                return into[1] == SPI_READY

            self._wait(ready)
            return
        self.bus.write_readinto(out, into, **kw)


class ReadyWaitingI2c(_Delegating):
    def __init__(self, bus: Any, timeout: float, clock: Clock, step: float = 0.001) -> None:
        super().__init__(bus, timeout, clock, step)

    def try_lock(self) -> bool:
        return self.bus.try_lock()

    def unlock(self) -> None:
        self.bus.unlock()

    def writeto(self, address: int, buf: Any, **kw: Any) -> None:
        self.bus.writeto(address, buf, **kw)

    def readfrom_into(self, address: int, buf: Any, **kw: Any) -> None:
        start = kw.get("start", 0)
        end = kw.get("end")
        n = (len(buf) if end is None else end) - start
        if n != 1:
            self.bus.readfrom_into(address, buf, **kw)
            return

        def ready() -> bool:
            self.bus.readfrom_into(address, buf, **kw)
            return buf[start] == 0x01

        self._wait(ready)
