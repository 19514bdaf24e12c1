"""The archive of finished games stays within its bound (issue 22, "many evenings").

`make evenings` found nothing pruned `<state>/games/`: about 19 KiB a game, so the image's state
partition fills after some 5,100 games and every move is refused from then on. Before the bound,
archiving game KEEP + 1 left KEEP + 1 files.
"""

from __future__ import annotations

from pathlib import Path

from tabletap.controller.state import archive
from tabletap.controller.state.journal import GameHeader, Journal
from tests.core.helpers import FAKES

HEADER = GameHeader("magic-keys", ["ana", "ben"], 5, {}, {"fake_keys": FAKES})


def test_the_oldest_finished_games_go_and_damaged_copies_stay(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(archive, "KEEP_GAMES", 3)
    monkeypatch.setattr(archive.prune, "__defaults__", (3,))
    games = tmp_path / "games"
    games.mkdir()
    for name in ["20250101-000000-1.jsonl", "20250102-000000-1-damaged.jsonl",
                 "20250103-000000-1.jsonl", "20250104-000000-1.jsonl"]:
        (games / name).write_text("{}\n")
    journal = Journal.in_dir(tmp_path)
    journal.start(HEADER)
    journal.append(1, {"type": "try-key", "key": "purple/1"})
    journal.start(HEADER)  # archives the game just played: four finished games, one too many
    left = sorted(p.name for p in games.iterdir())
    assert "20250101-000000-1.jsonl" not in left  # the oldest finished game went
    assert "20250102-000000-1-damaged.jsonl" in left  # a damaged copy is never pruned
    assert len([n for n in left if "-damaged" not in n]) == 3
    newest = max(n for n in left if "-damaged" not in n)
    assert "purple/1" in (games / newest).read_text()  # the game just archived is whole


def test_the_default_bound_is_years_of_evenings_inside_the_partition():
    # three games an evening, every evening: the bound is the newest 1.8 years of games, and
    # at about 19 KiB a game (docs/RELIABILITY.md) it takes under a third of the 128 MiB
    # state partition (image/layout.sh)
    assert archive.KEEP_GAMES * 19 * 1024 < 128 * 1024 * 1024 / 3
