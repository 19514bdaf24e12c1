"""`tabletap selfplay`: complete games played by the engines, the statistics, the plot."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import sys
import threading

import pytest

from tabletap.controller.cli import main
from tabletap.controller.rules import engine_for
from tabletap.controller.selfplay.play import VARIANTS, play_game, seat_names
from tabletap.controller.selfplay.report import summarise, wilson


def test_wilson_interval_matches_the_published_values():
    """Wilson (1927) as tabulated by Newcombe (1998), table I: 81/263 -> 0.2553-0.3662;
    15/148 -> 0.0624-0.1605; 0/20 -> 0-0.1611."""
    for (wins, n), (low, high) in {(81, 263): (0.2553, 0.3662), (15, 148): (0.0624, 0.1605),
                                   (0, 20): (0.0, 0.1611)}.items():
        got = wilson(wins, n)
        assert got[0] == pytest.approx(low, abs=5e-4) and got[1] == pytest.approx(high, abs=5e-4)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_games_end_and_replay_from_their_seed(variant, policy):
    game, players, options = VARIANTS[variant]
    if players > 4 and policy == "greedy":
        players = 4  # a ten-player greedy game is slow for a unit test
    names = seat_names(game, players)
    first = play_game(game, names, 11, policy, options)
    assert first.finished and first.winners
    assert set(first.winners) <= set(names) and sorted(first.order) == sorted(names)
    again = play_game(game, names, 11, policy, options)
    assert again.to_json() == first.to_json()


def test_a_record_is_what_the_engine_says_of_the_last_state():
    """The record's scores and winners are the engine's, not the driver's own idea."""
    engine = engine_for("kingdomino")
    record = play_game("kingdomino", ["a", "b"], 5)
    state = engine.new_game(["a", "b"], 5, {}, {})
    rng = random.Random(5)
    from tabletap.controller.selfplay.play import chooser
    choose = chooser("kingdomino", "random")
    while not engine.is_over(state):
        state = engine.apply(state, choose(engine, state, engine.legal_actions(state), rng)).state
    assert record.scores == engine.scores(state)
    assert record.winners == engine.winners(state)


def test_summary_counts_wins_by_turn_order():
    records = [play_game("magic-keys", ["a", "b"], seed) for seed in range(60)]
    s = summarise("magic-keys", records, "random", {}, 0)
    assert s["finished"] == 60
    assert sum(row["wins"] for row in s["seats"]) == 60 + s["shared_wins"]
    for row in s["seats"]:
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
    firsts = sum(1 for r in records if r.order[0] in r.winners)
    assert s["seats"][0]["wins"] == firsts


