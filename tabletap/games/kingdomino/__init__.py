"""Kingdomino with The Lost Treasures, as one package: its engine and data (rules/: dominoes.csv,
treasures.yaml), the table layer (table.py), its pieces, undo sentences, self-play policies,
page extras, bench figures, scenario generator and kingdom files (`tabletap score kingdomino`).
docs/games/kingdomino.md has every decision. Importing this module loads no engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletap.controller.games.spec import (
    GameSpec,
    Option,
    Page,
    Players,
    ScoreFile,
    Seating,
    SelfPlay,
    SoakCase,
    later,
    value_of,
)
from tabletap.games.kingdomino import pieces, selfplay, takeback, words


def _most(options: Mapping[str, Any]) -> int:
    return 2 if options.get("mighty_duel") else 4  # Mighty Duel: "a game for 2 players"


GAME = GameSpec(
    name="kingdomino",
    title=words.TITLE.msgid,
    piece_prefix="kingdomino",
    players=Players(2, 4, _most),
    options=(
        Option("treasures", True, words.TREASURES.msgid, (True, False),
               words.YES_NO),
        Option("dynasty", False, words.DYNASTY.msgid, (False, True),
               words.NO_YES),
        Option("middle_kingdom", False, words.MIDDLE_KINGDOM.msgid, (False, True),
               words.NO_YES),
        Option("harmony", False, words.HARMONY.msgid, (False, True),
               words.NO_YES),
        Option("mighty_duel", False, words.MIGHTY_DUEL.msgid, (False, True),
               words.NO_YES),
    ),
    seating=Seating(words.SEATING.msgid, pieces.seat_of),
    engine=value_of("tabletap.games.kingdomino.rules:ENGINE"),
    table=later("tabletap.games.kingdomino.table:KingdominoTable"),
    pieces=pieces.pieces,
    put_back=takeback.put_back,
    move_name=takeback.move_name,
    table_checks=takeback.TABLE_CHECKS,
    piece_words=pieces.words,
    page=Page("view.js", style="view.css",
              extras=later("tabletap.games.kingdomino.page:extras"), hint="ana, ben"),
    selfplay=SelfPlay(
        seats=lambda n: [f"seat{i + 1}" for i in range(n)],
        policies={"random": selfplay.uniform, "greedy": selfplay.greedy},
        variants={"2": (2, {}), "4": (4, {})},
        record=selfplay.record,
        summary=selfplay.summary,
    ),
    docs="docs/games/kingdomino.md",
    bench="tabletap.games.kingdomino.bench",
    soak=(SoakCase("kingdomino", ("ana", "ben")),),
    score_file=ScoreFile(later("tabletap.games.kingdomino.scorefile:add_arguments"),
                         later("tabletap.games.kingdomino.scorefile:score"),
                         "a finished kingdom written as a kingdom file"),
    scenarios="tabletap.games.kingdomino.scenarios",
)
