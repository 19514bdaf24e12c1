"""Python's cyclic garbage collector, held off while a command starts; the daemon's start set
aside for good at READY.

Why: a start makes objects that live as long as the process (modules, classes, the config, the
game's data and tables) and almost no garbage, but the collector cannot know that. It runs a
pass over the youngest objects every 700 allocations, and an older generation's every tenth
of those, tracing the same long-lived objects again and again: 3.2 % of the instructions from
the daemon's exec to READY (docs/BENCHMARKS.md, "The collector held off during the start").

So `cli.main` holds the collector while it imports and parses (`hold`), for every command.
Any command but `tabletap run` lets it go before running (`release`). The daemon keeps it held
until just before READY, then `settle`s: `gc.freeze()` moves every object made so far into the
permanent generation, which no collection traces again, and the collector runs as usual on
what comes after. Without the freeze, the first collection after READY would trace the whole
start's heap at once (about 38,000 objects, at a family's first tap); the work would only move
past READY, not go.

The price: the start's own cyclic garbage is frozen with the rest and never freed. Measured on
the bench's table, that is about 500 objects (79 KiB, mostly throwaway functions and tuples of
classes built at import), once per start, however long the daemon runs.
"""

from __future__ import annotations

import gc


def hold() -> None:
    """No automatic collections from here: what is made now lives as long as the process."""
    gc.disable()


def release() -> None:
    """The collector as usual again (a command's run, a start that failed). Idempotent."""
    gc.enable()


def settle() -> None:
    """The start is over: its objects to the permanent generation, never traced again; then
    the collector as usual. Constant time: the freeze moves the generations' lists whole."""
    gc.freeze()
    gc.enable()
