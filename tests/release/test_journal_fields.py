"""The daemon's records in the journal under systemd (controller/table/service.py).

With Debian's python3-systemd (the image's), each record goes through its `journal.send` with
the fields its JournalHandler documents and no others: that handler also sends every attribute
of the record as a field, about twice the CPU a record (docs/BENCHMARKS.md). The venv has no
python3-systemd, so `systemd.journal` is a stand-in here that keeps what it was sent: it tests
the layer above the library, which is all of ours there is. Without the library the lines carry
the sd-daemon priority (tests/release/test_service.py runs that way end to end).
"""

from __future__ import annotations

import contextlib
import logging
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest

from tabletap.controller.table import service

FIELDS = {"PRIORITY", "LOGGER", "THREAD_NAME", "CODE_FILE", "CODE_LINE", "CODE_FUNC",
          "SYSLOG_IDENTIFIER"}


@pytest.fixture
def journal(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    sent: list[tuple[str, dict[str, Any]]] = []
    package = types.ModuleType("systemd")
    module = types.ModuleType("systemd.journal")
    module.send = lambda message, **fields: sent.append((message, fields))  # type: ignore[attr-defined]
    package.journal = module  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "systemd", package)
    monkeypatch.setitem(sys.modules, "systemd.journal", module)
    monkeypatch.setenv("JOURNAL_STREAM", "8:12345")
    return sent


@pytest.fixture
def logger() -> Iterator[logging.Logger]:
    log = logging.getLogger("tabletap.test-journal")
    log.propagate = False
    log.setLevel(logging.DEBUG)
    yield log
    log.handlers.clear()
    log.propagate = True
    log.setLevel(logging.NOTSET)


def test_a_record_is_sent_with_the_documented_fields_only(journal, logger) -> None:
    logger.addHandler(service.log_handler())
    line = sys._getframe().f_lineno + 1
    logger.info("reader %s: %s placed", "chest", "magic-keys/key/gold")
    assert len(journal) == 1
    message, fields = journal[0]
    assert message == "reader chest: magic-keys/key/gold placed"
    assert set(fields) == FIELDS, set(fields) ^ FIELDS
    assert fields["PRIORITY"] == "6" and fields["LOGGER"] == "tabletap.test-journal"
    assert fields["SYSLOG_IDENTIFIER"] == "tabletap" and fields["THREAD_NAME"] == "MainThread"
    assert fields["CODE_FILE"] == __file__ and fields["CODE_LINE"] == line
    assert fields["CODE_FUNC"] == "test_a_record_is_sent_with_the_documented_fields_only"


def test_each_level_has_its_priority_and_a_traceback_stays_in_one_entry(journal, logger) -> None:
    logger.addHandler(service.log_handler())
    logger.debug("d")
    logger.warning("w")
    logger.error("e")
    logger.critical("c")
    try:
        raise OSError(5, "Input/output error")
    except OSError:
        logger.exception("the chest did not answer (open)")
    assert [fields["PRIORITY"] for _, fields in journal] == ["7", "4", "3", "2", "3"]
    message = journal[-1][0]
    assert message.startswith("the chest did not answer (open)\nTraceback (most recent call last)")
    assert message.endswith("OSError: [Errno 5] Input/output error")


def test_a_failing_journal_never_raises_into_the_loop(journal, logger, monkeypatch) -> None:
    def refuse(message: str, **fields: Any) -> None:
        raise OSError(111, "Connection refused")
    monkeypatch.setattr(sys.modules["systemd.journal"], "send", refuse)
    monkeypatch.setattr(logging, "raiseExceptions", False)  # as in a daemon: no report to stderr
    logger.addHandler(service.log_handler())
    logger.warning("still playing")  # must not raise


@contextlib.contextmanager
def daemon_logging(level: str) -> Iterator[None]:
    """`setup_logging(level)` on the root logger as a daemon starts with it: without pytest's
    handlers (added for the test's call, so set aside here, not in a fixture), so that its
    `logging.basicConfig` configures it as in `tabletap run`. All is put back after."""
    root, session = logging.getLogger(), logging.getLogger("tabletap.session")
    handlers, level_before, session_level = list(root.handlers), root.level, session.level
    root.handlers.clear()
    try:
        service.setup_logging(level)
        yield
    finally:
        for handler in root.handlers:
            handler.close()
        root.handlers[:] = handlers
        root.setLevel(level_before)
        session.setLevel(session_level)


def test_an_entry_is_the_message_alone(journal) -> None:
    """basicConfig gives a handler without a formatter its own "LEVEL:name:message" format:
    with python3-systemd's handler, every entry of the box's journal read
    "INFO:tabletap.table:ben takes 5 gems", the level and the logger said twice."""
    with daemon_logging("info"):
        logging.getLogger("tabletap.table").info("ben takes 5 gems and now has 10.")
    assert journal[-1][0] == "ben takes 5 gems and now has 10."
    assert journal[-1][1]["LOGGER"] == "tabletap.table"


def test_under_systemd_the_sessions_info_records_are_not_made(journal) -> None:
    """The session's info record repeats a sentence the narrator already put in the journal:
    made and dropped, it cost a record's work; now it is not made (service.setup_logging)."""
    session = logging.getLogger("tabletap.session")
    with daemon_logging("debug"):
        assert not session.isEnabledFor(logging.INFO)
        assert session.isEnabledFor(logging.WARNING)
        session.info("gems: ana takes 5 gems and now has 5.")
        session.warning("rejected not-a-key: that is not a key")
    assert [message for message, _ in journal] == ["rejected not-a-key: that is not a key"]


def test_in_a_shell_the_sessions_info_records_are_logged(monkeypatch) -> None:
    monkeypatch.delenv("JOURNAL_STREAM", raising=False)
    session = logging.getLogger("tabletap.session")
    session.setLevel(logging.NOTSET)
    with daemon_logging("info"):
        assert session.isEnabledFor(logging.INFO)
