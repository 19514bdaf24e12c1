"""Every file error names file, line and column, and a key given twice is refused with both lines
(issue 22, defects 5 and 6).

Before the fix a config with `game: magic-keys` then `game: kingdomino` started Kingdomino (PyYAML
keeps the later key, although YAML 1.2 requires unique keys), a NUL byte was reported as
"position 327 in <unicode string>", and a non-UTF-8 byte in a content pack as a byte offset.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from tabletap.controller.loading.bounded import LimitError, load_json
from tabletap.controller.loading.source import SourceError, load_file
from tabletap.controller.settings.config import load_config
from tabletap.games.key_to_the_kingdom.rules.pack import PackError, load_pack

ROOT = Path(__file__).resolve().parents[2]
PACK = Path(str(resources.files("tabletap.games.key_to_the_kingdom.rules")
                .joinpath("packs", "default")))


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tabletap.controller.cli", *args],
                          capture_output=True, text=True, timeout=60)


def test_a_key_given_twice_in_the_config_is_refused_naming_both_lines(tmp_path: Path):
    config = tmp_path / "table.yaml"
    config.write_text(f"state_dir: {tmp_path / 'state'}\ngame: magic-keys\n"
                      "players: [ana, ben]\ngame: kingdomino\n")
    with pytest.raises(SourceError) as err:
        load_config(config)
    assert err.value.line == 4 and err.value.column == 1
    assert str(err.value).startswith(f"{config}:4:1: ")
    assert "`game` is given twice, on line 2 and on line 4" in str(err.value)
    done = cli("run", "--sim", "--config", str(config))  # the daemon refuses to start on it
    assert done.returncode == 2 and "given twice, on line 2 and on line 4" in done.stderr
    assert not (tmp_path / "state" / "journal.jsonl").exists()


@pytest.mark.parametrize(("text", "line", "column", "key"), [
    ("a: 1\nb:\n  c: 1\n  d: 2\n  c: 3\n", 5, 3, "`c`"),  # nested
    ("a:\n  yes: 1\n  true: 2\n", 3, 3, "`true`"),  # one key for YAML, two spellings
    ("- {x: 1, x: 2}\n", 1, 10, "`x`"),  # flow style, inside a list
    ("1: a\n0x1: b\n", 2, 1, "`0x1`"),  # the same integer
])
def test_a_duplicate_key_is_refused_wherever_it_is(tmp_path: Path, text, line, column, key):
    path = tmp_path / "any.yaml"
    path.write_text(text)
    with pytest.raises(SourceError) as err:
        load_file(path)
    assert (err.value.line, err.value.column) == (line, column)
    assert f"the key {key} is given twice" in str(err.value)


def test_a_merged_key_may_still_be_overridden(tmp_path: Path):
    path = tmp_path / "merge.yaml"
    path.write_text("base: &b {speed: 1, size: 2}\nfast:\n  <<: *b\n  speed: 3\n")
    assert load_file(path).data["fast"] == {"speed": 3, "size": 2}


def test_a_duplicate_key_in_a_scenario_is_refused(tmp_path: Path):
    scenario = tmp_path / "twice.yaml"
    scenario.write_text("game: magic-keys\nplayers: [ana, ben]\nseed: 1\nseed: 2\nsteps: []\n")
    done = cli("sim", "run", str(scenario))
    assert done.returncode == 2
    assert f"{scenario}:4:1: not valid YAML: the key `seed` is given twice" in done.stderr


def test_a_nul_byte_names_its_line_and_column(tmp_path: Path):
    config = tmp_path / "table.yaml"
    config.write_bytes(b"backend: sim\nchest:\n  open_seconds: 4\x00\n")
    with pytest.raises(SourceError) as err:
        load_config(config)
    assert (err.value.line, err.value.column) == (3, 18)
    assert str(err.value).startswith(f"{config}:3:18: ")
    assert "U+0000" in str(err.value) and "position" not in str(err.value)


def test_a_non_utf8_byte_in_a_content_pack_names_file_line_and_column(tmp_path: Path):
    folder = tmp_path / "mypack"
    shutil.copytree(PACK, folder, ignore=shutil.ignore_patterns("__*"))
    board = folder / "board.yaml"
    lines = board.read_bytes().split(b"\n")
    lines[2] = b"# caf\xe9 " + lines[2]  # a Latin-1 byte in a comment on line 3
    board.write_bytes(b"\n".join(lines))
    with pytest.raises((PackError, SourceError)) as err:
        load_pack(str(folder))
    assert f"{board}:3:6: not UTF-8 text" in str(err.value)
    assert "offset" not in str(err.value)


def test_a_lone_surrogate_names_its_line_and_column():
    from tabletap.controller.loading.yamldoc import load_text

    with pytest.raises(SourceError) as err:
        load_text("a: 1\nb: x\ud800\n", "s.yaml")
    assert str(err.value).startswith("s.yaml:2:5: ")


def test_a_json_key_given_twice_is_refused():
    with pytest.raises(LimitError, match='the key "undo" is given twice'):
        load_json('{"undo": true, "undo": false}')
    with pytest.raises(LimitError) as err:
        load_json('{"a": 1,\n "b": }')
    assert (err.value.line, err.value.column) == (2, 7)
    assert load_json(json.dumps({"a": {"a": 1}})) == {"a": {"a": 1}}


def test_no_module_reads_yaml_around_the_bounded_loader():
    """"Everywhere tabletap reads YAML": every read goes through controller.loading (the only
    module allowed to call PyYAML's loaders), so the unique-key and location rules hold for all
    of them, the games' own data files included."""
    readers = {"safe_load", "load", "full_load", "unsafe_load", "load_all", "safe_load_all",
               "compose", "parse"}
    found = []
    for path in [*ROOT.joinpath("tabletap").rglob("*.py"), *ROOT.joinpath("examples").rglob(
            "*.py"), *ROOT.joinpath("tools").rglob("*.py"), *ROOT.joinpath("bench").rglob("*.py")]:
        if "tests" in path.parts or path.match("*/controller/loading/yamlparse.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in readers \
                    and isinstance(node.value, ast.Name) and node.value.id == "yaml":
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: yaml.{node.attr}")
    assert found == []
