"""The folders read as the architecture (docs/CONTRACTS.md, "Layout"): every import in
tabletap/ points down or sideways within its own folder, and no modules import each other in a
circle. Imports inside functions count: they are arrows too, only later.

Floors of the controller, from the ground up; a module may import its own floor's modules only
within its own folder, and any floor below. Outside the controller: games, hw, sim, web and
firmware each import only what docs/CONTRACTS.md allows.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tabletap"
CONTROLLER_FLOORS = [
    {"startcache"},  # what the daemon keeps between starts (its state folder's cache/)
    {"loading", "ports", "clock", "entrypoints", "unguessable", "collector"},
    {"language"},  # sentences not yet in a language, their catalogs (docs/LANGUAGES.md)
    {"patterns"},  # the lights' patterns and colours, whose names are said
    {"legacy", "__init__"},  # old paths, resolved by name; the package's face installs them
    {"rules"},
    {"games"},
    {"state", "spoken", "selfplay"},
    {"settings"},
    {"table"},
    {"health"},
    {"control_socket"},
    {"commands"},
    {"cli"},
]
# top folder -> the top folders it may import (besides itself)
ALLOWED = {
    "controller": set(),
    "games": {"controller"},
    "hw": {"controller", "firmware"},
    "sim": {"controller", "hw", "firmware"},
    "web": {"controller"},
    "firmware": set(),
}
# the legacy finder maps old paths by string; it names no module it imports statically


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _imports(path: Path, name: str, known: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            # `from package import module` depends on the module; `from module import name`
            # on the module
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def _graph() -> dict[str, set[str]]:
    known = _modules()
    return {name: _imports(path, name, known) for name, path in known.items()}


def _floor(module: str) -> tuple[int, str] | None:
    parts = module.split(".")
    if parts[:2] != ["tabletap", "controller"]:
        return None
    group = parts[2] if len(parts) > 2 else "__init__"
    for n, floor in enumerate(CONTROLLER_FLOORS):
        if group in floor:
            return n, group
    raise AssertionError(f"{module}: its folder {group!r} is on no floor of this test")


def _running_back_up(graph: dict[str, set[str]]) -> list[str]:
    wrong = []
    for module, targets in graph.items():
        top = module.split(".")[1] if module.count(".") else ""
        for target in targets:
            other = target.split(".")[1] if target.count(".") else ""
            if top and other and other != top and other not in ALLOWED.get(top, set()):
                wrong.append(f"{module} -> {target} ({top} may not import {other})")
            mine, theirs = _floor(module), _floor(target)
            across = theirs is not None and mine is not None and theirs[0] == mine[0] \
                and theirs[1] != mine[1] and mine[1] != "__init__"  # the package's face
            if mine and theirs and (theirs[0] > mine[0] or across):
                wrong.append(f"{module} -> {target} (floor {mine[0]} {mine[1]} imports floor "
                             f"{theirs[0]} {theirs[1]})")
    return sorted(wrong)


def test_every_import_points_down():
    wrong = _running_back_up(_graph())
    assert not wrong, "imports that run back up or across:\n" + "\n".join(wrong)


def test_no_modules_import_each_other_in_a_circle():
    graph = _graph()
    state: dict[str, int] = {}
    circles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                circles.append(" -> ".join(path[path.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    # a package's __init__ importing its own submodule, which imports the package, is Python's
    # ordinary way to export a package's face, not a circle of design
    real = [c for c in circles if not _package_face(c)]
    assert not real, "circles:\n" + "\n".join(real)


def _package_face(circle: str) -> bool:
    nodes = circle.split(" -> ")
    return len(set(nodes)) == 2 and any(nodes[0].startswith(n + ".") or n.startswith(
        nodes[0] + ".") for n in nodes[1:])


def test_the_check_sees_an_arrow_back_up():
    """The check can fail: an import of a higher floor, one across folders of a floor, and one
    into a package the folder may not use are each found; the real graph is read from the code
    (the session's import of the journal is in it)."""
    up = {"tabletap.controller.state.journal": {"tabletap.controller.table.session"}}
    across = {"tabletap.controller.state.journal": {"tabletap.controller.spoken.words"}}
    outward = {"tabletap.controller.table.session": {"tabletap.hw.gpio.chest"}}
    for graph in (up, across, outward):
        assert len(_running_back_up(graph)) == 1, graph
    assert not _running_back_up({"tabletap.controller.table.session":
                                 {"tabletap.controller.state.journal"}})
    assert "tabletap.controller.state.journal" in _graph()["tabletap.controller.table.session"]
