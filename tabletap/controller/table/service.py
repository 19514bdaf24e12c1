"""Living under systemd: readiness and watchdog pings, and logging into the journal.

The unit is `Type=notify` with `WatchdogSec=`: systemd waits for READY before it counts the table
as started, and restarts the daemon when its loop stops pinging (a hung reader call, a deadlock),
which a process that merely stays alive would never trigger. Outside systemd (a developer's
shell, the tests) NOTIFY_SOCKET is unset and every call here does nothing.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable

import sdnotify

# Ping at most this often: the loop runs every poll period (0.1 s), the watchdog fires after
# seconds, and one datagram a second keeps the journal of the notify socket quiet.
PING_EVERY = 1.0


class Notifier:
    """READY once, WATCHDOG from the loop (throttled), STOPPING on the way out."""

    def __init__(self) -> None:
        self._notifier = sdnotify.SystemdNotifier()
        self._last_ping: float | None = None

    def ready(self, status: str) -> None:
        self._notifier.notify(f"READY=1\nSTATUS={status}")

    def ping(self, now: float) -> None:
        if self._last_ping is None or now - self._last_ping >= PING_EVERY:
            self._notifier.notify("WATCHDOG=1")
            self._last_ping = now

    def stopping(self) -> None:
        self._notifier.notify("STOPPING=1")


def under_systemd() -> bool:
    """True when stderr is connected to the journal (systemd sets JOURNAL_STREAM for us)."""
    return "JOURNAL_STREAM" in os.environ


def log_handler() -> logging.Handler:
    """The journal with each record's priority (`journalctl -p err` finds the errors), else stderr.

    Debian's python3-systemd sends records to the journal with their fields (`JournalFields`).
    Without it, under systemd, stderr lines carry the sd-daemon `<N>` priority prefix that
    journald reads; in a shell they carry a timestamp instead.
    """
    if under_systemd():
        try:
            from systemd import journal  # type: ignore[import-not-found]
        except ImportError:
            handler: logging.Handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(_PrefixFormatter("%(name)s: %(message)s"))
            return handler
        return JournalFields(journal.send)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    return handler


def setup_logging(level: str) -> None:
    """Log at `level` ("info") to `log_handler()`: the daemon's set-up and the page's, which
    takes the level as a plain string and imports nothing of the config model for it.

    Under systemd the session's records below a warning are not made at all: each repeats a
    sentence of the play-by-play, which the journal already has from the narrator (below).
    Made and then dropped, they cost a few records' work at every tap."""
    logging.basicConfig(level=getattr(logging, level.upper()), handlers=[log_handler()])
    if under_systemd():
        session = logging.getLogger("tabletap.session")
        session.setLevel(max(logging.WARNING, session.getEffectiveLevel()))


def narrator() -> Callable[[str], None]:
    """Where the play-by-play goes: stdout in a shell, the journal at info priority under systemd.

    The session both narrates an event and logs it; in the journal each event appears once:
    the narration carries accepted events (the session's info records are not made:
    `setup_logging`), the session's warning carries a rejection (its narration is dropped here).
    """
    if not under_systemd():
        return print
    table = logging.getLogger("tabletap.table")

    def narrate(text: str) -> None:
        if not text.lstrip().startswith("✗ rejected"):
            table.info(text.strip())
    return narrate


def _priority(levelno: int) -> int:
    """syslog's priority for a logging level: 2 critical, 3 error, 4 warning, 6 info, 7 debug."""
    if levelno >= logging.CRITICAL:
        return 2
    if levelno >= logging.ERROR:
        return 3
    if levelno >= logging.WARNING:
        return 4
    return 6 if levelno >= logging.INFO else 7


class JournalFields(logging.Handler):
    """A record into the journal through python3-systemd's `journal.send` (its native protocol,
    one entry however many lines: a traceback stays whole), with the fields its JournalHandler
    documents: MESSAGE (the traceback included), PRIORITY, LOGGER, THREAD_NAME, CODE_FILE,
    CODE_LINE, CODE_FUNC and SYSLOG_IDENTIFIER.

    Not that JournalHandler itself: its `emit` also sends every attribute of the record as a
    field of its own (ARGS, LEVELNAME, CREATED, MSECS, PROCESS, ...: for `extra=`, which
    tabletap does not use), about twenty more. A record cost about twice as much through it
    (23-38 against 13-17 µs in a loop), and the daemon logs about seven records a tap: 5 % of
    its CPU a tap, side by side (docs/BENCHMARKS.md, "The box's logging, measured").
    """

    def __init__(self, send: Callable[..., object]) -> None:
        super().__init__()
        self._send = send
        # The message alone: level and logger are fields of their own. Without a formatter of
        # its own, `logging.basicConfig` gives the handler "%(levelname)s:%(name)s:%(message)s",
        # and every entry read "INFO:tabletap.table:ben takes 5 gems" (it did, until 2026-12-06).
        self.setFormatter(logging.Formatter("%(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self._send(self.format(record), PRIORITY=str(_priority(record.levelno)),
                       LOGGER=record.name, THREAD_NAME=record.threadName,
                       CODE_FILE=record.pathname, CODE_LINE=record.lineno,
                       CODE_FUNC=record.funcName, SYSLOG_IDENTIFIER="tabletap")
        except Exception:  # noqa: BLE001 - logging's own rule: a failed record never raises
            self.handleError(record)


class _PrefixFormatter(logging.Formatter):
    """sd-daemon(3) priority prefixes: <3> error, <4> warning, <6> info, <7> debug."""

    def format(self, record: logging.LogRecord) -> str:
        return f"<{_priority(record.levelno)}>{super().format(record)}"


def fatal(message: str) -> None:
    """A start-up error, once: an error in the journal under systemd, else a line on stderr.

    It comes before logging is set up (a broken config has no log level), so it carries the
    sd-daemon prefix itself: `journalctl -p err -u tabletap` shows why the table did not start.
    """
    prefix = "<3>" if under_systemd() else ""
    print(f"{prefix}{message}", file=sys.stderr, flush=True)
