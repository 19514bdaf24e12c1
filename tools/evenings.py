"""`make evenings`: a few hundred complete games in a row on one table, restarts between some.

A family's table lives for years on one state folder: every game it plays is archived there,
the journal is started afresh for each game, and the daemon runs whole evenings between power
cuts. This plays that life through the real daemon (tools/drive.py: `tabletap run --sim`, games
started with `{"new": ...}` and played to the end with legal actions by `{"do": ...}`), every
shipped game in turn, restarting the daemon before some games (SIGTERM, the box switched off, or
SIGKILL, the plug pulled; the first third of the games run in one long lifetime, an evening
that never ends), and records after every game: the archive's size and file count, the
journal's size, the daemon's RSS, and, as root, what the state partition holds and what was
written to it (the image's own partition on a loop device, tools/writes.py).

What "bounded" means here, and what is reported against it:
- the journal: begun afresh for each game, so bounded by the longest game; its size at the end
  of each game must not grow with the number of games played before;
- memory: the daemon's RSS over the long lifetime (its growth per game, least squares);
- the archive: every game is kept (nothing prunes `games/`), so it grows by one file per game;
  it is bounded only by the partition, and the report says how many games, and so how many years
  of evenings, the partition holds before a move is refused with `journal-error`.

    python tools/evenings.py --games 300        (make evenings GAMES=300)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive import Table, cases, rss_bytes  # noqa: E402
from tqdm import tqdm  # noqa: E402
from writes import EVENING_GAMES, CardImage, card  # noqa: E402

RESTART_SHARE = 0.25  # of the games after the long lifetime that begin with a restart
RSS_GROWTH_LIMIT = 64 * 1024  # bytes per game over the long lifetime: more is a leak


@dataclass
class Row:
    """The table after one game."""

    n: int
    game: str
    moves: int
    ended: bool
    seconds: float
    restarted: str  # "", "sigterm" or "sigkill": how the daemon was restarted before the game
    lifetime_game: int  # games this daemon has played, this one included
    journal_bytes: int
    archive_bytes: int
    archive_files: int
    rss_bytes: int
    partition_bytes: int  # in use on the state partition (as root; 0 otherwise)
    partition_inodes: int
    written_bytes: int  # sent to the state partition's device during this game (as root)


def _archive(folder: Path) -> tuple[int, int]:
    games = folder / "games"
    files = list(games.iterdir()) if games.is_dir() else []
    return sum(f.stat().st_size for f in files), len(files)


def _slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares growth of ys per unit of xs (0 with fewer than 3 points)."""
    if len(xs) < 3:
        return 0.0
    return statistics.linear_regression(xs, ys).slope


