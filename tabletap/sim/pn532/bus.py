"""The emulated PN532 on SPI and I2C: bus objects shaped like Blinka's `busio.SPI` / `busio.I2C`
for the unmodified `adafruit_pn532.spi` / `.i2c` drivers (through adafruit_bus_device).

On these buses the host clocks every byte and asks the chip whether a reply is ready (SPI: the
status-read command 0x02, bit-reversed because the PN532 is LSB-first; I2C: the status byte in
front of every read). Replies become ready when the chip's timing says so; with a VirtualClock a
status check on a reply still in the making moves time on by the driver's own 10 ms ready-loop
steps (`poll_step`), as the real driver would see it, without sleeping.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

from tabletap.controller.ports import Clock
from tabletap.sim.pn532.chip import Pn532Chip
from tabletap.sim.pn532.port import EmulatedWait


def reverse_bits(b: int) -> int:
    return int(f"{b:08b}"[::-1], 2)


@dataclass
class _Endpoint:
    """Frames in, timed reply frames out, shared by both buses."""

    chip: Pn532Chip
    clock: Clock
    hz: float
    poll_step: float = 0.01
    _replies: deque[tuple[float, bytes]] = field(default_factory=deque)

    def wire(self, n: int, bits: int = 8) -> None:
        self.clock.sleep(n * bits / self.hz)

    def send(self, data: bytes) -> None:
        self.wire(len(data))
        now = self.clock.now()
        self.chip.wake()
        self._replies.clear()
        t = now
        for reply in self.chip.feed(bytes(data), now):
            t = max(t, now + reply.delay)
            self._replies.append((t, reply.data))

    is_open = True  # (what EmulatedWait asks of a port)

    def ready_at(self) -> float | None:
        """When the next answer is ready for the host (None: none coming). An armed listing
        with a tag in the field answers now (Pn532Chip.armed_reply)."""
        if self.chip.armed is not None and not self._replies:
            now = self.clock.now()
            reply = self.chip.armed_reply(now)
            if reply is not None:
                self._replies.append((now + reply.delay, reply.data))
        return self._replies[0][0] if self._replies else None

    def ready(self) -> bool:
        if not self.chip.has_power(self.clock.now()):
            self._replies.clear()
            return False
        self.ready_at()
        now = self.clock.now()
        if self._replies and self._replies[0][0] <= now:
            return True
        if self.poll_step:
            if self._replies:
                steps = math.ceil((self._replies[0][0] - now) / self.poll_step)
                self.clock.sleep(steps * self.poll_step)
                return True
            self.clock.sleep(self.poll_step)
        return False

    def take(self, n: int) -> bytes:
        self.wire(n)
        if not self._replies or self._replies[0][0] > self.clock.now():
            return bytes(n)
        data = self._replies.popleft()[1]
        return (data + bytes(n))[:n]


class _BusLock:
    """Blinka's bus lock protocol, which the driver's bus devices take around each transfer."""

    locked = False

    def try_lock(self) -> bool:
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self) -> None:
        self.locked = False


class EmulatedSpiBus(_BusLock):
    """`busio.SPI` for one PN532 (chip select is accepted and ignored: one device per bus)."""

    def __init__(self, chip: Pn532Chip, clock: Clock, hz: float = 100_000,
                 poll_step: float = 0.01) -> None:
        self.endpoint = _Endpoint(chip, clock, hz, poll_step)
        self.locked = False

    def configure(self, **_settings: object) -> None:
        pass

    def write(self, buf: bytes, start: int = 0, end: int | None = None) -> None:
        data = bytes(reverse_bits(b) for b in bytes(buf)[start:end])
        if not data:
            return
        if data[0] == 0x01:  # data write
            self.endpoint.send(data[1:])
        elif self.endpoint.chip.has_power(self.endpoint.clock.now()):
            self.endpoint.chip.wake()  # any other byte: the wake-up select

    def write_readinto(self, out: bytes, into: bytearray, **_kw: object) -> None:
        cmd = reverse_bits(bytes(out)[0])
        if cmd == 0x02:  # status read
            into[:] = bytes([0, reverse_bits(0x01 if self.endpoint.ready() else 0x00)])
        elif cmd == 0x03:  # data read
            data = self.endpoint.take(len(into) - 1)
            into[:] = bytes([0]) + bytes(reverse_bits(b) for b in data)
        else:
            into[:] = bytes(len(into))

    def readinto(self, buf: bytearray, **_kw: object) -> None:
        buf[:] = bytes(len(buf))


@dataclass
class EmulatedPin:
    """A `digitalio.DigitalInOut` stand-in for chip select."""

    value: bool = True
    direction: object = None

    def switch_to_output(self, value: bool = False, **_kw: object) -> None:
        self.value = value


class EmulatedI2cBus(_BusLock):
    """`busio.I2C` with one PN532 at `address` (0x24). An unpowered chip NACKs its address."""

    def __init__(self, chip: Pn532Chip, clock: Clock, address: int = 0x24, hz: float = 100_000,
                 poll_step: float = 0.01) -> None:
        self.endpoint = _Endpoint(chip, clock, hz, poll_step)
        self.address = address
        self.locked = False

    def _ack(self, address: int) -> None:
        if address != self.address or not self.endpoint.chip.has_power(self.endpoint.clock.now()):
            raise OSError(121, "Remote I/O error")  # what Linux's i2c-dev says for a NACK

    def writeto(self, address: int, buf: bytes, *, start: int = 0, end: int | None = None) -> None:
        self._ack(address)
        data = bytes(buf)[start:end]
        if data:
            self.endpoint.send(data)
        else:
            self.endpoint.chip.wake()

    def readfrom_into(self, address: int, buf: bytearray, *, start: int = 0,
                      end: int | None = None) -> None:
        self._ack(address)
        end = len(buf) if end is None else end
        n = end - start
        if n == 1:  # the driver's ready check: just the status byte
            buf[start] = 0x01 if self.endpoint.ready() else 0x00
            return
        ready = self.endpoint.ready()
        body = self.endpoint.take(n - 1) if ready else bytes(n - 1)
        buf[start:end] = bytes([0x01 if ready else 0x00]) + body


@dataclass(frozen=True)
class EmulatedIrq:
    """The chip's P70_IRQ line on an emulated bus, shaped like tabletap.hw.pn532.irq.IrqLine:
    low (`ready`) while an answer waits for the host; its handle waits on the bus's clock like
    an emulated serial port's (EmulatedWait)."""

    endpoint: _Endpoint

    def ready(self) -> bool:
        at = self.endpoint.ready_at()
        return at is not None and at <= self.endpoint.clock.now()

    def handle(self) -> EmulatedWait:
        return EmulatedWait(self.endpoint)  # type: ignore[arg-type]

    def close(self) -> None:
        pass
