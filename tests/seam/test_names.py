"""Games are plugins (docs/ADDING-A-GAME.md): outside a game's own package, its docs and its
scenarios, no file of the project names the game, its title, its package or its piece prefix.

This is what keeps the next game from touching the controller: a name-keyed table or a special
case for one game anywhere else fails here, naming the file and line. Code is scanned (Python,
JavaScript, styles, pages, shell, the Makefile, pyproject.toml, scripts); documentation, data
files (a scripted table for the image's boot test is content) and the tests, which are the
games' own, are not. pyproject.toml's registration of the shipped games is the one place that
must name them, and only those lines are allowed.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tabletap.controller.games import registry

ROOT = Path(__file__).resolve().parents[2]
EXEMPT_DIRS = ("docs/", "scenarios/", "tests/", "examples/")
# pyproject.toml: the entry points that register the shipped games
REGISTRATION = re.compile(r'^[a-z0-9-]+ = "tabletap\.games\.[a-z_]+:GAME"$')


def _tracked() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / p for p in out if not p.startswith(EXEMPT_DIRS) and _is_code(ROOT / p)]


CODE = {".py", ".js", ".css", ".html", ".sh", ".toml", ".service", ".cfg"}


def _is_code(path: Path) -> bool:
    if not path.is_file() or path.is_symlink():
        return False
    if path.suffix in CODE or path.name == "Makefile":
        return True
    if path.suffix:
        return False
    with path.open("rb") as f:
        return f.read(2) == b"#!"  # a script


def _words(spec: registry.GameSpec) -> re.Pattern[str]:
    package = registry.package_of(spec.name).rsplit(".", 1)[-1]
    names = {spec.name, spec.piece_prefix, package, spec.title,
             spec.name.replace("-", " "), spec.title.lower()}
    alternatives = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    return re.compile(rf"(?<![a-z0-9])(?:{alternatives})(?![a-z0-9])", re.IGNORECASE)


SHIPPED = [s for s in registry.games() if registry.package_of(s.name).startswith("tabletap.")]


@pytest.mark.parametrize("spec", SHIPPED, ids=lambda s: s.name)
def test_no_file_outside_the_game_names_it(spec):
    words = _words(spec)
    own = ROOT / Path(*registry.package_of(spec.name).split("."))
    found = []
    for path in _tracked():
        if own in path.parents:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a binary file (a screenshot) names nothing
        rel = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(text.splitlines(), start=1):
            if rel == "pyproject.toml" and REGISTRATION.match(line.strip()):
                continue
            # a path into the game's own scenarios or docs is a reference, not a special case
            cleaned = re.sub(r"(?:scenarios|docs/games)/[\w./-]+", "", line)
            if words.search(cleaned):
                found.append(f"{rel}:{number}: {line.strip()[:100]}")
    assert not found, f"{spec.title} is named outside its package:\n" + "\n".join(found)


def test_the_scan_finds_a_name_where_one_is(tmp_path):
    """The check itself can fail: a line naming a game is found, a neighbour word is not."""
    spec = registry.game(SHIPPED[0].name)
    words = _words(spec)
    assert words.search(f"special = {{'{spec.name}': 1}}")
    assert words.search(f"# {spec.title.upper()} needs this")
    assert not words.search(f"x{spec.piece_prefix}y = 1")
