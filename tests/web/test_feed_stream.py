"""The page's feed keeps one stream to the daemon (web/feed.py, `"stream"` in
control_socket/page.py): a change costs the daemon a snapshot, not a new connection, request
line and parse as well.

Before, the feed asked again after every answer: with a phone watching, about 3 ms of the
daemon's CPU per tap went to the page (`python -m bench.live.stopwatch --phone`, 2026-12-05).
Here the daemon's real `snapshot` kind is served by a real ControlServer in a thread that stands
for the daemon's loop (it alone touches the table), and the page's real Feed reads it.
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from tabletap.controller.control_socket import page as web_requests
from tabletap.controller.control_socket.server import ControlServer
from tabletap.web.feed import Feed
from tabletap.web.link import DaemonLink
from tests.core.helpers import magic_keys_table, tap

T = TypeVar("T")


class _Loop:
    """The daemon's loop, as far as the page sees it: requests served, taps played."""

    def __init__(self, tmp_path: Path) -> None:
        self.daemon, self.ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
        web_requests.attach(self.daemon)
        self.lines = 0

        def handler(req: dict[str, Any]) -> Any:
            self.lines += 1  # each request line the daemon had to read and parse
            return web_requests.handle(self.daemon, req) or {"ok": False, "error": "?"}

        self.server = ControlServer(tmp_path / "control.sock", handler)
        self.todo: queue.Queue[Callable[[], None]] = queue.Queue()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            try:
                self.todo.get(timeout=0.005)()
            except queue.Empty:
                pass
            self.server.serve_pending()

    def tap(self, piece: str) -> None:
        self.todo.put(lambda: tap(self.daemon, self.ctx, piece))

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.server.close()


