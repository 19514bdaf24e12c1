"""The fuzz suite: every parser, mutated input, no traceback and no hang (see mutate.py)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


class _Tracebacks(logging.Handler):
    """Log records that carry a traceback: the daemon's guards log one when they catch an
    exception they did not expect, which is as much a finding as an escaped one."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.records.append(record)


@pytest.fixture
def tracebacks() -> Iterator[_Tracebacks]:
    handler = _Tracebacks()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
