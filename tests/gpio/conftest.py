from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from tabletap.sim.clock import VirtualClock


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    """A private mock factory per test: no global pin state shared between tests."""
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.reset()


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()
