"""A phone watching the page: its server-sent stream read all along a run (`bench live`'s full
run, `bench.live.stopwatch --phone`). The page's process asks the daemon for a snapshot at each
change it sees, so a watching phone costs the daemon CPU at every tap: measured with one."""

from __future__ import annotations

import threading
import time


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
