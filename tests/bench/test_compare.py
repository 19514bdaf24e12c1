"""bench.live.compare: REV's daemon may run under another interpreter (`--rev-python`), the
tree's under the bench's own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.live import compare


class _Started:
    def __init__(self, argv: list[str], env: dict[str, str], **_: Any) -> None:
        self.argv, self.env = argv, env


def _recorded_runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Path, str]]:
    """`compare.one_run` replaced by a recorder: each run's code folder and interpreter."""
    calls: list[tuple[Path, str]] = []

    def one_run(code: Path, trials: int, idle: float, page: str = "none",
                python: str = "") -> dict[str, float]:
        calls.append((code, python))
        return {"cpu_ms_per_tap": 1.0}

    monkeypatch.setattr(compare, "one_run", one_run)
    return calls


def test_only_the_side_given_an_interpreter_runs_its_daemon_with_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compare.subprocess, "Popen", _Started)
    monkeypatch.delenv("BENCH_DAEMON_PREFIX", raising=False)
    other = compare.start_run(Path("/rev"), 3, 1.0, "none", "chroot /srv/t /opt/venv/bin/python")
    own = compare.start_run(Path("/tree"), 3, 1.0, "none")
    assert other.env["BENCH_DAEMON_PREFIX"] == "chroot /srv/t /opt/venv/bin/python"
    assert other.env["BENCH_DAEMON_PYTHONPATH"] == "/rev"
    assert "BENCH_DAEMON_PREFIX" not in own.env
    assert own.env["BENCH_DAEMON_PYTHONPATH"] == "/tree"


def test_the_option_reaches_the_revs_runs_and_not_the_trees(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _recorded_runs(monkeypatch)
    monkeypatch.setattr(compare.subprocess, "run", lambda *a, **k: None)  # no worktree
    compare.main(["HEAD", "--runs", "1", "--rev-python", "/opt/py"])
    assert [(code.name, python) for code, python in calls] == [
        ("rev", "/opt/py"), (compare.ROOT.name, "")]


def test_a_rev_tree_runs_rev_from_that_folder_and_makes_no_worktree(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`--rev-tree DIR`: a tree made some other way (a copy compiled to C, say) is REV's side;
    git is not asked for a worktree."""
    (tmp_path / "tabletap").mkdir()
    calls = _recorded_runs(monkeypatch)

    def no_git(*_: Any, **__: Any) -> None:
        raise AssertionError("a worktree was made")

    monkeypatch.setattr(compare.subprocess, "run", no_git)
    compare.main(["compiled", "--runs", "1", "--rev-tree", str(tmp_path)])
    assert [code for code, _ in calls] == [tmp_path, compare.ROOT]


def test_a_rev_tree_without_tabletap_is_refused_by_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        compare.main(["compiled", "--rev-tree", str(tmp_path)])
    assert f"{tmp_path} holds no tabletap package" in capsys.readouterr().err


def test_a_relative_rev_tree_is_the_one_beside_the_caller(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The runs start in the bench's own folder (compare.ROOT), so a relative DIR must be
    resolved where it was typed, or REV's daemon would silently be some other code."""
    (tmp_path / "built" / "tabletap").mkdir(parents=True)
    calls = _recorded_runs(monkeypatch)
    monkeypatch.chdir(tmp_path)
    compare.main(["compiled", "--runs", "1", "--rev-tree", "built"])
    assert calls[0][0] == tmp_path / "built"
