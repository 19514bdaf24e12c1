"""controller.entrypoints: the installed entry points kept between the daemon's starts are the
ones `importlib.metadata` finds, load the same objects, and are read again the moment a
distribution is installed or removed (a new game's plugin is seen at the next start).

Each case runs in its own Python, as a start does: the list is read once per process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tabletap.controller import entrypoints, startcache

# Prints what the process found, and whether it needed importlib.metadata for it.
LIST = """
import json, sys
from tabletap.controller import entrypoints
found = [[ep.group, ep.name, ep.value] for ep in entrypoints.installed()]
print(json.dumps({"found": found, "metadata": "importlib.metadata" in sys.modules}))
"""


def _start(state: Path, extra_path: Path | None = None) -> dict:
    env = {**os.environ, "STATE_DIRECTORY": str(state)}
    code = LIST if extra_path is None else (
        f"import sys; sys.path.append({str(extra_path)!r})\n{LIST}")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)


def test_a_second_start_takes_the_kept_list_without_importlib_metadata(tmp_path: Path) -> None:
    first, second = _start(tmp_path), _start(tmp_path)
    assert first["metadata"] and not second["metadata"]
    assert second["found"] == first["found"]
    assert any(group == "tabletap.games" and name == "magic-keys"
               for group, name, _ in first["found"])


def test_a_plugin_installed_between_starts_is_found(tmp_path: Path) -> None:
    """Installing a distribution adds its `*.dist-info` folder, which changes its folder's
    time: the next start reads the metadata again."""
    site = tmp_path / "site"
    site.mkdir()
    state = tmp_path / "state"
    state.mkdir()
    before = _start(state, site)
    kept = _start(state, site)
    assert not kept["metadata"]
    info = site / "tabletap_goose-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tabletap-goose\n"
                                   "Version: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[tabletap.games]\ngoose = goose_game:SPEC\n",
                                           encoding="utf-8")
    after = _start(state, site)
    assert after["metadata"]
    assert ["tabletap.games", "goose", "goose_game:SPEC"] in after["found"]
    assert ["tabletap.games", "goose", "goose_game:SPEC"] not in before["found"]


def test_a_damaged_kept_list_is_read_again(tmp_path: Path) -> None:
    first = _start(tmp_path)
    kept = tmp_path / startcache.FOLDER / entrypoints.KEPT
    raw = bytearray(kept.read_bytes())
    raw[-3] ^= 0xFF
    kept.write_bytes(bytes(raw))
    again = _start(tmp_path)
    assert again["metadata"] and again["found"] == first["found"]
    assert not _start(tmp_path)["metadata"]  # kept again, whole


def test_ours_load_what_importlib_metadata_loads() -> None:
    from importlib.metadata import entry_points

    every = entry_points()
    theirs = {(ep.group, ep.name): ep for group in every.groups
              for ep in every.select(group=group) if group.startswith("tabletap.")}
    ours = {(ep.group, ep.name): ep for ep in entrypoints._read()
            if ep.group.startswith("tabletap.")}
    assert ours.keys() == theirs.keys() and ours
    for key, ep in ours.items():
        assert (ep.module, ep.attr) == (theirs[key].module, theirs[key].attr)
        assert ep.load() is theirs[key].load(), key


@pytest.mark.parametrize("value, module, attr", [
    ("pkg.mod:SPEC", "pkg.mod", "SPEC"),
    ("pkg.mod:Outer.inner", "pkg.mod", "Outer.inner"),
    ("pkg.mod", "pkg.mod", None),
    ("pkg.mod : SPEC [extra]", "pkg.mod", "SPEC"),
])
def test_an_entry_points_value_is_read_as_importlib_metadata_reads_it(value, module,
                                                                      attr) -> None:
    from importlib.metadata import EntryPoint as Theirs

    ep = entrypoints.EntryPoint("x", value, "g")
    assert (ep.module, ep.attr) == (module, attr) == (Theirs("x", value, "g").module,
                                                       Theirs("x", value, "g").attr)


def test_a_nested_attribute_loads() -> None:
    ep = entrypoints.EntryPoint("x", "os:path.join", "g")
    assert ep.load() is os.path.join
