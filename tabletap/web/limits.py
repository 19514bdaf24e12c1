"""How far the page lets its clients go: the deadlines and the connection caps, with their
defaults (docs/WEB.md, "Slow clients"). `gate.py` admits connections under the caps,
`deadlines.py` closes them on the deadlines.
"""

from __future__ import annotations

import resource
from dataclasses import dataclass, replace

RESERVE = 64  # descriptors for Python, its modules, the log, the daemon's socket, mDNS


@dataclass(frozen=True)
class Limits:
    """The defaults are a phone's needs many times over: its page, the event stream and a
    few requests at once, over Wi-Fi that may take a second or two per packet."""

    head_seconds: float = 10.0
    body_seconds: float = 10.0
    send_seconds: float = 10.0
    idle_seconds: int = 5
    per_address: int = 64
    in_all: int = 512

    def fitted(self, nofile: int | None = None) -> Limits:
        """These limits with `in_all` no higher than the descriptor limit allows."""
        if nofile is None:
            nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if nofile == resource.RLIM_INFINITY:
            return self
        room = max(1, nofile - RESERVE)
        return replace(self, in_all=min(self.in_all, room),
                       per_address=min(self.per_address, room))
