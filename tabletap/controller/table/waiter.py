"""The one wait of the daemon's loop: readers, the control socket, the console and the timers.

Between two passes the loop waits here, in a single selector kept for the daemon's life, on
everything that can ask for its attention at once: every waiting reader's descriptor (a UART, an
IRQ line), the control socket (the listening socket and each console being read), and, under
`--sim`, the typed console. The pause ends at the loop's next timer (the pass's deadline) or
when a reader answers or a console line arrives (a tap typed at the simulator is seen at once);
a request on the control socket is answered the moment it arrives and the pause goes on. So
nothing waits for a pause to end, and an idle daemon sleeps until something happens or a timer
is due.

Readers whose wait handle is not a descriptor (the simulator's in-process emulated ports, which
keep their own clock) are waited on as timers: their `ready_at()` says when the first byte of an
answer is on the host's side, and nothing outside the loop's own thread changes their field.
"""

from __future__ import annotations

import contextlib
import logging
import os
import selectors
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("tabletap.daemon")

READER, REQUEST, CONSOLE, WAKE = "reader", "request", "console", "wake"


class Console:
    """Lines typed on a descriptor (the simulator's standard input), read without blocking the
    loop: whole lines are handed over as they arrive; `None` after the end of input."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._buffer = b""
        self.closed = False

    def fileno(self) -> int:
        return self.fd

    def read_lines(self) -> list[str | None]:
        try:
            chunk = os.read(self.fd, 65536)
        except BlockingIOError:
            return []
        except OSError:
            chunk = b""
        if not chunk:
            self.closed = True
            rest, self._buffer = self._buffer, b""
            tail: list[str | None] = [rest.decode(errors="replace").strip()] if rest else []
            return [*tail, None]
        self._buffer += chunk
        *lines, self._buffer = self._buffer.split(b"\n")
        return [line.decode(errors="replace").strip() for line in lines]


class LoopWaiter:
    """One selector for the loop's whole life; what it watches is brought up to date at each
    wait (clients come and go, readers arm and disarm), which costs a set comparison."""

    def __init__(self, console: Console | None = None,
                 on_lines: Callable[[list[str | None]], None] | None = None) -> None:
        self._selector = selectors.DefaultSelector()
        self._watched: dict[int, tuple[Any, str]] = {}
        self.console = console
        self._on_lines = on_lines
        self._console_polled = False  # a console epoll refuses (a regular file): read each wait
        # another thread's news (a button the Pico or gpiozero reported): `wake()` ends a wait
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, WAKE)

    def wake(self) -> None:
        """End the wait now (thread-safe): an input arrived that the next pass must handle."""
        with contextlib.suppress(OSError):  # a full pipe is a wake already pending
            os.write(self._wake_w, b"!")

    def close(self) -> None:
        self._selector.close()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _watch(self, wanted: dict[int, tuple[Any, str]]) -> None:
        """Everything stays registered while the same object holds the fd. A reader's handle
        is one object for as long as its port stays open (UartTransport.wait_handle), so a
        port closed and reopened on the same number comes with a new handle and is
        registered afresh, not left out of the kernel's set without a word (epoll forgets a
        closed descriptor). Registering every reader at every wait cost two `epoll_ctl` a
        pass."""
        for fd in [fd for fd, (obj, _) in self._watched.items()
                   if fd not in wanted or wanted[fd][0] is not obj]:
            with contextlib.suppress(KeyError, ValueError, OSError):
                self._selector.unregister(fd)
            del self._watched[fd]
        for fd, (obj, kind) in wanted.items():
            if fd in self._watched:
                continue
            try:
                self._selector.register(fd, selectors.EVENT_READ, kind)
            except PermissionError:  # a regular file cannot be waited on: it is always ready
                if kind == CONSOLE:
                    self._console_polled = True
                continue
            except (KeyError, ValueError, OSError):
                continue  # closed under us: the next pass finds out
            self._watched[fd] = (obj, kind)

    def wait(self, seconds: float, handles: list[Any], requests: Callable[[], list[Any]] | None,
             serve: Callable[[], object] | None, timers: list[float] | None = None,
             after_request: float | None = None,
             serve_due: Callable[[], float | None] | None = None) -> str | None:
        """Wait up to `seconds` (or until the soonest of `timers`, monotonic times); returns
        READER when a reader answered, CONSOLE when console lines were handed over, WAKE when
        another thread called `wake()`, None when the time ran out. Requests are served as
        they come and do not end the wait, but with `after_request` it ends that long after
        one at the latest (a request may have started something the next pass must tick: a
        pairing window's light code, say, while the pause was stretched over a quiet table).
        `serve_due()` (the control socket's held answers, ControlServer.due) is a moment to serve
        the requests at and go on waiting: no pass of the readers for it."""
        end = time.monotonic() + seconds
        if timers:
            end = min(end, *timers)
        while True:
            wanted: dict[int, tuple[Any, str]] = {}
            for handle in handles:
                with contextlib.suppress(OSError, ValueError):
                    wanted[handle.fileno()] = (handle, READER)
            for sock in requests() if requests is not None else ():
                with contextlib.suppress(OSError, ValueError):
                    wanted.setdefault(sock.fileno(), (sock, REQUEST))
            console = self.console
            if console is not None and not console.closed and not self._console_polled:
                wanted[console.fileno()] = (console, CONSOLE)
            self._watch(wanted)
            if console is not None and not console.closed and self._console_polled:
                if self._hand_over(console):
                    return CONSOLE
            # With the pass's time already spent (a slow pass, a failing reader's timeouts)
            # the selector is still asked, without waiting: the loop takes no new console
            # after its passes (ControlServer.serve_pending(accept=False)), so a busy loop
            # must take them here.
            now = time.monotonic()
            left = end - now
            serve_at = serve_due() if serve_due is not None and serve is not None else None
            if serve_at is not None and serve_at >= end:
                serve_at = None
            until = end if serve_at is None else serve_at
            kinds = {key.data for key, _ in self._selector.select(max(0.0, until - now))}
            if WAKE in kinds:
                with contextlib.suppress(OSError):
                    os.read(self._wake_r, 4096)
                return WAKE
            if CONSOLE in kinds and console is not None and self._hand_over(console):
                return CONSOLE
            if REQUEST in kinds and serve is not None:
                serve()
                if after_request is not None:
                    end = min(end, time.monotonic() + after_request)
            if READER in kinds:
                return READER
            if serve_at is not None and time.monotonic() >= serve_at:
                if REQUEST not in kinds:
                    serve()  # a held answer is due (a stream's pace)
                continue
            if not kinds or left <= 0:
                return None

    def _hand_over(self, console: Console) -> bool:
        lines = console.read_lines()
        if lines and self._on_lines is not None:
            self._on_lines(lines)
        return bool(lines)
