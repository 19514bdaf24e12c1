from __future__ import annotations

from collections.abc import Iterator

import pytest

from tabletap.sim.board import SimBoard


@pytest.fixture
def board() -> Iterator[SimBoard]:
    b = SimBoard(seed=1).start()
    yield b
    b.close()
    assert b.error is None, f"the firmware crashed: {b.error!r}"
