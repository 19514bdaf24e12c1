"""Finding adapters by name through entry points, the way gpiozero finds its pin factories.

controller never imports hw or sim: the config says `backend: gpio` or `transport: uart`, and
whichever installed distribution registered that name under `tabletap.backends` or
`tabletap.transports` provides the adapter. A new adapter needs no change here.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller import entrypoints
from tabletap.controller.ports import Outputs, TagReader
from tabletap.controller.settings.config import Config
from tabletap.controller.table.bedtime import with_bedtime

BACKENDS = "tabletap.backends"
TRANSPORTS = "tabletap.transports"


class AdapterError(RuntimeError):
    pass


def _installed() -> entrypoints.EntryPoints:
    """Every installed entry point, read once per process (controller.entrypoints)."""
    return entrypoints.installed()


def find(group: str, name: str) -> entrypoints.EntryPoints:
    """The entry points called `name` in `group`."""
    return _installed().select(group=group, name=name)


def _load(group: str, name: str) -> Any:
    found = find(group, name)
    if not found:
        known = sorted(ep.name for ep in _installed().select(group=group))
        raise AdapterError(
            f"no adapter called {name!r} in {group} (installed: {', '.join(known) or 'none'}); "
            "is tabletap installed (pip install -e .)?"
        )
    return next(iter(found)).load()


def build_readers(config: Config, context: dict[str, Any]) -> dict[str, TagReader]:
    """One reader per configured name; with `context["sim"]` every reader is simulated."""
    readers: dict[str, TagReader] = {}
    context.setdefault("miss_threshold", config.poll.miss_threshold)  # the readers' re-listings
    for name, cfg in config.readers.items():
        transport = "sim" if context.get("sim") else cfg.transport
        readers[name] = _load(TRANSPORTS, transport)(name, cfg, context)
    return readers


def build_outputs(config: Config, context: dict[str, Any]) -> Outputs:
    """The backend's outputs; with `lights.quiet`, their lights dimmed at bedtime (here, once,
    rather than in each backend: every adapter only has to honour a brightness)."""
    return with_bedtime(_load(BACKENDS, config.backend)(config, context), config.lights.quiet)


def available(group: str) -> list[str]:
    return sorted(ep.name for ep in entrypoints.select(group))
