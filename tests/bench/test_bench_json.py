"""`python -m bench`'s bench.json holds only figures a run made, and the run judges issue 23's
goals on them (bench/goals.py).

Before, bench.json kept every key of the run before: a `make bench` on a machine without
espeak-ng printed "nothing to measure" for the voice and left the last run's voice figure in
the file, under the new run's other figures, and a run without root kept an earlier root run's
tenth-of-a-core figures the same way. The modules here stand in for the real ones (whose own
tests are in this folder): what is checked is the command's bookkeeping.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

import bench.__main__ as command
from bench.goals import Goal

ROOT = Path(__file__).resolve().parents[2]


DECLARED = ("GOALS", "GOAL_NOTES", "ASKED", "MISSING_WHY")


def _module(name: str, figures: list[tuple]) -> types.ModuleType:
    """A stand-in for the bench module `name` whose run gives `figures`, with the real module's
    goals and asked-for keys."""
    real = importlib.import_module(name)
    module = types.ModuleType(name)
    module.run = lambda: list(figures)  # type: ignore[attr-defined]
    for attribute in DECLARED:
        if hasattr(real, attribute):
            setattr(module, attribute, getattr(real, attribute))
    return module


@pytest.fixture
def bench_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Runs `python -m bench`'s main with the given figures for the modules `live` and `voice`
    (and none for the games), writing to a bench.json of the test's own."""
    monkeypatch.setattr(command, "JSON_FILE", tmp_path / "bench.json")
    monkeypatch.setattr(command, "MODULES", ["live", "voice"])
    monkeypatch.setattr(command, "game_modules", dict)

    def run(argv: list[str], live: list[tuple], voice: list[tuple]) -> dict:
        monkeypatch.setitem(sys.modules, "bench.live", _module("bench.live", live))
        monkeypatch.setitem(sys.modules, "bench.voice", _module("bench.voice", voice))
        assert command.main(argv) == 0
        return json.loads((tmp_path / "bench.json").read_text(encoding="utf-8"))

    return run


VOICE = [("tap -> audio", 180.0, "ms", "voice_tap_to_audio_p50_ms")]
LIVE = [("READY", 0.15, "s", "ready_s"), ("tenth READY", 1.4, "s", "tenth_ready_s"),
        ("CPU a tap", 7.1, "ms", "daemon_cpu_ms_per_tap")]


def test_a_full_run_keeps_no_figure_of_the_run_before(bench_run) -> None:
    bench_run([], LIVE, VOICE)
    again = bench_run([], LIVE[:1], [])  # no espeak-ng, no root this time
    assert "voice_tap_to_audio_p50_ms" not in again
    assert "tenth_ready_s" not in again and again["ready_s"] == 0.15
    assert again["_runs"]["voice"]["keys"] == []
    assert again["_runs"]["live"]["keys"] == ["ready_s"]


def test_a_module_run_alone_replaces_its_own_figures_and_keeps_the_others(bench_run) -> None:
    bench_run([], LIVE, VOICE)
    again = bench_run(["voice"], LIVE, [])
    assert "voice_tap_to_audio_p50_ms" not in again  # the voice's old figure is gone
    assert again["tenth_ready_s"] == 1.4 and again["daemon_cpu_ms_per_tap"] == 7.1  # kept
    assert set(again["_runs"]) == {"live", "voice"}


