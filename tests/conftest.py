"""What every test of the suite shares: process-wide state a test changes is put back after it.

`make test` runs the tests on several workers (pytest-xdist, a file's tests on one worker), so
which tests ran before a test in the same process depends on how the files were dealt out. A
test must pass whatever ran before it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

OURS = "tabletap"


def _our_levels() -> dict[str, int]:
    """The level of the root logger and of every logger of tabletap's own that exists now."""
    levels = {"": logging.getLogger().level}
    for name, logger in logging.root.manager.loggerDict.items():
        if isinstance(logger, logging.Logger) and (name == OURS or name.startswith(OURS + ".")):
            levels[name] = logger.level
    return levels


@pytest.fixture(autouse=True)
def _logging_levels_put_back() -> Iterator[None]:
    """A command run in-process sets a level as its own process would and never puts it back
    (`tabletap sim run` sets the `tabletap` logger to CRITICAL when not verbose), so every test
    after it in that process lost its `tabletap.*` records below CRITICAL. Only the project's
    loggers and the root are put back: tabletap sets no logger's level at import, so a logger of
    ours made during the test goes back to NOTSET."""
    before = _our_levels()
    yield
    for name, level in _our_levels().items():
        wanted = before.get(name, logging.NOTSET)
        if level != wanted:
            logging.getLogger(name or None).setLevel(wanted)