def _in_a_thread(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """`asyncio.run` in a thread of its own: the browser tests' Playwright keeps an event loop
    running in this one."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = asyncio.run(make())
        except BaseException as exc:  # noqa: BLE001 - raised again in the test's thread
            out["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(120)
    if "error" in out:
        raise out["error"]
    return out["value"]


async def _changes(feed: Feed, loop: _Loop, pieces: list[str]) -> list[int]:
    task = asyncio.create_task(feed.run())
    seen: list[int] = []
    try:
        updates = feed.subscribe()
        deadline = time.monotonic() + 10
        while feed.snapshot is None and time.monotonic() < deadline:
            await asyncio.wait_for(updates.get(), 10)
        seen.append(feed.counter or 0)
        for piece in pieces:
            loop.tap(piece)
            before = seen[-1]
            while (feed.counter or 0) <= before:
                await asyncio.wait_for(updates.get(), 10)
            seen.append(feed.counter or 0)
    finally:
        task.cancel()
    return seen


def test_a_watching_page_keeps_one_request_at_the_daemon_for_every_change(tmp_path: Path):
    loop = _Loop(tmp_path)
    try:
        feed = Feed(DaemonLink(loop.server.path), period=0.05)
        pieces = ["magic-keys/key/blue/3", "magic-keys/key/purple/1", "magic-keys/key/blue/2"]
        seen = _in_a_thread(lambda: _changes(feed, loop, pieces))
        assert len(seen) == 4 and seen == sorted(set(seen))  # each tap a newer snapshot
        assert feed.down is None and feed.snapshot is not None
        assert feed.snapshot["actions"] >= 1
        assert loop.lines == 1  # one stream: no new connection, line or parse per change
    finally:
        loop.close()


def test_a_page_whose_daemon_goes_away_says_so_and_comes_back(tmp_path: Path):
    """The stream breaks when the daemon stops; the page says the table is down and, once a
    daemon listens again, takes its whole snapshot afresh."""
    loop = _Loop(tmp_path)
    path = loop.server.path

    async def watch() -> tuple[str | None, dict | None]:
        feed = Feed(DaemonLink(path, timeout=1.0), period=0.05)
        task = asyncio.create_task(feed.run())
        try:
            for _ in range(200):
                if feed.snapshot is not None:
                    break
                await asyncio.sleep(0.02)
            await asyncio.to_thread(loop.close)  # the daemon stops
            for _ in range(200):
                if feed.down is not None:
                    break
                await asyncio.sleep(0.02)
            down = feed.down
            again = await asyncio.to_thread(_Loop, tmp_path / "again")
            try:
                feed.link.path = again.server.path
                for _ in range(300):
                    if feed.down is None:
                        break
                    await asyncio.sleep(0.02)
                return down, feed.snapshot if feed.down is None else None
            finally:
                await asyncio.to_thread(again.close)
        finally:
            task.cancel()

    (tmp_path / "again").mkdir()
    down, snapshot = _in_a_thread(watch)
    assert down is not None and "not answering" in down
    assert snapshot is not None and snapshot["game"] == "magic-keys"


def test_an_unwatched_page_costs_the_daemon_no_snapshot_a_change(tmp_path: Path):
    """web/feed.py: with no browser watching, the stream is bare (the counter, no snapshot),
    so the taps of a table whose page runs with no phone open cost the daemon no snapshot. The
    first browser restarts the stream at the page's pace and gets the whole snapshot at once
    (with the taps made meanwhile); when it goes, the stream is bare again."""
    loop = _Loop(tmp_path)
    side = web_requests._side(loop.daemon)
    built: list[int] = []
    real = side.snapshot

    def counted() -> dict[str, Any]:
        built.append(1)
        return real()

    side.snapshot = counted  # type: ignore[method-assign]

    async def evening() -> tuple[int, int, dict[str, Any], int, int, int]:
        feed = Feed(DaemonLink(loop.server.path), period=0.05)
        task = asyncio.create_task(feed.run())
        try:
            for _ in range(200):  # the first answer: the language, the daemon is there
                if feed.snapshot is not None:
                    break
                await asyncio.sleep(0.02)
            for piece in ["magic-keys/key/blue/3", "magic-keys/key/purple/1"]:
                await asyncio.to_thread(loop.tap, piece)
            await asyncio.sleep(1.5)  # both taps played (0.7 s each) and their changes held
            unwatched = len(built)
            queue = feed.subscribe()
            picture = await asyncio.wait_for(queue.get(), 5)
            watched_lines = loop.lines
            await asyncio.to_thread(loop.tap, "magic-keys/key/blue/2")
            while (await asyncio.wait_for(queue.get(), 5))["snapshot"]["actions"] < 3:
                pass
            feed.unsubscribe(queue)
            for _ in range(100):
                if loop.lines > watched_lines:
                    break
                await asyncio.sleep(0.02)
            before = len(built)
            await asyncio.to_thread(loop.tap, "magic-keys/key/gold")
            await asyncio.sleep(1.0)
            return unwatched, watched_lines, picture, loop.lines, before, len(built)
        finally:
            task.cancel()

    try:
        unwatched, watched_lines, picture, lines, before, after = _in_a_thread(evening)
        assert unwatched == 1  # the first answer's (the table's language), none for the taps
        assert watched_lines == 3  # that first ask, the bare stream, the watched stream
        assert picture["snapshot"]["actions"] == 2  # at once, with the unwatched taps
        assert lines == 4 and after == before  # bare again: no snapshot for a tap
    finally:
        loop.close()


def test_a_browser_that_comes_while_the_unwatched_page_asks_its_first_snapshot_is_fed(
        tmp_path: Path):
    """The first browser may come while the page, watched by none, is still asking the daemon
    for its first snapshot (the table's language, before a bare stream): the stream it then
    opens is the watched one, and the browser gets each change. Before, a browser that came
    while the page said "connecting" was left on the bare stream, and saw no tap."""
    loop = _Loop(tmp_path)

    async def watch() -> dict[str, Any]:
        feed = Feed(DaemonLink(loop.server.path), period=0.05)
        asked, answer = asyncio.Event(), asyncio.Event()
        real = feed.link.ask

        async def slow_ask(payload: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
            asked.set()
            await answer.wait()
            return await real(payload, **kwargs)

        feed.link.ask = slow_ask  # type: ignore[method-assign]
        task = asyncio.create_task(feed.run())
        try:
            await asyncio.wait_for(asked.wait(), 5)  # the unwatched page's first ask
            assert feed.down is not None  # still "connecting to the table"
            queue = feed.subscribe()
            answer.set()
            while not (await asyncio.wait_for(queue.get(), 5)).get("snapshot"):
                pass  # "connecting", then the first snapshot: no move yet
            await asyncio.to_thread(loop.tap, "magic-keys/key/blue/3")
            while True:
                message = await asyncio.wait_for(queue.get(), 5)
                if message["snapshot"]["actions"] >= 1:
                    return message
        finally:
            task.cancel()

    try:
        message = _in_a_thread(watch)
        assert message["snapshot"]["last"]["accepted"] is not None
    finally:
        loop.close()
