"""A phone watching the page: its server-sent stream read all along a run (`bench live`'s full
run, `bench.live.stopwatch --phone`). While a phone watches, the page's stream takes a snapshot
from the daemon at each change, so a watching phone costs the daemon CPU at every tap: measured
with one. `Phone(rig, watching=False)` is the page with no phone open (`--page`), a family's
box for most of an evening: its stream is bare (web/feed.py)."""

from __future__ import annotations

import subprocess
import threading
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.live.rig import Rig


class Watcher:
    def __init__(self, url: str) -> None:
        self.url = url
        self.stop = threading.Event()
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        import httpx

        while not self.stop.is_set():
            try:
                with httpx.stream("GET", self.url + "/api/stream", timeout=5) as reply:
                    for _ in reply.iter_bytes():
                        if self.stop.is_set():
                            return
            except httpx.HTTPError:
                time.sleep(0.5)


class Phone:
    """The page (`tabletap web` on the rig's config, `Rig.web`) and a phone watching it (none
    when not `watching`), for a run; `stop()` ends both, and may be called again (in a
    `finally`) however the run ended."""

    def __init__(self, rig: Rig, watching: bool = True) -> None:
        self.web = rig.web()
        self.watcher = Watcher(rig.web_url) if watching else None

    def stop(self) -> None:
        if self.watcher is not None:
            self.watcher.stop.set()
        if self.web.poll() is None:
            self.web.terminate()
            try:
                self.web.wait(10)
            except subprocess.TimeoutExpired:
                self.web.kill()
                self.web.wait()
