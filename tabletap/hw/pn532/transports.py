"""How a PN532 driver object is built for each wiring: UART, SPI or I2C.

Each transport knows how to (re)connect: `connect()` returns a freshly initialised
`adafruit_pn532` driver (wake-up, SAMConfiguration and GetFirmwareVersion happen in its
constructor) and `disconnect()` lets go of the wire, so the reader can start over after a failure.
Blinka's `board`, `busio` and `digitalio` are imported only inside the SPI/I2C/reset-pin code,
because building a real bus fails off a Pi; the UART path needs nothing but pyserial.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from adafruit_pn532.adafruit_pn532 import PN532

from tabletap.controller.ports import Clock
from tabletap.hw.pn532.buswait import ACK_FRAME, ReadyWaitingI2c, ReadyWaitingSpi
from tabletap.hw.pn532.framing import FramedSerial, PortGone, SerialLike
from tabletap.hw.pn532.waiting import FdWait
from tabletap.hw.serial_open import open_exclusive


class ResetLine:
    """The chip's RSTPDN line, pulsed by the reader adapter on the injected clock.

    The driver is never given the pin: its `reset()` runs at every (re)connect and sleeps 0.2 s
    on the wall clock, which stalled the single-threaded daemon after a single dropped reply.
    The adapter pulses only a chip that stayed silent (Pn532Reader: `unavailable_after`)."""

    LOW = 0.1  # seconds held low, then settling after release: the adafruit driver's own values
    SETTLE = 0.1

    def __init__(self, make_pin: Callable[[], Any], clock: Clock) -> None:
        self._make_pin = make_pin
        self._pin: Any = None
        self.clock = clock
        self.pulses = 0

    def pulse(self) -> None:
        """Hold RSTPDN low, release it, let the chip come up. OSError when the pin is missing."""
        if self._pin is None:
            pin = self._make_pin()
            try:
                from digitalio import Direction

                pin.direction = Direction.OUTPUT
            except ImportError:  # an emulated pin off a Pi
                pass
            self._pin = pin
        self._pin.value = False
        self.clock.sleep(self.LOW)
        self._pin.value = True
        self.clock.sleep(self.SETTLE)
        self.pulses += 1


class Transport(Protocol):
    description: str
    reset: ResetLine | None

    def connect(self) -> PN532: ...

    def drain(self) -> None:
        """Throw away the rest of a reply the driver gave up on (a no-op where the host clocks
        every byte, as on SPI and I2C)."""
        ...

    def disconnect(self) -> None: ...


class UartTransport:
    """PN532 over a serial port (HSU): a real `serial.Serial` or anything shaped like it."""

    def __init__(
        self,
        open_port: Callable[[], SerialLike],
        timeout: float,
        reset: ResetLine | None = None,
        description: str = "uart",
    ) -> None:
        self._open_port = open_port
        self._timeout = timeout
        self.reset = reset
        self._port: SerialLike | None = None
        self._framed: FramedSerial | None = None
        self._wait: FdWait | None = None  # the open port's handle (wait_handle)
        self.description = description

    def connect(self) -> PN532:
        from adafruit_pn532.uart import PN532_UART

        if self._port is None:
            self._port = self._open_port()
        self._framed = FramedSerial(self._port, self._timeout)
        return PN532_UART(self._framed)

    def drain(self) -> None:
        if self._framed is not None:
            self._framed.drain()

    waits = True  # the port's own descriptor says when an answer comes

    def reply_waiting(self) -> bool:
        """Whether the chip has begun to answer (an armed listing found a tag); never blocks."""
        return self._framed is not None and self._framed.reply_waiting()

    def wait_handle(self) -> Any:
        """What the daemon's loop waits on for this reader's answer: the port's own handle if it
        offers one (the emulated port, which keeps simulated time), else its file descriptor,
        waited on with the others in one `select` (hw/pn532/waiting.py)."""
        port = self._port
        if port is None:
            return None
        own = getattr(port, "wait_handle", None)
        if own is not None:
            return own()
        # one handle while the port stays open: the loop's selector keeps it registered for
        # as long as it sees the same handle, and registers a new one afresh (table/waiter.py)
        if self._wait is None:
            self._wait = FdWait(port.fileno())  # type: ignore[attr-defined]
        return self._wait

    def abort(self) -> None:
        """Send the chip an ACK frame, which aborts the command it is working on."""
        if self._framed is not None:
            self._framed.write(ACK_FRAME)

    def disconnect(self) -> None:
        port, self._port, self._framed, self._wait = self._port, None, None, None
        if port is not None:
            try:
                port.close()
            except OSError:
                pass


def serial_opener(port: str, baud: int) -> Callable[[], SerialLike]:
    """Open `port` with pyserial (a device path or any pyserial URL) when the reader connects,
    for this program alone (hw/serial_open.py): a second program on the reader's UART would
    interleave its commands with the daemon's. It is refused, and the reader reports itself
    missing with the reason."""

    def open_port() -> SerialLike:
        import serial

        return open_exclusive(serial.serial_for_url, port, baudrate=baud, timeout=0.05)

    return open_port


def board_pin(name: str) -> Any:
    """A Blinka `DigitalInOut` for a board pin name such as `D6`; clear error off a Pi."""
    try:
        import board
        import digitalio
    except Exception as exc:  # noqa: BLE001 - Blinka raises all sorts off a Pi
        raise OSError(f"board pins are not available on this machine ({exc!r})") from None
    try:
        pin = getattr(board, name)
    except AttributeError:
        raise OSError(f"this board has no pin called {name!r}") from None
    return digitalio.DigitalInOut(pin)


class BusTransport:
    """PN532 over SPI or I2C through Blinka's `busio`; `make_bus` builds the bus object and
    `make_driver` the driver on it, both at connect time."""

    def __init__(
        self, make_driver: Callable[[], PN532], description: str,
        release: Callable[[], None] | None = None, reset: ResetLine | None = None,
        irq: Any = None,
    ) -> None:
        self._make_driver = make_driver
        self._release = release
        self.description = description
        self.reset = reset
        # the chip's P70_IRQ line (hw/pn532/irq.py: ready(), handle(), close()), if wired:
        # then the reader can wait for a tap as on UART
        self.irq = irq
        self._driver: PN532 | None = None

    @property
    def waits(self) -> bool:
        return self.irq is not None

    def connect(self) -> PN532:
        self._driver = self._make_driver()
        return self._driver

    def reply_waiting(self) -> bool:
        """The IRQ line is low: the chip has an answer for the host (never blocks)."""
        return self.irq is not None and bool(self.irq.ready())

    def wait_handle(self) -> Any:
        return self.irq.handle() if self.irq is not None else None

    def abort(self) -> None:
        """Send the chip an ACK frame through the driver's own bus write (SPI: with the
        data-write prefix), which aborts the command it is working on."""
        if self._driver is not None:
            try:
                self._driver._write_data(ACK_FRAME)
            except OSError as exc:
                raise PortGone(f"the bus failed: {exc}") from exc

    def drain(self) -> None:
        pass

    def disconnect(self) -> None:
        self._driver = None
        if self._release is not None:
            try:
                self._release()
            except Exception:  # noqa: BLE001 - letting go of a dead bus must not raise
                pass


def spi_driver(
    bus: Callable[[], Any],
    cs: Callable[[], Any],
    wait: tuple[float, Clock] | None = None,
) -> Callable[[], PN532]:
    """A driver factory for an SPI bus and chip-select pin (real Blinka or emulated), each
    built only when the reader connects. `wait` = (timeout, clock) puts the ready-waiting
    wrapper (hw/pn532/buswait.py) between driver and bus; None leaves the driver's own loop."""

    def make() -> PN532:
        from adafruit_pn532.spi import PN532_SPI

        raw = bus()
        wrapped = ReadyWaitingSpi(raw, wait[0], wait[1]) if wait else raw
        return PN532_SPI(wrapped, cs())

    return make


