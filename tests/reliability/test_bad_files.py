"""Fault 7: bad files give a clear, located error, never a traceback or a hang.

Fuzzing found tracebacks and hangs from: a non-UTF-8 file, deep nesting (RecursionError),
integers over 4,300 digits, explicit YAML tags like `!!timestamp`, a surrogate character in a
path, and YAML alias bombs (a 442-byte config grew to 1.9 GB in 15 s). Each cause is tried on
every surface that reads a YAML file; tests/fuzz/ mutates files at random on top of this.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletap.controller.commands.do import parse_fields
from tabletap.controller.loading.source import SourceError
from tabletap.controller.settings.config import load_config
from tabletap.controller.state.journal import GameHeader, Journal, JournalError
from tabletap.controller.table.identity import RegistryError, UidRegistry
from tabletap.sim.scenario.model import load as load_scenario

BOMB = b"""a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""

CAUSES = {
    "non-utf8": (b"game: magic-keys\nplayers: [ana, \xff\xfe]\n", "not UTF-8"),
    "deep": (b"seed: " + b"[" * 3000 + b"]" * 3000 + b"\n", "nested more than 64"),
    "long-int": (b"seed: " + b"9" * 5000 + b"\n", "5000 digits"),
    "timestamp": (b"seed: !!timestamp 2024-01-01\n", "explicit YAML tags like !!timestamp"),
    "binary": (b"seed: !!binary aGVsbG8=\n", "explicit YAML tags"),
    "surrogate": (b'state_dir: "/tmp/\\ud800"\n', "lone surrogate"),
    "bomb": (BOMB, "alias"),
    "recursive": (b"a: &a [*a]\n", "contains it"),
}


@pytest.mark.parametrize("cause", sorted(CAUSES))
def test_a_bad_config_is_a_located_config_error(tmp_path: Path, cause: str):
    raw, words = CAUSES[cause]
    path = tmp_path / "table.yaml"
    path.write_bytes(raw)
    with pytest.raises(SourceError, match=words) as caught:
        load_config(path)
    assert str(caught.value).startswith(str(path))


@pytest.mark.parametrize("cause", sorted(CAUSES))
def test_a_bad_scenario_is_a_located_error(tmp_path: Path, cause: str):
    raw, words = CAUSES[cause]
    path = tmp_path / "s.yaml"
    path.write_bytes(b"game: magic-keys\nplayers: [ana, ben]\nsteps: []\nconfig:\n  " +
                     raw.replace(b"\n", b"\n  ").rstrip() + b"\n" if cause != "non-utf8" else raw)
    with pytest.raises(SourceError, match=words):
        load_scenario(str(path))


@pytest.mark.parametrize("cause", sorted(CAUSES))
def test_a_bad_uid_registry_is_a_registry_error(tmp_path: Path, cause: str):
    raw, words = CAUSES[cause]
    path = tmp_path / "uids.yaml"
    path.write_bytes(b"uids:\n  " + raw.replace(b"\n", b"\n  ").rstrip() + b"\n"
                     if cause != "non-utf8" else raw)
    with pytest.raises(RegistryError, match=words):
        UidRegistry.load(path)


@pytest.mark.parametrize("value,words", [
    ("[" * 3000, "nested"), ("9" * 5000, "digits"), ("!!timestamp 2024-01-01", "tags"),
    ("[*a]", "alias"), ('"\\ud800"', "surrogate"),
])
def test_bad_do_values_are_a_sentence(value: str, words: str):
    with pytest.raises(ValueError, match=words):
        parse_fields("place", [f"at={value}"])


def test_a_date_value_stays_a_string():
    """`tabletap do ... when=2024-01-01` must not become a datetime JSON cannot carry."""
    assert parse_fields("note", ["when=2024-01-01"])["when"] == "2024-01-01"


@pytest.mark.parametrize("line,words", [
    (b'{"type": "action", "n": 1, "actions": [' + b"[" * 3000 + b"]" * 3000 + b"]}",
     "nested"),
    (b'{"type": "action", "n": 1' + b"0" * 5000 + b"}", "digits"),
    (b'{"type": "action", "n": 1, "x": "\xff"}', "not UTF-8"),
    (b'{"type": "action", "n": 1, "actions": [{"type": "\\ud800"}]}', "surrogate"),
])
def test_a_bad_journal_line_is_a_journal_error_naming_the_line(tmp_path: Path, line: bytes,
                                                               words: str):
    journal = Journal.in_dir(tmp_path)
    journal.start(GameHeader("magic-keys", ["ana", "ben"], 1))
    with open(journal.path, "ab") as fh:
        fh.write(line + b"\n")
    with pytest.raises(JournalError, match=rf"journal.jsonl:2: .*{words}"):
        journal.replay(repair=False)