def test_cli_json_report(capsys):
    assert main(["selfplay", "magic-keys", "--games", "40", "--jobs", "2", "--seed", "3",
                 "--json", "--option", "dice=digital"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == report["finished"] == 40
    assert report["options"] == {"dice": "digital"}
    assert len(report["seats"]) == 2 and report["turns"]["median"] > 0


def test_same_seed_same_report_whatever_the_jobs(capsys):
    outs = []
    for jobs in ("1", "2"):
        assert main(["selfplay", "oversiege", "--games", "6", "--jobs", jobs, "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1]


def test_kingdomino_reports_variant_bonuses(capsys):
    assert main(["selfplay", "kingdomino", "--games", "8", "--jobs", "1",
                 "--option", "harmony=true"]) == 0
    out = capsys.readouterr().out
    assert "harmony bonus:" in out and "counted" in out
    assert "middle kingdom bonus:" in out and "not played" in out


def test_bonus_rates_count_kingdoms_not_points():
    records = [play_game("kingdomino", ["a", "b"], seed) for seed in range(12)]
    s = summarise("kingdomino", records, "random", {}, 0)
    for name, row in s["bonuses"].items():
        earned = sum(1 for r in records for b in r.bonuses.values() if name in b)
        assert row["kingdoms"] == earned and 0 <= row["rate"] <= 1


def test_plot_is_a_png(tmp_path, capsys):
    target = tmp_path / "mk.png"
    assert main(["selfplay", "magic-keys", "--games", "20", "--jobs", "1",
                 "--plot", str(target)]) == 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert target.stat().st_size > 10_000


def test_bad_table_is_refused_before_any_game(capsys):
    assert main(["selfplay", "kingdomino", "--players", "5", "--games", "3"]) == 2
    assert "2, 3 or 4 players" in capsys.readouterr().err
    assert main(["selfplay", "magic-keys", "--option", "dice"]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err


def test_magic_keys_draws_are_what_random_choice_draws():
    """The Magic Keys random player and its digital dice write out rng.choice (for speed):
    they must take the same numbers from the same stream, so a seed's game never changes."""
    from tabletap.games.magic_keys.rules import ENGINE, Roll
    from tabletap.games.magic_keys.rules.play import FACES
    from tabletap.games.magic_keys.selfplay import throw_dice as _throw_dice
    from tabletap.games.magic_keys.selfplay import uniform as _magic_keys_random
    state = ENGINE.new_game(["a", "b", "c"], 3, {"dice": "digital"}, {})
    for seed in range(300):
        ours, theirs = random.Random(seed), random.Random(seed)
        for size in (1, 2, 3, 5, 6, 7, 8, 9, 16, 17, 23):
            legal = list(range(size))
            assert _magic_keys_random(None, state, legal, ours) == theirs.choice(legal)
        for dice in (3, 2, 1):
            thrown = _throw_dice(state._replace(dice=dice), Roll(None), ours)
            assert thrown == Roll(tuple(theirs.choice(FACES) for _ in range(dice)))
        assert ours.random() == theirs.random()
    with pytest.raises(IndexError):
        _magic_keys_random(None, state, [], random.Random(1))


def test_a_solo_game_has_no_turn_order_to_judge():
    """With one seat the first seat wins every finished game it can: that is no advantage over
    chance (which is 1), and the report says there is nothing to compare (a solo game of an
    installed game, played by the engine alone)."""
    from tabletap.controller.selfplay.play import GameRecord
    from tabletap.controller.selfplay.report import render_text

    records = [GameRecord(i, ["solo"], ["solo"], 10, 5, {"solo": 3}, True, ["solo"])
               for i in range(20)]
    summary = summarise("any-game", records, "random", {}, 0)
    assert summary["first_seat_advantage"] == "one seat: no turn order to compare"
    assert "1 player," in render_text(summary)



class _ForkedFlushWaits(io.StringIO):
    """A stderr whose flush, in a forked child, waits on a lock the parent held at the fork:
    what a copy of a stream's lock held by another thread (a progress bar's) does to a child."""

    def __init__(self, held: threading.Lock) -> None:
        super().__init__()
        self.held, self.parent = held, os.getpid()

    def flush(self) -> None:
        if os.getpid() != self.parent:
            with self.held:
                pass
        super().flush()


@pytest.mark.timeout(60)
def test_the_workers_end_whatever_sigterm_handler_the_caller_set(capsys, monkeypatch):
    """A caller that catches SIGTERM to clean up (the soak and evenings tools do, and the tests
    run them in this process) must not leave `--jobs` waiting forever: with the caller's
    handler a worker the pool ends unwinds and flushes its streams, and a stream's lock copied
    held by the fork never comes free. The workers end on SIGTERM as the pool means them to."""
    held = threading.Lock()
    held.acquire()
    monkeypatch.setattr(sys, "stderr", _ForkedFlushWaits(held))
    old = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        assert main(["selfplay", "oversiege", "--games", "4", "--jobs", "2", "--json"]) == 0
    finally:
        signal.signal(signal.SIGTERM, old)
        held.release()
    assert json.loads(capsys.readouterr().out)["games"] == 4