def test_keyed_figures_are_replaced_whole(bench_run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(command, "MODULES", ["live", "voice", "games"])
    monkeypatch.setitem(sys.modules, "bench.games", _module(
        "bench.games", [("a", 5.0, "/s", ("games_per_cpu_s", "a/2")),
                        ("b", 9.0, "/s", ("games_per_cpu_s", "b/2"))]))
    first = bench_run([], LIVE, VOICE)
    assert first["games_per_cpu_s"] == {"a/2": 5.0, "b/2": 9.0}
    monkeypatch.setitem(sys.modules, "bench.games", _module(
        "bench.games", [("a", 6.0, "/s", ("games_per_cpu_s", "a/2"))]))
    again = bench_run(["games"], LIVE, VOICE)
    assert again["games_per_cpu_s"] == {"a/2": 6.0}
    assert again["_runs"]["games"]["keys"] == ["games_per_cpu_s"]


def test_the_run_judges_the_goals_on_its_own_figures(
        bench_run, capsys: pytest.CaptureFixture[str]) -> None:
    bench_run([], LIVE, [])
    out = capsys.readouterr().out
    judged = out[out.index("== goals"):]
    # issue 23's table: CPU per accepted tap <= 3 ms, start to ready <= 0.3 s and <= 2.5 s
    assert "CPU per accepted tap, the daemon alone" in judged
    line = next(x for x in judged.splitlines() if "CPU per accepted tap" in x)
    assert line.endswith("NOT MET") and "7.1 ms" in line and "<= 3 ms" in line
    line = next(x for x in judged.splitlines() if x.strip().startswith("start to ready"))
    assert line.endswith(": met")
    line = next(x for x in judged.splitlines() if "tag leaves -> removal event" in x)
    assert line.endswith("not measured in this run (bench live)")
    assert "bench voice did not write voice_tap_to_audio_p50_ms" in judged
    assert "espeak-ng" in judged
    assert "sudo make bench" in judged  # the live figures missing: the quotas need root
    assert "scorer" not in judged  # the Kingdomino module did not run: nothing judged for it


def test_a_games_goals_come_from_its_own_package(bench_run, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 23: the from-scratch scorer >= 1.3 x the plain flood fill in the same run; the
    goal is declared in tabletap/games/kingdomino/bench.py, not in the bench."""
    game = "tabletap.games.kingdomino.bench"
    monkeypatch.setattr(command, "game_modules", lambda: {"kingdomino": game})
    monkeypatch.setitem(sys.modules, game, _module(game, [
        ("ratio", 1.21, "x", "scorer_from_scratch_ratio"),
        ("scratch", 900.0, "/s", "scorer_from_scratch_per_s")]))
    bench_run(["kingdomino"], LIVE, VOICE)
    judged = capsys.readouterr().out.split("== goals")[1]
    line = next(x for x in judged.splitlines() if "from-scratch scorer" in x)
    assert "1.21 x" in line and ">= 1.3 x" in line and line.endswith("NOT MET")
    assert "bench kingdomino did not write plain_fill_per_s" in judged
    assert "tag leaves" not in judged  # bench live did not run this time


def test_a_goal_says_which_way_it_goes() -> None:
    with pytest.raises(ValueError, match="'<=' or '>='"):
        Goal("ready_s", "start to ready", "=<", 0.3, "s")
    assert Goal("x", "x", ">=", 1.3, "x").met(1.3) and not Goal("x", "x", "<=", 3, "ms").met(3.01)


def test_a_garbled_runs_record_is_no_crash(bench_run, tmp_path: Path) -> None:
    (tmp_path / "bench.json").write_text('{"_runs": 5, "ready_s": 9}', encoding="utf-8")
    again = bench_run(["voice"], LIVE, VOICE)
    assert again["ready_s"] == 9 and again["voice_tap_to_audio_p50_ms"] == 180.0


def test_make_bench_installs_the_voice(tmp_path: Path) -> None:
    """`make bench` on a fresh machine installs espeak-ng, as `make test` does: without it the
    voice's figure, which the issue asks for, was left out with a notice nobody asked for."""
    plan = subprocess.run(["make", "-n", f"VENV={tmp_path / 'venv'}", "bench"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=True).stdout
    assert "espeak-ng" in plan
    assert "chromium" in plan and "valgrind" in plan  # as before


def test_a_shorter_live_run_than_the_issue_asks_says_so() -> None:
    """Issue 23: "at least 200 of each" tap, idle "over 60 s"; `bench live` reads its lengths
    from BENCH_LIVE_TRIALS and BENCH_IDLE_SECONDS as it is imported."""
    code = "import bench.live as m; print(repr(m.GOAL_NOTES))"
    env = {**os.environ, "BENCH_LIVE_TRIALS": "10", "BENCH_IDLE_SECONDS": "2"}
    short = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, text=True,
                           capture_output=True, timeout=60, check=True).stdout
    assert "ran 10 trials of each kind and 2 s idle" in short and "at least 200" in short
    env = {k: v for k, v in os.environ.items() if not k.startswith("BENCH_")}
    whole = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, text=True,
                           capture_output=True, timeout=60, check=True).stdout
    assert whole.strip() == "()"
