"""Supervision and presence through the lead's daemon, on the real NFC path (the `sim` transport:
hw adapter, real driver, emulated chip)."""

from __future__ import annotations

from pathlib import Path

from tabletap.controller.settings.config import Config
from tabletap.controller.table.runtime import GameSpec, open_table
from tabletap.hw.pn532.reader import Pn532Reader
from tabletap.sim.context import make_context
from tabletap.sim.pn532.faults import FaultPlan
from tabletap.sim.world import SimTag

FAKES = ["purple/4", "purple/5", "blue/1", "blue/2", "green/3", "green/5", "yellow/1", "yellow/2"]


def table(tmp_path: Path, faults: dict | None = None):
    cfg = Config.model_validate({"state_dir": str(tmp_path / "state")})
    context = make_context()
    context["faults"] = faults or {}
    spec = GameSpec("magic-keys", ["ana", "ben"], 1, {}, {"fake_keys": FAKES})
    daemon = open_table(cfg, context, context["clock"], spec, new=True)
    return daemon, context


def test_the_daemon_reads_through_the_pn532_adapter(tmp_path):
    daemon, ctx = table(tmp_path)
    assert all(isinstance(r, Pn532Reader) for r in daemon.readers.values())
    ctx["world"].place("chest", SimTag.for_piece("magic-keys/key/purple/1"))
    daemon.run_for(0.2)
    assert daemon.session.actions == 1


def test_a_reader_vanishing_under_a_resting_piece_causes_no_phantom_tap(tmp_path):
    daemon, ctx = table(tmp_path)
    world = ctx["world"]
    world.place("pond", SimTag.for_piece("magic-keys/key/purple/4"))  # a fake key, left there
    daemon.run_for(0.5)
    before = daemon.session.actions
    world.missing_readers.add("pond")
    daemon.run_for(2.0)
    assert daemon.session.outputs.lights.pattern == "reader-missing"
    world.missing_readers.discard("pond")
    daemon.run_for(12.0)  # the backoff reaches 8 s: the daemon retries and finds it again
    assert daemon.session.outputs.lights.pattern != "reader-missing"
    assert daemon.session.actions == before  # nothing new happened at the table
    # and the chest reader worked all along
    world.place("chest", SimTag.for_piece("magic-keys/key/purple/1"))
    daemon.run_for(0.3)
    assert daemon.session.actions == before + 1


def test_a_resting_piece_with_five_percent_faults_for_two_minutes(tmp_path):
    faults = {"chest": FaultPlan(rate=0.05, seed=11), "pond": FaultPlan(rate=0.05, seed=12)}
    daemon, ctx = table(tmp_path, faults)
    ctx["world"].place("chest", SimTag.for_piece("magic-keys/key/purple/1"))
    daemon.run_for(0.3)
    actions = daemon.session.actions
    journal = daemon.session.journal.path.read_text()
    daemon.run_for(120)
    assert daemon.session.actions == actions == 1
    assert daemon.session.journal.path.read_text() == journal  # no phantom lift or re-tap
    assert sum(faults["chest"].injected.values()) > 20
