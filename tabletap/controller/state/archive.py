"""The archive of finished games (`<state>/games/`), kept within a bound.

Every finished or abandoned game is moved there whole, and nothing else reads it back at the
table; left alone it grows by about 19 KiB a game until the state partition is full (after about
5,100 games on the image's 128 MiB partition, `make evenings`, docs/RELIABILITY.md), and from
then on every move would be refused for want of room. So once more than KEEP_GAMES finished
games are there, the oldest are deleted, a line in the log each time. A damaged journal the
daemon saved (`-damaged`) is never deleted here: it is what `tabletap journal repair` and a
person looking into a lost game need, and there are only ever a few.
"""

from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger("tabletap.journal")

KEEP_GAMES = 2000  # about 38 MiB: years of evenings, well inside the 128 MiB state partition
DAMAGED = "-damaged"


def prune(games: Path, keep: int = KEEP_GAMES) -> list[Path]:
    """Delete the oldest finished games in `games` beyond the newest `keep` (their names start
    with the time they were archived, so name order is age order); the deleted paths. Best
    effort: a file that cannot be deleted is logged and left, never a reason to refuse a move."""
    try:
        finished = sorted(p for p in games.glob("*.jsonl") if DAMAGED not in p.name)
    except OSError as exc:
        log.error("%s: cannot list the archive: %s", games, exc)
        return []
    gone = []
    for path in finished[:max(0, len(finished) - keep)]:
        try:
            path.unlink()
            gone.append(path)
        except OSError as exc:
            log.error("%s: cannot delete an old archived game: %s", path, exc)
    if gone:
        log.info("the archive keeps the newest %d finished games: deleted %d older ones (%s to "
                 "%s)", keep, len(gone), gone[0].name, gone[-1].name)
    return gone
