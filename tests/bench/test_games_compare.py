"""bench.games_compare: the two trees' engines take turns on the same games, so a slow spell of
the machine falls on both, and a worker says what it could not play."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bench import games_compare as gc


class Machine:
    """CPU time that only the work moves: three times slower from SLOW_FROM to SLOW_TO."""

    SLOW_FROM, SLOW_TO = 2.0, 4.0

    def __init__(self) -> None:
        self.now = 0.0

    def spend(self, cost: float) -> float:
        factor = 3.0 if self.SLOW_FROM <= self.now < self.SLOW_TO else 1.0
        self.now += cost * factor
        return cost * factor


class FakeSide:
    def __init__(self, name: str, per_game: float, machine: Machine, log: list) -> None:
        self.name, self.per_game, self.machine, self.log = name, per_game, machine, log

    def play(self, variant: str, first: int, count: int) -> float:
        self.log.append((self.name, first, count))
        return sum(self.machine.spend(self.per_game) for _ in range(count))


def test_the_ratio_holds_through_a_slow_spell() -> None:
    machine, log = Machine(), []
    rev, tree = FakeSide("rev", 0.004, machine, log), FakeSide("tree", 0.005, machine, log)
    r = gc.by_turns([rev, tree], "kingdomino/2", rounds=100, block=0.02)
    assert machine.now > Machine.SLOW_TO  # the spell fell inside the timed rounds
    assert r.rates["rev"] / r.rates["tree"] == pytest.approx(1.25, rel=0.05)
    # each side alone, one after the other: the spell falls on one side only
    machine2, log2 = Machine(), []
    alone = [gc.by_turns([FakeSide(n, c, machine2, log2)], "kingdomino/2", rounds=100,
                         block=0.02) for n, c in (("rev", 0.004), ("tree", 0.005))]
    # the spell fell on the tree's games alone: read about three times slower, for a true 1.25
    assert alone[0].rates["rev"] / alone[1].rates["tree"] > 2.5


def test_both_sides_play_the_same_games_and_take_turns_first() -> None:
    machine, log = Machine(), []
    sides = [FakeSide("rev", 0.01, machine, log), FakeSide("tree", 0.01, machine, log)]
    r = gc.by_turns(sides, "v", rounds=3, block=0.05, first=6)
    assert r.per_block == 5  # 0.05 CPU s over 0.01 a game
    # untimed: seed 0 for each side, then seeds 1-5 that time a game; then the rounds
    assert log[:4] == [("rev", 0, 1), ("tree", 0, 1), ("rev", 1, 5), ("tree", 1, 5)]
    assert log[4:] == [("rev", 6, 5), ("tree", 6, 5), ("tree", 11, 5), ("rev", 11, 5),
                       ("rev", 16, 5), ("tree", 16, 5)]
    assert r.round_ratios == pytest.approx([1.0, 1.0, 1.0])


def test_a_worker_plays_its_trees_games_and_names_what_it_cannot() -> None:
    worker = gc.Worker("tree", sys.executable)
    try:
        assert "kingdomino/2" in worker.variants
        assert worker.play("magic-keys/physical", 1, 3) > 0
        with pytest.raises(gc.WorkerError, match="no variant 'chess/2' in this tree"):
            worker.play("chess/2", 1, 1)
        assert worker.play("magic-keys/physical", 4, 1) > 0  # still answering
    finally:
        worker.close()
    assert worker.proc.returncode == 0


def test_main_prints_each_variant_both_trees_have(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    @contextmanager
    def here(rev: str) -> Iterator[Path]:
        yield Path(".")

    monkeypatch.setattr(gc, "worktree", here)
    monkeypatch.setattr(gc, "install", lambda code, into: sys.executable)  # the tree twice
    assert gc.main(["HEAD", "--rounds", "2", "--block", "0.01",
                    "--variant", "magic-keys/physical"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    row = next(r for r in rows if r and r[0] == "magic-keys/physical")
    assert float(row[1]) > 0 and float(row[2]) > 0
    with pytest.raises(SystemExit):
        gc.main(["HEAD", "--variant", "chess/2"])
    assert "not a variant of both trees: chess/2" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_instructions_a_game_under_callgrind(tmp_path: Path) -> None:
    """The count with games less the count without, over the games: a Magic Keys game with
    physical dice is about a million instructions (0.83-1.2 M for seeds 6-65 here)."""
    count = gc.instructions_a_game({"tree": sys.executable}, "magic-keys/physical", 2, tmp_path)
    assert 100_000 < count["tree"] < 20_000_000
    with pytest.raises(gc.WorkerError, match="no variant 'chess/2' in this tree"):
        gc.instructions(sys.executable, "chess/2", 1, tmp_path)
