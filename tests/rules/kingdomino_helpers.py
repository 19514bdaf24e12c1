"""Shared helpers for the Kingdomino tests: build states and kingdoms quickly."""

from __future__ import annotations

from tabletap.games.kingdomino.rules import ENGINE, KingdominoState
from tabletap.games.kingdomino.rules.actions import Action
from tabletap.games.kingdomino.rules.dominoes import Square
from tabletap.games.kingdomino.rules.kingdom import CASTLE_SQUARE, Pos
from tabletap.games.kingdomino.rules.kingdom_file import LETTERS

LETTER = {k: v for k, v in LETTERS.items()}


def grid(text: str) -> dict[Pos, Square]:
    """Cells from kingdom-file rows, positions relative to the castle."""
    rows = [line.split() for line in text.strip().splitlines()]
    cells: dict[Pos, Square] = {}
    castle: Pos | None = None
    for r, row in enumerate(rows):
        for c, tok in enumerate(row):
            if tok == ".":
                continue
            sq = Square(LETTER[tok[0]], int(tok[1:] or 0))
            if tok[0] == "C":
                castle = (r, c)
                sq = CASTLE_SQUARE
            cells[(r, c)] = sq
    assert castle is not None
    return {(r - castle[0], c - castle[1]): sq for (r, c), sq in cells.items()}


def confirm_all(state: KingdominoState) -> KingdominoState:
    """Tap every domino of the new line and turn up any gem the table owes."""
    while state.unconfirmed or state.reveals:
        action = ENGINE.legal_actions(state)[0]
        state = ENGINE.apply(state, action).state
    return state


def act(state: KingdominoState, **fields: object) -> KingdominoState:
    return ENGINE.apply(state, ENGINE.action_from_json(fields)).state


def claim(state: KingdominoState, domino: int) -> KingdominoState:
    return ENGINE.apply(state, Action("claim", domino=domino)).state


def placing(domino: int, cells: dict[Pos, Square] | None = None, options: dict | None = None,
            gems: tuple[str, str] = ("ruby/1", "sapphire/1"),
            rest: tuple[int, ...] = (44, 45, 46)) -> KingdominoState:
    """A 2-player game where `a` must now place `domino` into `cells` (a fresh kingdom if None).

    `domino` must be lower than every number in `rest` so that a's king plays first.
    """
    opts = dict(options or {})
    draw = [domino, *rest]
    s = ENGINE.new_game(["a", "b"], 7, opts, {
        "draw": draw, "king_order": ["a", "b", "b", "a"],
        **({"face_up": list(gems)} if opts.get("treasures", True) else {}),
    })
    s = confirm_all(s)
    line = sorted(draw)
    s = claim(s, line[0])
    for n in line[1:]:
        s = claim(s, n)
    s = confirm_all(s)
    assert ENGINE.current_player(s) == "a" and s.step == "place"
    if cells is not None:
        s.kingdoms["a"].cells = dict(cells)
    return s
