"""Every installed entry point, read once per process.

Games (`tabletap.games`), adapters (`tabletap.backends`, `tabletap.transports`), commands and
simulators are all found by entry point. Each look-up by group reads every installed
distribution's metadata again (tens of milliseconds on a Pi), so the daemon's start reads it
once, here, and every finder selects from that.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoints, entry_points


@cache
def installed() -> EntryPoints:
    return entry_points()


def select(group: str, name: str | None = None) -> EntryPoints:
    """The entry points of `group` (called `name`, if given)."""
    if name is None:
        return installed().select(group=group)
    return installed().select(group=group, name=name)
