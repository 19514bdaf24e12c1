"""Bounds on the page's connections, so slow or many clients cannot lock a phone out.

uvicorn gives the first request head no deadline at all, and its keep-alive timer stops at the
first byte, so a half-sent request holds its descriptor for good; at the descriptor limit the
event loop logs "Too many open files", stops accepting, and every phone's request times out
(issue 22: 240 slow sockets against a limit of 230). Here:

- `gate.py` counts connections by client address as they are accepted and closes any past
  the caps before reading a byte;
- `BoundedH11` here, uvicorn's own h11 protocol with deadlines: a whole request head within
  `head_seconds` of connecting (or of the last answer on a kept-alive connection), the whole
  body within `body_seconds` of the head, and an answer the client stops reading closed after
  `send_seconds`. An idle kept-alive connection is uvicorn's `timeout_keep_alive`
  (`idle_seconds`). A request being answered (the event stream) has no deadline: it is the page's.

The numbers are `limits.Limits`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from tabletap.web.gate import Gate, address_key, peer_host

log = logging.getLogger("tabletap.web")

WHY = {"head": "its request head took too long", "body": "its request body took too long",
       "answer": "it stopped reading its answer"}


class BoundedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline on each part the client sends (and on an
    answer it does not read). `gate` is set by `protocol_for()`."""

    gate: ClassVar[Gate]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._key: str | None = None
        self._phase: str | None = None  # "head" or "body" while the client owes us those
        self._timer: asyncio.TimerHandle | None = None
        self._stall: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._key = address_key(peer_host(transport.get_extra_info("peername")))
        super().connection_made(transport)
        self._follow()

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in (self._timer, self._stall):
            if timer is not None:
                timer.cancel()
        self._timer = self._stall = None
        if self._key is not None:
            self.gate.leave(self._key)
            self._key = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stall is None:
            self._stall = self.loop.call_later(self.gate.limits.send_seconds, self._expire,
                                               "answer")

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None

    def _follow(self) -> None:
        """Arm the deadline of what the client owes now: a head, a body, or nothing."""
        state = self.conn.their_state
        phase = "head" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None
        if phase == self._phase:
            return
        self._phase = phase
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if phase is not None:
            limits = self.gate.limits
            seconds = limits.head_seconds if phase == "head" else limits.body_seconds
            self._timer = self.loop.call_later(seconds, self._expire, phase)

    def _expire(self, what: str) -> None:
        if what in ("head", "body"):
            self._timer = None
            if self._phase != what:
                return
        else:
            self._stall = None
        # abort(), not close(): a closing transport still waits for an unread answer to drain.
        log.debug("closed a connection from %s: %s", self._key, WHY[what])
        if self._key is not None:
            self.gate.lapsed(self._key)
        self.transport.abort()


def protocol_for(gate: Gate) -> type[BoundedH11]:
    """A `BoundedH11` class counting against `gate` (uvicorn's `Config(http=...)` takes a
    class and builds one instance per connection)."""
    return type("BoundedH11", (BoundedH11,), {"gate": gate})
