"""Every installed entry point, read once per process, and kept between the daemon's starts.

Games (`tabletap.games`), adapters (`tabletap.backends`, `tabletap.transports`), commands and
simulators are all found by entry point. Each look-up by group reads every installed
distribution's metadata again (tens of milliseconds on a Pi), so a process reads it once, here,
and every finder selects from that.

The daemon does better: `importlib.metadata` with the `email` package it imports, and its scan of
the installed distributions, were 8 % of its start in instructions (docs/BENCHMARKS.md, "The start
without PyYAML"; the control socket's `hello` no longer reads its version there). So the entry
points found are kept (controller.startcache) with what they were read from: each folder on
`sys.path` and its modification time. Installing or removing a distribution adds or removes a
`*.dist-info` folder in one of them, which changes its time, and the next start reads the metadata
again. A start whose folders are unchanged takes the kept list and never imports
`importlib.metadata`.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
from functools import cache, reduce
from typing import Any

import msgspec

from tabletap.controller import startcache

KEPT = "entrypoints.kept"
FORMAT = 1

log = logging.getLogger(__name__)


class EntryPoint(msgspec.Struct, frozen=True, array_like=True):
    """One entry point, as `importlib.metadata.EntryPoint` gives it (`module:attr` in
    `value`), loaded the same way, but made without importing `importlib.metadata`."""

    name: str
    value: str
    group: str

    @property
    def module(self) -> str:
        return self.value.partition(":")[0].partition("[")[0].strip()

    @property
    def attr(self) -> str | None:
        return self.value.partition(":")[2].partition("[")[0].strip() or None

    def load(self) -> Any:
        """The object the entry point names: its module imported, then each attribute."""
        module = importlib.import_module(self.module)
        return reduce(getattr, filter(None, (self.attr or "").split(".")), module)


class EntryPoints(tuple[EntryPoint, ...]):
    """Entry points, selected as `importlib.metadata.EntryPoints` are."""

    def select(self, group: str | None = None, name: str | None = None) -> EntryPoints:
        return EntryPoints(ep for ep in self if (group is None or ep.group == group)
                           and (name is None or ep.name == name))


class _Kept(msgspec.Struct, array_like=True):
    format: int
    where: list[tuple[str, int]]
    found: list[EntryPoint]


def _where() -> list[tuple[str, int]]:
    """Every folder or archive on `sys.path` with its modification time (0 if missing): the
    metadata's places, whose times change when a distribution comes or goes."""
    out = []
    for entry in sys.path:
        try:
            out.append((entry, os.stat(entry or ".").st_mtime_ns))
        except OSError:
            out.append((entry, 0))
    return out


def _read() -> list[EntryPoint]:
    from importlib.metadata import entry_points  # imported only when nothing kept will do

    every = entry_points()  # by group: Python 3.11's has no flat iteration, 3.12's has
    return [EntryPoint(ep.name, ep.value, ep.group)
            for group in sorted(every.groups) for ep in every.select(group=group)]


@cache
def installed() -> EntryPoints:
    if startcache.folder() is None:
        return EntryPoints(_read())
    where = _where()
    body = startcache.read(KEPT)
    if body is not None:
        try:
            kept = msgspec.msgpack.decode(body, type=_Kept)
        except msgspec.DecodeError as exc:  # its types are strict: no deep nesting decodes
            log.debug("the kept entry points are not used: %s", exc)
        else:
            if kept.format == FORMAT and kept.where == where:
                return EntryPoints(kept.found)
    found = _read()
    startcache.write(KEPT, msgspec.msgpack.encode(_Kept(FORMAT, where, found)))
    return EntryPoints(found)


def select(group: str, name: str | None = None) -> EntryPoints:
    """The entry points of `group` (called `name`, if given)."""
    return installed().select(group=group, name=name)
