"""Where the phone page draws a pack's kingdom: the pack's `layout.yaml`, or an arrangement of
our own when it has none.

Only the picture needs coordinates, so they live beside the rules rather than in them: the
engine's Pack never reads this file, a pack typed in without it still plays, and a mistake in it
(a typo, a space the board lacks) is logged and drawn round, never a game refused. Every entry
carries `status: confirmed | likely | guess` like the rest of a pack, so a maker sees which
places were measured on a real board.
"""

from __future__ import annotations

import logging
import math
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from tabletap.controller.loading.schema import Meta
from tabletap.controller.rules.base import JSON
from tabletap.games.key_to_the_kingdom.rules.pack import (
    Pack,
    PackError,
    Status,
    _checked,
    _read,
    _Strict,
    packaged_packs,
)

log = logging.getLogger("tabletap.kttk.layout")

FILE = "layout.yaml"
Point = tuple[float, float]
Rect = tuple[float, float, float, float]


class _Place(_Strict):
    status: Status
    at: Rect


class _LandPlace(_Strict):
    status: Status
    at: Rect
    # \Z, not $: Python's $ would let a colour with a trailing newline through
    colour: Annotated[str, Meta(pattern=r"^#[0-9a-fA-F]{6}\Z")] = "#eeeae0"
    spaces: dict[str, Point] = {}


class _Spaces(_Strict):
    status: Status
    spaces: dict[str, Point] = {}


class _Bend(_Strict):
    status: Status
    between: tuple[str, str]
    via: Annotated[list[Point], Meta(min_length=1, max_length=8)]


class _LayoutFile(_Strict):
    status: Status
    size: tuple[float, float]
    boards: dict[int, _Place] = {}
    demon_board: _Place
    castle: _Place
    lands: dict[str, _LandPlace]
    courtyard: _Spaces
    bends: list[_Bend] = []


def _folder(ref: str) -> Any:
    if "/" not in ref and ref in packaged_packs():
        return resources.files("tabletap.games.key_to_the_kingdom.rules").joinpath("packs", ref)
    return Path(ref)


def _from_file(pack: Pack) -> _LayoutFile | None:
    folder = _folder(pack.ref)
    if not folder.joinpath(FILE).is_file():
        return None
    try:
        layout: _LayoutFile = _checked(_read(folder, FILE, str(pack.ref)), _LayoutFile)
    except PackError as exc:
        log.warning("%s: the board is drawn in our own arrangement instead", exc)
        return None
    for land, place in layout.lands.items():
        wrong = [s for s in place.spaces if pack.spaces.get(s) is None
                 or pack.spaces[s].land != land]
        if land not in pack.lands or wrong:
            log.warning("%s/%s: %s is not on the board as board.yaml has it; that land is "
                        "placed in our own arrangement", pack.ref, FILE,
                        land if land not in pack.lands else ", ".join(wrong))
    return layout


def _ring(box: Rect, n: int) -> list[Point]:
    """n places evenly round an ellipse inside `box`: a land without coordinates of its own."""
    x, y, w, h = box
    rx, ry = w / 2 - 16, h / 2 - 24
    return [(round(x + w / 2 + rx * math.sin(2 * math.pi * i / n)),
             round(y + h / 2 + 8 - ry * math.cos(2 * math.pi * i / n))) for i in range(n)]


def layout_of(pack: Pack) -> JSON:
    """The picture of `pack`'s board as the page draws it (extras' `map`): every land's
    rectangle and colour, every space's centre, the boards, the Demon King board, the castle,
    the paths and their bends, the key adventures' colours, and which of it is only a guess.

    Cached by the pack's name (a Pack holds dicts, so it is no cache key itself), as load_pack
    caches the pack: neither changes while the daemon runs."""
    if pack.ref not in _CACHE:
        _CACHE[pack.ref] = _layout(pack)
    return _CACHE[pack.ref]


_CACHE: dict[str, JSON] = {}


def _layout(pack: Pack) -> JSON:
    found = _from_file(pack)
    flapped = {land: f for f in pack.flaps.values() for land in (f.closed, f.open)}
    lands = [land for land in pack.lands if land != "courtyard"]
    # our own arrangement, for what the file does not place: each always-showing land and each
    # flap (both its sides in one place) a column of its own, in board.yaml's order
    columns: list[str] = []
    for land in lands:
        column = flapped[land].id if land in flapped else land
        if column not in columns:
            columns.append(column)
    width, height = 100.0 * len(columns), 290.0
    auto: dict[str, Rect] = {
        land: (100.0 * columns.index(flapped[land].id if land in flapped else land), 106.0,
               100.0, height) for land in lands}
    out_lands: list[JSON] = []
    spaces: dict[str, Point] = {}
    status = "guess"
    if found is not None:
        width, height = found.size[0], found.size[1] - 106.0
        status = found.status
    for land in lands:
        place = found.lands.get(land) if found is not None else None
        ids = pack.lands[land]
        box = place.at if place is not None else auto[land]
        ring = _ring(box, len(ids))
        for i, sid in enumerate(ids):
            spaces[sid] = place.spaces[sid] if place is not None and sid in place.spaces \
                else ring[i]
        out_lands.append({"land": land, "at": list(box),
                          "colour": place.colour if place is not None else "#eeeae0",
                          "status": place.status if place is not None else "guess"})
    court = found.courtyard.spaces if found is not None else {}
    for i, sid in enumerate(pack.courtyard):
        spaces[sid] = court.get(sid, (36.0 + 38 * i, 66.0))
    boards = [{"board": n, "at": list(p.at), "status": p.status}
              for n, p in (found.boards.items() if found is not None else ())]
    demon = found.demon_board.at if found is not None else (4.0, 4.0, width - 8, 94.0)
    castle = found.castle.at if found is not None else (width - 170, 14.0, 166.0, 78.0)
    bends = [{"between": list(b.between), "via": [list(p) for p in b.via]}
             for b in (found.bends if found is not None else ())
             if all(s in spaces for s in b.between)]
    return {
        "size": [width, 106.0 + height if found is None else found.size[1]],
        "status": status,
        "boards": boards,
        "demon_board": list(demon),
        "castle": list(castle),
        "lands": out_lands,
        "spaces": {sid: list(p) for sid, p in spaces.items()},
        "bends": bends,
        # the paths as pairs of joined spaces, once each (board.yaml's chains)
        "links": [list(p) for p in sorted({tuple(sorted((a, b)))
                                           for a, near in pack.neighbours.items() for b in near})],
        # a key adventure's start shows its key's colour on the board
        "colours": {a.start: a.colour for a in pack.adventures.values() if a.colour},
    }

