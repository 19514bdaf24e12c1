"""Fixtures: a simulated world with emulated PN532 chips under the real adafruit driver."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tabletap.controller.settings.config import ReaderConfig
from tabletap.hw.pn532.reader import Pn532Reader
from tabletap.sim.clock import VirtualClock
from tabletap.sim.ntag import Ntag
from tabletap.sim.pn532.backend import build_reader, chip_for
from tabletap.sim.pn532.chip import Pn532Chip
from tabletap.sim.pn532.faults import FaultPlan
from tabletap.sim.pn532.pty import PtyChip
from tabletap.sim.world import SimWorld


class Table:
    """A world, its context and readers built through the `sim` transport factory."""

    def __init__(self) -> None:
        self.clock = VirtualClock()
        self.world = SimWorld(clock=self.clock)
        self.context: dict[str, Any] = {"world": self.world, "clock": self.clock, "faults": {}}

    def reader(self, name: str = "chest", faults: FaultPlan | None = None,
               **cfg: Any) -> Pn532Reader:
        if faults is not None:
            self.context["faults"][name] = faults
        return build_reader(name, ReaderConfig(**cfg), self.context)

    def chip(self, name: str = "chest") -> Pn532Chip:
        return chip_for(name, self.context)


@pytest.fixture
def table() -> Table:
    return Table()


@pytest.fixture
def pty() -> Iterator[PtyChip]:
    """The emulated chip at the far end of a pseudo-terminal, for the `uart` transport as
    configured at the table (real pyserial); `pty.field` holds the tags on it."""
    field: list[Ntag] = []
    server = PtyChip(Pn532Chip(field=lambda: field))
    server.field = field  # type: ignore[attr-defined]
    yield server
    server.close()