def live(games: int, seed: int, work: Path, progress: bool = True,
         labels: list[str] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play the games (every shipped kind in turn, or those `labels` name); (the report, the
    rows)."""
    rng = random.Random(seed)
    kinds = [c for c in cases() if labels is None or c.label in labels]
    long_life = max(1, games // 3)
    rows: list[Row] = []
    log = work / "daemons.log"
    with card(work) as state:
        table = Table(state.mount / "table", log, seed=seed)
        state.cleanups.append(table.stop)
        table.start(kinds[0])
        lifetime = 0
        bar = tqdm(range(games), unit="game", disable=not progress, file=sys.stdout)
        for n in bar:
            kind = kinds[n % len(kinds)]
            restarted = ""
            if n >= long_life and rng.random() < RESTART_SHARE:
                restarted = rng.choice(["sigterm", "sigkill"])
                table.stop(signal.SIGTERM if restarted == "sigterm" else signal.SIGKILL)
                table.start(kind)  # starts `kind` itself when the last game is over
                lifetime = 0
            before = state.settle()
            started = time.monotonic()
            if not table.playing():
                table.new_game(kind)
            moves, ended = table.play(rng)
            lifetime += 1
            written = state.settle() - before
            used = state.used()
            archive = _archive(table.folder)
            rows.append(Row(n + 1, kind.label, moves, ended, round(time.monotonic() - started, 2),
                            restarted, lifetime, table.journal.stat().st_size, *archive,
                            rss_bytes(table.pid), *used, written.write_bytes))
            bar.set_postfix_str(f"archive {archive[0] / 1024:.0f} KiB, rss "
                                f"{rows[-1].rss_bytes / 2**20:.1f} MiB", refresh=False)
        bar.close()
        free = state.free_for_users()
        inodes = os.statvfs(state.mount).f_favail if isinstance(state, CardImage) else 0
        table.stop(signal.SIGTERM)
    report = summarise(rows, long_life, free, inodes, isinstance(state, CardImage))
    return report, [asdict(r) for r in rows]


def summarise(rows: list[Row], long_life: int, free: int, inodes: int, on_card: bool
              ) -> dict[str, Any]:
    """The bounds, from the rows."""
    n = len(rows)
    half = n // 2
    by_game: dict[str, list[Row]] = {}
    for row in rows:
        by_game.setdefault(row.game, []).append(row)
    def per_move(rs: list[Row]) -> float:
        return sum(r.journal_bytes for r in rs) / max(1, sum(r.moves for r in rs))

    # Games differ in length, so the journal's bound is its size per move: the same in the
    # last games as in the first, whatever was played before (a journal carried over from
    # game to game would grow with them).
    journal = {game: {"max_bytes": max(r.journal_bytes for r in rs),
                      "bytes_per_move_first_half": round(per_move(rs[:max(1, len(rs) // 2)])),
                      "bytes_per_move_second_half": round(per_move(rs[len(rs) // 2:]))}
               for game, rs in by_game.items()}
    first = rows[:long_life]
    warm = first[len(first) // 5:]  # after the first games' imports, caches and arenas
    rss_growth = _slope([r.n for r in warm], [r.rss_bytes for r in warm])
    archive_per_game = (rows[-1].archive_bytes - rows[0].archive_bytes) / max(1, n - 1)
    partition_per_game = (rows[-1].partition_bytes - rows[0].partition_bytes) / max(1, n - 1)
    fills_after = int(free / partition_per_game) if on_card and partition_per_game > 0 else None
    games_left_inodes = inodes if on_card else None
    report = {
        "games": n, "moves": sum(r.moves for r in rows),
        "unfinished_games": sum(not r.ended for r in rows),
        "restarts": {"sigterm": sum(r.restarted == "sigterm" for r in rows),
                     "sigkill": sum(r.restarted == "sigkill" for r in rows)},
        "long_lifetime_games": long_life,
        "journal_at_game_end": journal,
        "rss_bytes": {"first_game": rows[0].rss_bytes, "max": max(r.rss_bytes for r in rows),
                      "end_of_long_lifetime": first[-1].rss_bytes,
                      "growth_per_game_in_long_lifetime_after_warm_up": round(rss_growth)},
        "archive": {"bytes": rows[-1].archive_bytes, "files": rows[-1].archive_files,
                    "bytes_per_game": round(archive_per_game),
                    "first_half_bytes_per_game": round(
                        (rows[half].archive_bytes - rows[0].archive_bytes) / max(1, half)),
                    "pruned": rows[-1].archive_files < n - 1},
        "on_a_card_image": on_card,
        "partition": {
            "used_bytes": rows[-1].partition_bytes, "used_inodes": rows[-1].partition_inodes,
            "bytes_per_game": round(partition_per_game), "free_for_the_daemon": free,
            "games_until_full": fills_after, "inodes_left": games_left_inodes,
            "years_until_full_at_3_games_every_evening":
                round(fills_after / (EVENING_GAMES * 365), 1) if fills_after else None,
        } if on_card else None,
        "written_bytes_per_game": round(statistics.mean(r.written_bytes for r in rows)),
        "seconds": round(sum(r.seconds for r in rows)),
        "bounded": {"journal": all(j["bytes_per_move_second_half"]
                                   <= 1.25 * j["bytes_per_move_first_half"] + 64
                                   for j in journal.values()),
                    "memory": rss_growth < RSS_GROWTH_LIMIT},
    }
    return report


def figure(rows: list[dict[str, Any]], every: int) -> str:
    """The rows as a text figure, one line every `every` games."""
    lines = [f"{'game':>5} {'archive KiB':>12} {'files':>6} {'journal KiB':>12} "
             f"{'RSS MiB':>8} {'partition KiB':>14}"]
    for row in rows:
        if row["n"] % every and row["n"] != len(rows):
            continue
        lines.append(f"{row['n']:>5} {row['archive_bytes'] / 1024:>12.0f} "
                     f"{row['archive_files']:>6} {row['journal_bytes'] / 1024:>12.1f} "
                     f"{row['rss_bytes'] / 2**20:>8.1f} {row['partition_bytes'] / 1024:>14.0f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write the report and every row as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    # SIGTERM unwinds like an exception: the daemon stopped, the card image unmounted
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.games < 2:
        parser.error("--games: at least 2")
    with tempfile.TemporaryDirectory(prefix="tabletap-evenings-") as tmp:
        report, rows = live(args.games, args.seed, Path(tmp), progress=not args.quiet)
    print(figure(rows, max(1, args.games // 10)))
    print(json.dumps(report, indent=2))
    if args.out:
        args.out.write_text(json.dumps({**report, "rows": rows}, indent=2) + "\n")
    if not all(report["bounded"].values()) or report["unfinished_games"]:
        print(f"NOT bounded or unfinished: {report['bounded']}, "
              f"{report['unfinished_games']} unfinished", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
