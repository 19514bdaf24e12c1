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

    Debian's python3-systemd gives the real JournalHandler (priority, logger name, code
    location as journal fields). Without it, under systemd, stderr lines carry the sd-daemon
    `<N>` priority prefix that journald reads; in a shell they carry a timestamp instead.
    """
    if under_systemd():
        try:
            from systemd.journal import JournalHandler  # type: ignore[import-not-found]
        except ImportError:
            handler: logging.Handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(_PrefixFormatter("%(name)s: %(message)s"))
            handler.addFilter(_once)
            return handler
        handler = JournalHandler(SYSLOG_IDENTIFIER="tabletap")
        handler.addFilter(_once)
        return handler
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    return handler


def setup_logging(level: str) -> None:
    """Log at `level` ("info") to `log_handler()`: the daemon's set-up and the page's, which
    takes the level as a plain string and imports nothing of the config model for it."""
    logging.basicConfig(level=getattr(logging, level.upper()), handlers=[log_handler()])


def narrator() -> Callable[[str], None]:
    """Where the play-by-play goes: stdout in a shell, the journal at info priority under systemd.

    The session both narrates an event and logs it; in the journal each event appears once:
    the narration carries accepted events (the session's info records are dropped by `_once`),
    the session's warning carries a rejection (its narration is dropped here).
    """
    if not under_systemd():
        return print
    table = logging.getLogger("tabletap.table")

    def narrate(text: str) -> None:
        if not text.lstrip().startswith("✗ rejected"):
            table.info(text.strip())
    return narrate


def _once(record: logging.LogRecord) -> bool:
    return not (record.name == "tabletap.session" and record.levelno < logging.WARNING)


class _PrefixFormatter(logging.Formatter):
    """sd-daemon(3) priority prefixes: <3> error, <4> warning, <6> info, <7> debug."""

    PRIORITY = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4, logging.INFO: 6}

    def format(self, record: logging.LogRecord) -> str:
        return f"<{self.PRIORITY.get(record.levelno, 7)}>{super().format(record)}"


def fatal(message: str) -> None:
    """A start-up error, once: an error in the journal under systemd, else a line on stderr.

    It comes before logging is set up (a broken config has no log level), so it carries the
    sd-daemon prefix itself: `journalctl -p err -u tabletap` shows why the table did not start.
    """
    prefix = "<3>" if under_systemd() else ""
    print(f"{prefix}{message}", file=sys.stderr, flush=True)
