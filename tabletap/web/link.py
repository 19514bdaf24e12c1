"""The page's way to the daemon: one JSON line out, one back, over the control socket; or, for
the feed, one line out and an answer at each change for as long as the page runs (`stream`).

Asynchronous so a slow or absent daemon never blocks the page's other requests; every call has a
deadline, and anything that goes wrong on the way is a LinkError the API answers with 503.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

REPLY_LIMIT = 4 * 1024 * 1024  # a snapshot with four full kingdoms is a few tens of KiB


class LinkError(RuntimeError):
    """The daemon could not be asked (not running, or it did not answer in time)."""


class DaemonLink:
    def __init__(self, path: str | Path, timeout: float = 3.0) -> None:
        self.path = Path(path)
        self.timeout = timeout

    async def ask(self, payload: dict[str, Any], with_id: bool = False,
                  timeout: float | None = None) -> dict[str, Any]:
        """The daemon's answer to `payload`. `with_id` adds a fresh request id, so a daemon that
        remembers ids answers a repeat instead of acting twice; `timeout` for a request the
        daemon takes its time over (the table check waits on the lights and the servo)."""
        if with_id:
            payload = {**payload, "id": uuid.uuid4().hex}
        try:
            return await asyncio.wait_for(self._ask(payload), timeout or self.timeout)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
            raise LinkError(f"the table is not answering ({_why(exc)})") from None

    async def stream(self, payload: dict[str, Any],
                     silence: float) -> AsyncIterator[dict[str, Any]]:
        """Each answer to a request that streams (`{"snapshot": ..., "stream": P}`) as it
        arrives. LinkError when the daemon cannot be reached, closes the connection, or says
        nothing for `silence` seconds (it answers a quiet table every `wait` seconds)."""
        # asyncio.timeout, not wait_for: Python 3.11's wait_for drops a cancel that comes as
        # the line does, and the feed cancels this stream to open another (web/feed.py)
        writer = None
        try:
            async with asyncio.timeout(self.timeout):
                reader, writer = await asyncio.open_unix_connection(str(self.path),
                                                                    limit=REPLY_LIMIT)
                writer.write(json.dumps(payload).encode() + b"\n")
                await writer.drain()
            while True:
                async with asyncio.timeout(silence):
                    raw = await reader.readline()
                if not raw:
                    raise ValueError("the daemon closed the connection")
                yield _reply(raw)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
            raise LinkError(f"the table is not answering ({_why(exc)})") from None
        finally:
            if writer is not None:
                writer.close()

    async def _ask(self, payload: dict[str, Any]) -> dict[str, Any]:
        reader, writer = await asyncio.open_unix_connection(str(self.path), limit=REPLY_LIMIT)
        try:
            writer.write(json.dumps(payload).encode() + b"\n")
            await writer.drain()
            raw = await reader.readline()
        finally:
            writer.close()
        if not raw:
            raise ValueError("the daemon closed the connection without an answer")
        return _reply(raw)


def _reply(raw: bytes) -> dict[str, Any]:
    reply = json.loads(raw)
    if not isinstance(reply, dict):
        raise ValueError("the daemon's answer is not a JSON object")
    return reply


def _why(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