def i2c_driver(
    bus: Callable[[], Any],
    address: int,
    wait: tuple[float, Clock] | None = None,
) -> Callable[[], PN532]:
    def make() -> PN532:
        from adafruit_pn532.i2c import PN532_I2C

        raw = bus()
        wrapped = ReadyWaitingI2c(raw, wait[0], wait[1]) if wait else raw
        return PN532_I2C(wrapped, address=address)

    return make


def blinka_spi() -> Any:
    """The board's SPI bus; OSError (a missing reader, retried) where Blinka has none."""
    try:
        import board
        import busio

        return busio.SPI(board.SCK, board.MOSI, board.MISO)
    except Exception as exc:  # noqa: BLE001 - Blinka raises all sorts off a Pi
        raise OSError(
            "SPI is not available on this machine: Adafruit Blinka finds no SPI pins here. On a "
            "Raspberry Pi, enable SPI (sudo raspi-config, Interface Options, SPI) and reboot; "
            f"elsewhere use transport: uart or sim. (Blinka said: {exc})"
        ) from None


def blinka_i2c() -> Any:
    """The board's I2C bus; OSError (a missing reader, retried) where Blinka has none."""
    try:
        import board
        import busio

        return busio.I2C(board.SCL, board.SDA)
    except Exception as exc:  # noqa: BLE001 - Blinka raises all sorts off a Pi
        raise OSError(
            "I2C is not available on this machine: Adafruit Blinka finds no I2C pins here. On a "
            "Raspberry Pi, enable I2C (sudo raspi-config, Interface Options, I2C) and reboot; "
            f"elsewhere use transport: uart or sim. (Blinka said: {exc})"
        ) from None
