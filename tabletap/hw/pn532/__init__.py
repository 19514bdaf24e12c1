"""The PN532 reader adapter: transports `uart`, `spi` and `i2c` (entry points in pyproject.toml).

Each factory builds a `Pn532Reader` without touching the hardware: the first poll makes first
contact, so a reader missing at start is reported by supervision, not by a crash.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.clock import SystemClock
from tabletap.controller.settings.config import ReaderConfig
from tabletap.hw.pn532.irq import IrqLine, gpio_irq
from tabletap.hw.pn532.reader import Pn532Reader, waiting_reader
from tabletap.hw.pn532.transports import (
    BusTransport,
    ResetLine,
    UartTransport,
    blinka_i2c,
    blinka_spi,
    board_pin,
    i2c_driver,
    serial_opener,
    spi_driver,
)

__all__ = ["Pn532Reader", "build_uart", "build_spi", "build_i2c"]


def _reset(cfg: ReaderConfig) -> ResetLine | None:
    if not cfg.reset_pin:
        return None
    name = cfg.reset_pin
    return ResetLine(lambda: board_pin(name), SystemClock())


def build_uart(name: str, cfg: ReaderConfig, context: dict[str, Any]) -> Pn532Reader:
    if not cfg.port:
        raise ValueError(f"reader {name}: transport uart needs `port:` (e.g. /dev/ttyS0)")
    transport = UartTransport(
        serial_opener(cfg.port, cfg.baud), cfg.timeout, _reset(cfg), f"uart {cfg.port}"
    )
    return Pn532Reader(name, transport, arm=cfg.arm, **waiting_reader(cfg, context))


def _irq(cfg: ReaderConfig) -> IrqLine | None:
    return gpio_irq(cfg.irq_pin) if cfg.irq_pin else None


def build_spi(name: str, cfg: ReaderConfig, context: dict[str, Any]) -> Pn532Reader:
    if not cfg.cs:
        raise ValueError(f"reader {name}: transport spi needs `cs:` (a board pin such as D5)")
    cs = cfg.cs
    make = spi_driver(blinka_spi, lambda: board_pin(cs), (cfg.timeout, SystemClock()))
    transport = BusTransport(make, f"spi cs={cs}", reset=_reset(cfg), irq=_irq(cfg))
    return Pn532Reader(name, transport, call_timeout=cfg.timeout, **_waiting(cfg, context))


def build_i2c(name: str, cfg: ReaderConfig, context: dict[str, Any]) -> Pn532Reader:
    make = i2c_driver(blinka_i2c, cfg.address, (cfg.timeout, SystemClock()))
    transport = BusTransport(make, f"i2c 0x{cfg.address:02x}", reset=_reset(cfg), irq=_irq(cfg))
    return Pn532Reader(name, transport, call_timeout=cfg.timeout, **_waiting(cfg, context))


def _waiting(cfg: ReaderConfig, context: dict[str, Any]) -> dict[str, Any]:
    """SPI and I2C readers wait for taps only with the IRQ line wired (`irq_pin:`)."""
    if not cfg.irq_pin:
        return {}
    return {"arm": cfg.arm, **waiting_reader(cfg, context)}
