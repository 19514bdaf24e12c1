"""One watcher for every browser: it asks the daemon for a snapshot with the last change counter
and hands each new snapshot to the browsers' event streams.

The request stays at the daemon for as long as the page runs (`"stream"`: the daemon keeps it
parked and answers on the same connection in the pass that made each change), so a change
reaches the page at once and a quiet table costs the daemon nothing, however many phones watch:
it sees one parked request, answered "no change" every `WAIT` seconds. A browser that reads
slowly only ever gets the newest snapshot (its queue holds one), never a backlog.

While no browser watches, the stream is bare (`"bare": true`: the counter without the
snapshot, at most one answer every UNWATCHED_PACE seconds). The page needs no picture then,
only to know that the daemon is there (a restarted daemon breaks the stream, and its counter
starts afresh) and the table's language, which a daemon keeps for its life: a whole snapshot is
asked once, before the bare stream starts. A snapshot at every change cost the daemon about
1 ms of each tap on a box whose page runs all evening with no phone open
(`python -m bench.live.compare 2075923 --page --together`, docs/BENCHMARKS.md). The first
browser to watch restarts the stream at the page's pace, with a whole snapshot first; the last
one to go makes it bare again. Asked directly (`poll_once`, the page's own requests), the
answer is always fresh.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from tabletap.web.link import DaemonLink, LinkError

log = logging.getLogger("tabletap.web.feed")
IDLE_PERIOD = 1.0  # after a failed ask, before the next
WAIT = 20.0  # seconds a request waits at the daemon for a change
UNWATCHED_PACE = 5.0  # seconds between a bare stream's answers at most (the daemon's limit)


class Feed:
    def __init__(self, link: DaemonLink, period: float = 0.1) -> None:
        self.link = link
        self.period = period
        self.counter: int | None = None
        self.snapshot: dict[str, Any] | None = None
        self.down: str | None = "connecting to the table"
        self.subscribers: set[asyncio.Queue[dict[str, Any]]] = set()
        self._repace = asyncio.Event()  # set when the first browser comes or the last goes

    def message(self) -> dict[str, Any]:
        """What a browser gets: the snapshot, or why there is none."""
        if self.down is not None:
            return {"down": self.down, "counter": self.counter}
        return {"counter": self.counter, "snapshot": self.snapshot}

    def subscribe(self) -> asyncio.Queue[dict[str, Any]]:
        """A browser's queue of pictures. The first browser gets none at once unless the table
        is down: the snapshot an unwatched feed holds is as old as the last one asked, and the
        stream, started again at the page's pace (`run`), brings a whole one in a moment."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1)
        first = not self.subscribers
        if not first or self.down is not None:
            queue.put_nowait(self.message())
        if first:
            self._repace.set()
        self.subscribers.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[dict[str, Any]]) -> None:
        if queue in self.subscribers:
            self.subscribers.discard(queue)
            if not self.subscribers:
                self._repace.set()

    def _publish(self) -> None:
        msg = self.message()
        for queue in list(self.subscribers):
            if queue.full():
                queue.get_nowait()  # a slow browser skips to the newest picture
            queue.put_nowait(msg)

    async def poll_once(self, wait: float = 0.0) -> bool:
        """Ask once, waiting at the daemon up to `wait` seconds for a change; True when
        something changed (the page asks so after a command, to show its result at once)."""
        request: dict[str, Any] = {"snapshot": True, "since": self.counter}
        if wait and self.counter is not None:  # a first snapshot is wanted at once
            request["wait"] = wait
        try:
            reply = await self.link.ask(request, timeout=self.link.timeout + wait)
        except LinkError as exc:
            return self._lost(exc)
        return self._take(reply)

    def _lost(self, exc: LinkError) -> bool:
        if self.down is None:
            log.warning("%s", exc)
        changed = self.down != str(exc)
        self.down = str(exc)
        self.counter = None  # a restarted daemon counts afresh: take its whole snapshot
        if changed:
            self._publish()
        return changed

    def _take(self, reply: dict[str, Any]) -> bool:
        """One answer of the daemon's; True when it is news."""
        if not reply.get("ok"):
            self.down = f"the table refused the snapshot: {reply.get('error')}"
            self._publish()
            return True
        was_down = self.down is not None
        self.down = None
        counter = reply.get("counter")
        if isinstance(counter, int) and isinstance(self.counter, int) and not was_down and (
                counter < self.counter or (counter == self.counter and reply.get("changed"))):
            return False  # overtaken by a newer answer (asked after a command), or seen
        if reply.get("changed") or was_down:
            if "snapshot" in reply:
                self.snapshot = reply["snapshot"]
            self.counter = reply.get("counter")
            self._publish()
            return True
        return False

    async def run(self) -> None:
        """One stream from the daemon for as long as the page runs: an answer at each change,
        at most one every `period` (a burst of changes is one snapshot a period; the daemon
        holds the rest and sends the newest), a quiet answer every WAIT seconds. When it
        breaks (the daemon restarts, or cannot be reached), the page says the table is down
        and tries again a second later. While no browser watches, one whole snapshot and
        then a bare stream; when the first browser comes, the stream starts again at
        `period` with the whole snapshot (the module's docstring says why)."""
        while True:
            watched = bool(self.subscribers)
            self._repace.clear()
            if watched:
                self.counter = None  # the whole snapshot at once, for the browser waiting
            try:
                if not watched and (self.snapshot is None or self.down is not None):
                    await self.poll_once()  # the table's language, and that it answers
                    if self.down is not None:
                        await asyncio.sleep(IDLE_PERIOD)
                        continue
                request: dict[str, Any] = {"snapshot": True, "since": self.counter,
                                           "wait": WAIT, "stream": self.period}
                if not watched:
                    request.update(stream=UNWATCHED_PACE, bare=True)
                if await self._read(request, take=watched):
                    continue  # a browser came, or the last one went: at the other pace now
            except LinkError as exc:
                self._lost(exc)
            except Exception:  # noqa: BLE001 - the feed must outlive any one bad answer
                log.exception("the snapshot stream failed")
            await asyncio.sleep(IDLE_PERIOD)

    async def _read(self, request: dict[str, Any], take: bool) -> bool:
        """Read the stream until it breaks (its LinkError raised) or the pace must change
        (True), taking its answers if `take` (a bare stream's say only that the daemon is
        there); the stream's connection is closed either way."""

        async def read() -> None:
            async for reply in self.link.stream(request, WAIT + self.link.timeout):
                if take or not reply.get("ok"):
                    self._take(reply)  # a refusal is news: the page says why it has no picture

        reading = asyncio.ensure_future(read())
        repace = asyncio.ensure_future(self._repace.wait())
        try:
            await asyncio.wait({reading, repace}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            pending = [task for task in (reading, repace) if not task.done()]
            for task in pending:
                task.cancel()
            if pending:  # closed before going on; a cancel of this task still ends it
                await asyncio.wait(pending)
        if reading.done() and not reading.cancelled():
            reading.result()  # the stream's end: a LinkError, or a bug
            return False
        return True
