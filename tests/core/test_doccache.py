"""controller.loading.doccache and controller.startcache: a YAML file the daemon parsed at an
earlier start comes back the same, without PyYAML, and nothing kept ever changes what a file
means or stops a start (a changed file, a damaged or foreign kept file, a folder that cannot be
written, an integer msgpack cannot hold, no state folder from systemd).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletap.controller import startcache
from tabletap.controller.loading import doccache, yamldoc
from tabletap.controller.loading.located import SourceError, YamlDoc
from tabletap.controller.loading.schema import Schema
from tabletap.controller.loading.yamldoc import load_text, validate

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted([*ROOT.joinpath("tabletap").rglob("*.yaml"),
                  *ROOT.joinpath("examples").rglob("*.yaml")])


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A state folder from "systemd" ($STATE_DIRECTORY); returns its cache folder."""
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    return tmp_path / startcache.FOLDER


def _same(a: YamlDoc, b: YamlDoc) -> None:
    # repr tells True from 1, 1.0 from 1 and a NaN from a NaN-free list, where == does not
    assert repr(a.data) == repr(b.data)
    assert (a.path, a.lines, a.columns) == (b.path, b.lines, b.columns)


def _unparsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on, a document that is not kept fails the test."""
    def no(text: str, path: str) -> YamlDoc:
        raise AssertionError(f"{path} was parsed again, not taken from the cache")
    monkeypatch.setattr(yamldoc, "_parse", no)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_file_comes_back_the_same(path: Path, kept: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    text = path.read_text(encoding="utf-8")
    first = load_text(text, str(path))
    assert list(kept.iterdir()), "nothing was kept"
    _unparsed(monkeypatch)
    _same(first, load_text(text, str(path)))


documents = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1)
    | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8) | st.integers(-5, 5) | st.booleans(), inner,
                      max_size=4),
    max_leaves=20)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_any_document_comes_back_the_same(data: object) -> None:
    text = yaml.safe_dump({"doc": data}, allow_unicode=True)
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as mp:
        mp.setenv("STATE_DIRECTORY", folder)
        first = load_text(text, "any.yaml")
        _unparsed(mp)
        _same(first, load_text(text, "any.yaml"))


def test_a_changed_file_is_parsed_again(kept: Path) -> None:
    load_text("game: magic-keys\nseed: 1\n", "table.yaml")
    assert load_text("game: magic-keys\nseed: 2\n", "table.yaml").data["seed"] == 2
    # one label, one file: the new text replaced the old
    assert len(list(kept.iterdir())) == 1
    assert load_text("game: magic-keys\nseed: 1\n", "table.yaml").data["seed"] == 1


class Chest(Schema):
    seconds: int


class Config(Schema):
    game: str
    chest: Chest


def test_a_located_error_from_a_kept_document_names_its_line_and_column(kept: Path,
                                                                          monkeypatch) -> None:
    text = "game: magic-keys\n\nchest:\n   seconds: one\n"
    load_text(text, "table.yaml")
    _unparsed(monkeypatch)
    with pytest.raises(SourceError) as err:
        validate(load_text(text, "table.yaml"), Config)
    assert str(err.value).startswith("table.yaml:4:4: chest.seconds: ")


def test_a_file_that_does_not_parse_is_not_kept(kept: Path) -> None:
    for _ in range(2):
        with pytest.raises(SourceError, match=r"bad.yaml:2:1: .*given twice"):
            load_text("a: 1\na: 2\n", "bad.yaml")
    assert not kept.exists() or not list(kept.iterdir())


@pytest.mark.parametrize("damage", ["flip", "cut", "empty", "foreign", "deep"])
def test_a_damaged_kept_file_is_a_miss_then_kept_again(damage: str, kept: Path,
                                                       monkeypatch) -> None:
    text = "game: magic-keys\nplayers: [ann, bo]\n"
    first = load_text(text, "table.yaml")
    (file,) = kept.iterdir()
    raw = bytearray(file.read_bytes())
    if damage == "flip":
        raw[len(raw) // 2] ^= 0x10  # one bit of the body: the CRC no longer matches
    elif damage == "cut":
        raw = raw[: len(raw) // 2]  # a power cut tore it
    elif damage == "empty":
        raw = bytearray()
    else:  # a file whose CRC holds but whose body is not a kept document, or nested deeper
        # than any decoder goes
        body = b"\x93\x01\x02\x03" if damage == "foreign" else (
            b"\x95\x00\xa1t\xa1x" + b"\x91" * 100_000 + b"\x00\x90")  # RecursionError
        raw = bytearray(zlib.crc32(body).to_bytes(4, "big") + body)
    file.write_bytes(bytes(raw))
    _same(first, load_text(text, "table.yaml"))  # parsed again, not an error
    _unparsed(monkeypatch)
    _same(first, load_text(text, "table.yaml"))  # and kept again, whole


def test_another_parser_is_a_miss(kept: Path, monkeypatch) -> None:
    """A kept document from another version of the parser (yamlparse.py, bounded.py) is not
    used: the new code may read the same text otherwise."""
    load_text("a: 1\n", "t.yaml")
    monkeypatch.setattr(doccache, "_stamp", lambda: 12345)
    parsed = []
    real = yamldoc._parse
    monkeypatch.setattr(yamldoc, "_parse", lambda t, p: parsed.append(p) or real(t, p))
    load_text("a: 1\n", "t.yaml")
    assert parsed == ["t.yaml"]


def test_a_folder_that_cannot_be_written_changes_nothing(tmp_path: Path,
                                                         monkeypatch) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / startcache.FOLDER).write_text("a file where the folder should be")
    monkeypatch.setenv("STATE_DIRECTORY", str(state))
    for _ in range(2):
        assert load_text("a: 1\n", "t.yaml").data == {"a": 1}


def test_an_integer_msgpack_cannot_hold_is_parsed_every_time(kept: Path) -> None:
    text = "big: 123456789012345678901234567890\n"
    for _ in range(2):
        assert load_text(text, "big.yaml").data["big"] == 123456789012345678901234567890
    assert not kept.exists() or not list(kept.iterdir())


def test_without_a_state_folder_from_systemd_nothing_is_kept(tmp_path: Path,
                                                             monkeypatch) -> None:
    """A maker's command, a test, the page: every load parses, and nothing is written."""
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.chdir(tmp_path)
    parsed = []
    real = yamldoc._parse
    monkeypatch.setattr(yamldoc, "_parse", lambda t, p: parsed.append(p) or real(t, p))
    for _ in range(2):
        load_text("a: 1\n", "t.yaml")
    assert parsed == ["t.yaml", "t.yaml"]
    assert list(tmp_path.iterdir()) == []


def test_a_value_from_the_command_line_is_not_kept(kept: Path) -> None:
    assert yamldoc.load_value("[1, 2]", "--set seed") == [1, 2]
    assert not kept.exists()


def test_a_torn_write_leaves_no_litter(kept: Path) -> None:
    kept.mkdir()
    (kept / "old.doc.999999.tmp").write_bytes(b"half")  # a power cut during a write
    load_text("a: 1\n", "t.yaml")
    assert not list(kept.glob("*.tmp"))


def test_a_start_with_nothing_changed_does_not_import_pyyaml(tmp_path: Path) -> None:
    """The point of it all: the second process reads the config without PyYAML."""
    config = ROOT / "examples" / "table.yaml"
    script = (
        "import sys\n"
        "from tabletap.controller.loading.source import load_file\n"
        f"doc = load_file({str(config)!r})\n"
        "print('yaml' in sys.modules)\n")
    env = {**os.environ, "STATE_DIRECTORY": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                           text=True, check=True).stdout.strip() for _ in range(2)]
    assert runs == ["True", "False"]
