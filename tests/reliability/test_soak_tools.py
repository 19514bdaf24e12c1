"""The reliability tools run, on runs of seconds, so they cannot rot between their long runs.

`make soak`, `make evenings` and `make writes` (tools/) take minutes to an hour and are not part
of `make test`; their figures are in docs/RELIABILITY.md. Here each runs a very small run through
the real daemon and its report is checked for soundness, never for figures (those are measured,
not asserted): nothing lost or doubled, every saved-but-unanswered kill handled, every game
finished and archived.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def _tool(name: str) -> ModuleType:
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))  # the tools import each other (drive, writes)
    spec = importlib.util.spec_from_file_location(f"tabletap_tool_{name}", TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_soak_aims_at_the_window_and_checks_the_retry(tmp_path: Path, monkeypatch):
    soak = _tool("soak")
    monkeypatch.setattr(soak, "AIM_SHARE", 1.0)  # every cycle aims its kill
    monkeypatch.setattr(soak, "_mount_tmpfs", lambda *_: False)  # the full disk: its own test
    # its folders and log in a folder of its own, removed after; a short path, as the control
    # socket's must fit a unix socket address (108 bytes), which tmp_path's may not
    short = tempfile.mkdtemp(prefix="ttsoak-")
    monkeypatch.setattr(tempfile, "tempdir", short)
    out = tmp_path / "soak.json"
    try:
        code = soak.main(["--cycles", "4", "--seed", "5", "--out", str(out)])
    finally:
        shutil.rmtree(short, ignore_errors=True)
    report = json.loads(out.read_text())
    assert code == 0, report
    assert report["aimed_kills"] >= 1
    assert report["lost_actions"] == report["doubled_actions"] == 0
    assert report["window_mishandled"] == report["unsaved_retries_wrong"] == 0
    assert report["window_handled"] == report["window_hits"] \
        - report["window_hits_that_ended_the_game"]
    landed = report["kills_landed"]["aimed"]
    assert sum(landed.values()) <= report["aimed_kills"]


def test_evenings_play_whole_games_and_record_the_table(tmp_path: Path):
    evenings = _tool("evenings")
    report, rows = evenings.live(3, 2, tmp_path, progress=False, labels=["magic-keys"])
    assert report["games"] == 3 and report["unfinished_games"] == 0
    assert [r["archive_files"] for r in rows] == [0, 1, 2]  # every finished game kept
    assert all(r["rss_bytes"] > 0 and r["journal_bytes"] > 0 for r in rows)
    assert report["on_a_card_image"] == (os.geteuid() == 0)
    print(evenings.figure(rows, 1))


def test_the_write_counter_measures_a_game_and_an_idle_pause(tmp_path: Path):
    writes = _tool("writes")
    size, options, label = writes.state_partition()
    assert size > 0 and options and label  # read from image/layout.sh
    report = writes.measure(1, 1.0, 3, tmp_path, labels=["magic-keys"])
    assert report["games"] == 1 and report["moves"] > 0
    if os.geteuid() != 0:
        pytest.skip("the card image needs root (losetup, mount): only the daemon's counters")
    assert report["on_a_card_image"]
    assert report["per_game_device"]["write_bytes"] > 0  # a game reaches the card
    assert report["per_game_device"]["flushes"] > 0  # its fsyncs do
    assert set(report["estimate_years_of_evenings"]) == {
        "page-mapped", "middling (4 pages a write)", "worst (an erase block a write)"}
