"""By hand, once: GiM6114's Kingdomino scorer (`Boards.count`, github.com/GiM6114/Kingdomino_RL,
kingdomino/board.py) against tabletap's from-scratch `score_kingdom` and the bench's plain flood
fill, on the same kingdoms (bench.kingdomino's, without gems), in one run. Not part of
`make bench`: it needs their code, which is not copied here; point it at a checkout of it.

    git clone https://github.com/GiM6114/Kingdomino_RL /tmp/gim
    .venv/bin/python -m tabletap.games.kingdomino.gim6114 /tmp/gim      (numpy must be installed)

Each kingdom goes on one of their boards (castle in the middle, landscapes as codes, crowns in
`Boards.crowns`); building the boards is not timed. Every score is checked equal first.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tabletap.games.kingdomino import bench as kb
from tabletap.games.kingdomino.rules.scoring import score_kingdom


def main(checkout: str) -> None:
    sys.path.insert(0, str(Path(checkout).resolve()))  # their board.py imports their printer
    import numpy as np
    from kingdomino.board import Boards  # type: ignore[import-not-found]

    positions = kb._positions()
    kingdoms = [(s.kingdoms[p].cells, s.size) for s, p in positions if not s.kingdoms[p].gems]
    plain = [{pos: (sq.terrain, sq.crowns) for pos, sq in cells.items()} for cells, _ in kingdoms]
    side = 2 * max(size for _, size in kingdoms) - 1  # the kingdom may lie anywhere around it
    terrains = sorted({sq.terrain for cells, _ in kingdoms for sq in cells.values()} - {"castle"})
    code = {t: i for i, t in enumerate(terrains)}
    boards = Boards(side, len(kingdoms))
    mid = boards.middle
    for p, (cells, _) in enumerate(kingdoms):
        for (r, c), sq in cells.items():
            if sq.terrain != "castle":
                boards.boards[p, mid + r, mid + c] = code[sq.terrain]
                boards.crowns[p, mid + r, mid + c] = sq.crowns
    for p, ((cells, _), flat) in enumerate(zip(kingdoms, plain, strict=True)):
        ours = score_kingdom(cells).score
        assert ours == kb.plain_fill_score(flat) == int(boards.count(p)), p
    # taking turns, so a slow spell falls on all four; each through one lambda, as in bench.py
    fill, ours, read, theirs = kb.rates_by_turns([
        (plain, lambda flat: kb.plain_fill_score(flat)),
        (kingdoms, lambda k: score_kingdom(k[0]).score),
        (kingdoms, lambda k: score_kingdom(k[0]).territories),
        (list(range(len(kingdoms))), lambda p: boards.count(p)),
    ])
    print(f"{len(kingdoms)} kingdoms, their boards {side}x{side}, numpy {np.__version__}, "
          f"Python {sys.version.split()[0]}")
    print(f"plain flood fill             {fill:10.0f} /s")
    print(f"score_kingdom().score        {ours:10.0f} /s  {ours / fill:.2f} x the fill")
    print(f"score_kingdom().territories  {read:10.0f} /s  {read / fill:.2f} x the fill")
    print(f"GiM6114 Boards.count         {theirs:10.0f} /s  {theirs / fill:.3f} x the fill; "
          f"score_kingdom is {ours / theirs:.1f} x it")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
