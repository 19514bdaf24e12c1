"""The table the benches drive: the first installed game whose spec has a `demo` (a short,
known table whose taps open the chest), so no bench module names a game."""

from __future__ import annotations

from tabletap.controller.games import registry
from tabletap.controller.games.spec import Demo, GameSpec


def demo_game() -> tuple[GameSpec, Demo]:
    for spec in registry.games():
        if spec.demo is not None:
            return spec, spec.demo
    raise RuntimeError("no installed game gives the benches a demo table (GameSpec.demo)")
