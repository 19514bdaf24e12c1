"""One watcher for every browser: it asks the daemon for a snapshot with the last change counter
and hands each new snapshot to the browsers' event streams.

The request waits at the daemon until the table changes (`"wait"`, a long poll: the daemon
parks it and answers in the pass that made the change), so a change reaches the page at once
and a quiet table costs the daemon nothing, however many phones watch: it sees one parked
request, renewed every `WAIT` seconds. A browser that reads slowly only ever gets the newest
snapshot (its queue holds one), never a backlog.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from tabletap.web.link import DaemonLink, LinkError

log = logging.getLogger("tabletap.web.feed")
IDLE_PERIOD = 1.0  # after a failed ask, before the next
WAIT = 20.0  # seconds a request waits at the daemon for a change


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

    async def poll_once(self, wait: float = 0.0) -> bool:
        """Ask once, waiting at the daemon up to `wait` seconds for a change; True when
        something changed."""
        request: dict[str, Any] = {"snapshot": True, "since": self.counter}
        if wait and self.counter is not None:  # a first snapshot is wanted at once
            request["wait"] = wait
        try:
            reply = await self.link.ask(request, timeout=self.link.timeout + wait)
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
        counter = reply.get("counter")
        if isinstance(counter, int) and isinstance(self.counter, int) and counter < self.counter:
            return False  # a parked answer overtaken by a newer one (asked after a command)
        if reply.get("changed") or was_down:
            if "snapshot" in reply:
                self.snapshot = reply["snapshot"]
            self.counter = reply.get("counter")
            self._publish()
            return True
        return False

    async def run(self) -> None:
        """Wait for each change in turn; after a failure, try again a second later. `period`
        still spaces two answers, so a burst of changes is one snapshot a period, not one
        each (the daemon keeps counting; the next ask takes the newest)."""
        while True:
            try:
                changed = await self.poll_once(WAIT)
                failed = self.down is not None
            except Exception:  # noqa: BLE001 - the poller must outlive any one bad answer
                log.exception("snapshot poll failed")
                changed, failed = False, True
            if failed:
                await asyncio.sleep(IDLE_PERIOD)
            elif changed:
                await asyncio.sleep(self.period)
