"""Fuzz the files tabletap reads: config, scenario, UID registry, kingdom file, journal.

Each must answer mutated input with its own clear error (SourceError, RegistryError,
KingdomFileError, JournalError) or a result, never another exception and never a hang.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tabletap.controller.loading.source import SourceError
from tabletap.controller.settings.config import load_config
from tabletap.controller.state.journal import GameHeader, Journal, JournalError
from tabletap.controller.table.identity import RegistryError, UidRegistry
from tabletap.games.kingdomino.rules.kingdom_file import KingdomFileError, parse_kingdom
from tabletap.sim.scenario.model import load as load_scenario
from tabletap.sim.scenario.runner import ScenarioError, ScenarioRun
from tests.core.helpers import FAKES
from tests.fuzz.mutate import fuzz, mutated, no_hang, seed_files

CONFIGS = seed_files("examples/table.yaml", "tests/serial/*.yaml") + [
    b"game: magic-keys\nplayers: [ana, ben]\nseed: 3\noptions: {dice: digital}\n"
    b"chest: {open_seconds: 4, servo: {open_angle: 60}}\nreaders: {chest: {transport: sim}}\n",
]
SCENARIOS = seed_files("scenarios/magic-keys/*.yaml", "scenarios/oversiege/two-players.yaml",
                       "scenarios/kingdomino/two-players.yaml", "tests/scenario/bad/*.yaml")
SHORT_SCENARIOS = [s for s in SCENARIOS if s.count(b"\n") < 80]
KINGDOMS = seed_files("examples/kingdoms/*.txt")
REGISTRIES = [b"# tabletap UID registry\nuids:\n  04:a1:b2:c3:d4:e5:f6: magic-keys/key/gold\n"
              b"  de:ad:be:ef: magic-keys/key/blue/3\n"]


@contextmanager
def _written(data: bytes, name: str) -> Iterator[Path]:
    """`data` as the file `name` in a folder of its own, removed after the example: each example
    starts from an empty folder (a journal's replay may leave its record or a saved copy beside
    it), and a run of the suite leaves nothing in /tmp. Before, every `make test` left about
    3,900 folders there (70,254 had built up on the development machine)."""
    with tempfile.TemporaryDirectory(prefix="tabletap-fuzz-") as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        yield path


@fuzz(900)
@given(data=mutated(CONFIGS))
def test_config(data: bytes):
    with _written(data, "table.yaml") as path:
        with no_hang():
            try:
                load_config(path)
            except SourceError as exc:
                assert str(exc).startswith(str(path))


@fuzz(900)
@given(data=mutated(SCENARIOS))
def test_scenario_parse(data: bytes):
    with _written(data, "s.yaml") as path:
        with no_hang():
            try:
                load_scenario(str(path))
            except SourceError as exc:
                assert str(exc).startswith(str(path))


@fuzz(120)
@given(data=mutated(SHORT_SCENARIOS, max_edits=2))
def test_scenario_run(data: bytes, tracebacks):
    """Mutated scenarios that still parse are run through the daemon on virtual time."""
    with _written(data, "s.yaml") as path:
        with no_hang(10):
            try:
                scenario = load_scenario(str(path))
            except SourceError:
                return
            if "state_dir" in scenario.config:
                return  # would use a real folder; test_scenario_live_folder covers it
            try:
                ScenarioRun(scenario).run()
            except (ScenarioError, SourceError, JournalError):
                pass
        assert not tracebacks.records, tracebacks.records[0].getMessage()


@fuzz(180)
@given(message=st.integers(0, 600).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       uid=st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n)))
def test_scenario_with_any_raw_tag(message: bytes, uid: bytes, tracebacks):
    """A scenario's raw `ndef:` tag of any size on any UID (the 25 tracebacks of NDEF bigger
    than the simulated tag)."""
    text = (f"game: magic-keys\nplayers: [ana, ben]\nseed: 1\nsteps:\n"
            f"  - tap: {{uid: \"{uid.hex(':')}\", ndef: \"{message.hex()}\"}}\n")
    with _written(text.encode(), "s.yaml") as path:
        with no_hang(10):
            try:
                ScenarioRun(load_scenario(str(path))).run()
            except (ScenarioError, SourceError):
                pass
        assert not tracebacks.records, tracebacks.records[0].getMessage()


@fuzz(900)
@given(data=mutated(REGISTRIES, max_edits=6))
def test_uid_registry(data: bytes):
    with _written(data, "uids.yaml") as path:
        with no_hang():
            try:
                registry = UidRegistry.load(path)
            except RegistryError as exc:
                assert str(path) in str(exc)
                return
            for uid in registry.pieces:
                registry.lookup(bytes.fromhex(uid.replace(":", "")) if _hex(uid) else b"\x00")


def _hex(text: str) -> bool:
    try:
        bytes.fromhex(text.replace(":", ""))
    except ValueError:
        return False
    return True


@fuzz(1200)
@given(data=mutated(KINGDOMS, max_edits=3))
def test_kingdom_file(data: bytes):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return  # the command refuses it before parsing (tested in test_score_cli)
    with no_hang():
        try:
            parse_kingdom(text)
        except KingdomFileError:
            pass


def _journals() -> list[bytes]:
    """A played Magic Keys game (physical and digital dice) and a Kingdomino opening."""
    out = []
    for header, entries in [
        (GameHeader("magic-keys", ["ana", "ben"], 1, {}, {"fake_keys": FAKES}),
         [[{"type": "try-key", "key": "purple/1"}], [{"type": "try-key", "key": "purple/4"}],
          [{"type": "end-turn"}], [{"type": "try-key", "key": "blue/3"}]]),
        (GameHeader("magic-keys", ["ana", "ben", "cleo"], 2, {"dice": "digital"}, {}),
         [[{"type": "roll", "dice": [3, 1, 1]}],
          [{"type": "move", "steps": 3}, {"type": "try-key", "key": "purple/3"}]]),
    ]:
        with tempfile.TemporaryDirectory(prefix="tabletap-fuzz-") as folder:
            journal = Journal.in_dir(Path(folder))
            journal.start(header)
            n = 1
            for gesture in entries:
                journal.append(n, *gesture)
                n += len(gesture)
            out.append(journal.path.read_bytes())
    return out


JOURNALS = _journals()


@fuzz(900)
@given(data=mutated(JOURNALS, max_edits=3), repair=st.booleans())
def test_journal(data: bytes, repair: bool):
    with _written(data, "journal.jsonl") as path:
        with no_hang():
            try:
                Journal(path).replay(repair=repair)
            except JournalError as exc:
                assert str(exc).startswith(str(path))


def test_the_fuzzed_files_leave_no_folder_behind(tmp_path, monkeypatch):
    """The file fuzzers' bodies, each run once on its first seed, leave nothing in the
    temporary folder: before, each example's folder stayed in /tmp (about 3,900 a `make test`)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    test_config.hypothesis.inner_test(data=CONFIGS[0])
    test_scenario_parse.hypothesis.inner_test(data=SCENARIOS[0])
    test_uid_registry.hypothesis.inner_test(data=REGISTRIES[0])
    test_journal.hypothesis.inner_test(data=JOURNALS[0], repair=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == []
