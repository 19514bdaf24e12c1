"""Memory (Concentration) for tabletap, as one package of its own distribution: the engine
(rules/, decks in rules/decks/*.yaml), the table layer (table.py), its pieces, undo sentences,
self-play players, page view and bench figures. It is registered under the entry-point group
`tabletap.games` by its pyproject.toml, the way a game made outside tabletap adds itself;
examples/memory/README.md explains the game and every decision taken.

Importing this module loads no engine and reads no deck: the spec's factories do.
"""

from __future__ import annotations

from tabletap.controller.games.spec import (
    GameSpec,
    Option,
    Page,
    Players,
    Seating,
    SelfPlay,
    SoakCase,
    later,
    value_of,
)
from tabletap_memory import pieces, selfplay, takeback
from tabletap_memory.words import DECK_HELP, DECK_LABELS, SEATING, TITLE

# The decks shipped in rules/decks/ (tests check this against the files): spelt here so the
# page's set-up form can offer them without the engine being loaded to find the game.
DECKS = ("default", "small")


GAME = GameSpec(
    name="memory",
    title=TITLE.msgid,
    piece_prefix=pieces.PREFIX,
    players=Players(1, 6),
    # the person-facing strings are msgids of the game's catalog (words.py): the table and the
    # page say them in the family's language
    options=(Option("deck", "default", DECK_HELP.msgid, DECKS,
                    tuple(label.msgid for label in DECK_LABELS)),),
    seating=Seating(SEATING.msgid, pieces.seat_of, by_button=True),
    engine=value_of("tabletap_memory.rules:ENGINE"),
    table=later("tabletap_memory.table:MemoryTable"),
    pieces=pieces.pieces,
    put_back=takeback.put_back,
    piece_words=pieces.words,
    page=Page("view.js", later("tabletap_memory.page:extras"), hint="ana, ben"),
    selfplay=SelfPlay(
        seats=lambda n: [f"seat{i + 1}" for i in range(n)],
        policies={"random": selfplay.uniform, "greedy": selfplay.greedy},
        variants={"2": (2, {}), "4": (4, {}), "small": (2, {"deck": "small"})},
    ),
    docs="examples/memory/README.md",
    bench="tabletap_memory.bench",
    soak=(SoakCase("memory", ("ana", "ben")),),
)
