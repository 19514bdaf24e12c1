"""One poller for every browser: it asks the daemon for a snapshot with the last change counter
and hands each new snapshot to the browsers' event streams.

However many phones watch, the daemon sees one small request per period; a browser that reads
slowly only ever gets the newest snapshot (its queue holds one), never a backlog.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from tabletap.web.link import DaemonLink, LinkError

log = logging.getLogger("tabletap.web.feed")
IDLE_PERIOD = 1.0


class Feed:
    def __init__(self, link: DaemonLink, period: float = 0.1) -> None:
        self.link = link
        self.period = period
        self.counter: int | None = None
        self.snapshot: dict[str, Any] | None = None
        self.down: str | None = "connecting to the table"
        self.subscribers: set[asyncio.Queue[dict[str, Any]]] = set()
        self.changed = asyncio.Event()

    def message(self) -> dict[str, Any]:
        """What a browser gets: the snapshot, or why there is none."""
        if self.down is not None:
            return {"down": self.down, "counter": self.counter}
        return {"counter": self.counter, "snapshot": self.snapshot}

    def subscribe(self) -> asyncio.Queue[dict[str, Any]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1)
        queue.put_nowait(self.message())
        self.subscribers.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[dict[str, Any]]) -> None:
        self.subscribers.discard(queue)

    def _publish(self) -> None:
        msg = self.message()
        for queue in list(self.subscribers):
            if queue.full():
                queue.get_nowait()  # a slow browser skips to the newest picture
            queue.put_nowait(msg)

    async def poll_once(self) -> bool:
        """Ask once; True when something changed."""
        try:
            reply = await self.link.ask({"snapshot": True, "since": self.counter})
        except LinkError as exc:
            if self.down is None:
                log.warning("%s", exc)
            changed = self.down != str(exc)
            self.down = str(exc)
            self.counter = None  # a restarted daemon counts afresh: take its whole snapshot
            if changed:
                self._publish()
            return changed
        if not reply.get("ok"):
            self.down = f"the table refused the snapshot: {reply.get('error')}"
            self._publish()
            return True
        was_down = self.down is not None
        self.down = None
        if reply.get("changed") or was_down:
            if "snapshot" in reply:
                self.snapshot = reply["snapshot"]
            self.counter = reply.get("counter")
            self._publish()
            return True
        return False

    async def run(self) -> None:
        """Poll every period while a browser listens, once a second otherwise (GET /api/state
        asks afresh anyway)."""
        while True:
            try:
                await self.poll_once()
            except Exception:  # noqa: BLE001 - the poller must outlive any one bad answer
                log.exception("snapshot poll failed")
            await asyncio.sleep(self.period if self.subscribers else IDLE_PERIOD)
