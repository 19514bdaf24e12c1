"""Old module paths, kept importable: scripts, tests and add-ons written before the games became
plugins and the controller was grouped by concern import them, and get the very module objects
of the new homes, never a second copy (a monkeypatch on either name patches the one module).

- A game: an engine lived at `tabletap.controller.rules.<game>` and a table layer at
  `tabletap.controller.games.<game>`; they resolve to `tabletap.games.<game>.rules` and
  `.table`. The mapping is by form, not by name: any `<game>` that is a package under
  `tabletap.games` resolves, so this module names no game.
- The controller's flat modules (MOVED): `tabletap.controller.journal` is
  `tabletap.controller.state.journal`, and so on; a game's page extras,
  `tabletap.controller.web_<piece prefix>`, are its package's `page` module.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Any

GAMES = "tabletap.games"
# old parent package -> the module of a game's package it stood for
OLD_HOMES = {"tabletap.controller.rules": "rules", "tabletap.controller.games": "table"}
# the controller's modules before it was grouped by concern: old name -> new name
MOVED = {f"tabletap.controller.{old}": f"tabletap.controller.{new}" for old, new in {
    "adapters": "table.adapters", "atomic": "state.atomic", "config": "settings.config",
    "configpath": "settings.path", "control": "control_socket.server",
    "daemon": "table.daemon", "enrolment": "table.enrolment", "gamespec": "games.spec",
    "identity": "table.identity", "journal": "state.journal", "notices": "table.notices",
    "pairing": "control_socket.pairing",
    "pieces": "table.pieces", "presence": "table.presence", "protocols": "table.protocols",
    "registry": "games.registry", "requests": "control_socket.requests",
    "runtime": "table.runtime", "service": "table.service", "session": "table.session",
    "speech": "spoken.words", "statelock": "state.lock", "table_health": "health.table",
    "tablesetup": "table.setup", "tagging": "table.tagging", "takeback": "table.takeback",
    "voice": "spoken.speaker", "web_requests": "control_socket.page",
    "yamlsource": "loading.source", "rules.bounded": "loading.bounded",
    "rules.yamldoc": "loading.yamldoc",
}.items()}


def target(fullname: str) -> str | None:
    """The new name of an old module path, or None when `fullname` is not one."""
    if fullname in MOVED:
        return MOVED[fullname]
    if fullname.startswith(PAGE_EXTRAS):
        return _page_of(fullname[len(PAGE_EXTRAS):])
    for home, part in OLD_HOMES.items():
        if not fullname.startswith(home + "."):
            continue
        game, _, rest = fullname[len(home) + 1:].partition(".")
        if not game.isidentifier() or importlib.util.find_spec(f"{GAMES}.{game}") is None:
            return None
        return ".".join(filter(None, (GAMES, game, part, rest)))
    return None


class _Alias:
    """A loader (by the protocol importlib.abc.Loader describes, which costs an import of
    importlib.resources to subclass) handing out a module already imported."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.spec = module.__spec__

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self.spec  # the import system set the alias's spec: put back its own


class _Finder:
    """A meta path finder (by protocol) for the old paths."""

    def find_spec(self, fullname: str, path: Any = None,
                  target_module: Any = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED and not fullname.startswith((*OLD_HOMES, PAGE_EXTRAS)):
            return None
        new = target(fullname)
        if new is None:
            return None
        module = importlib.import_module(new)
        return importlib.util.spec_from_loader(fullname, _Alias(module))


# `tabletap.controller.web_<piece prefix>`: a game's page extras, before they moved into its
# package as `page.py`; found through the games' entry points by the prefix, not by a name here
PAGE_EXTRAS = "tabletap.controller.web_"


def _page_of(prefix: str) -> str | None:
    from tabletap.controller import entrypoints

    for ep in entrypoints.select("tabletap.games"):
        try:
            spec = ep.load()
        except Exception:  # noqa: BLE001 - a broken add-on is the registry's to report
            continue
        if getattr(spec, "piece_prefix", None) == prefix:
            page = f"{ep.module}.page"
            return page if importlib.util.find_spec(page) is not None else None
    return None


_FINDER = _Finder()


def install() -> None:
    """Put the finder first, so an old path never loads a game's file a second time."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


# names an old module had that now live elsewhere: "module" -> {name: "new.module:name"}
OLD_NAMES = {
    "tabletap.controller.rules": {
        "engine_for": "tabletap.controller.games.registry:engine_for",
        "game_names": "tabletap.controller.games.registry:game_names",
    },
}


def attribute(package: str, name: str) -> Any:
    """`package.name` by its old home: a name that moved (OLD_NAMES), else a submodule."""
    moved = OLD_NAMES.get(package, {}).get(name)
    if moved is not None:
        module, _, attr = moved.partition(":")
        return getattr(importlib.import_module(module), attr)
    return submodule(package, name)


def submodule(package: str, name: str) -> ModuleType:
    """`package.name` by its old path, for the old parent packages' `__getattr__`."""
    if name.startswith("__") or target(f"{package}.{name}") is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    return importlib.import_module(f"{package}.{name}")
