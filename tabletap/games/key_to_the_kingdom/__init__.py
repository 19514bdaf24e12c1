"""Key to the Kingdom (Restoration Games, 2021), as one package: heroes, adventures and the
Demon King. Its engine is rules/ (the rulebook gives the structure; the content is a pack under
rules/packs/), the table layer table.py, the page extras page.py, and its pieces, undo
sentences, self-play, bench figures, scenario generator and pack check beside them. Decisions
where the rulebook is silent are in docs/games/key-to-the-kingdom.md. Importing this module
loads no engine.
"""

from __future__ import annotations

from tabletap.controller.games.spec import (
    Content,
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
from tabletap.games.key_to_the_kingdom import pieces, selfplay, takeback, words

MIN_HEROES, MAX_HEROES = 2, 5  # rules/setup.py checks the same range


GAME = GameSpec(
    name="key-to-the-kingdom",
    title=words.TITLE.msgid,
    piece_prefix="kttk",
    players=Players(MIN_HEROES, MAX_HEROES),
    options=(
        Option("dice", "digital", words.DICE.msgid, ("digital", "physical"),
               (words.DICE_DIGITAL.msgid, words.DICE_PHYSICAL.msgid)),
        Option("digital_events", False, words.DIGITAL_EVENTS.msgid, (False, True),
               words.NO_YES),
        Option("pack", "default", words.PACK.msgid),
    ),
    seating=Seating(words.SEATING.msgid, pieces.seat_of),
    engine=value_of("tabletap.games.key_to_the_kingdom.rules:ENGINE"),
    table=later("tabletap.games.key_to_the_kingdom.table:KttkTable"),
    pieces=pieces.pieces,
    put_back=takeback.put_back,
    piece_words=pieces.words,
    page=Page("view.js", style="view.css",
              extras=later("tabletap.games.key_to_the_kingdom.page:extras"),
              hint=words.HINT.msgid),
    selfplay=SelfPlay(
        seats=selfplay.seats,
        policies={"random": selfplay.uniform, "greedy": selfplay.purposeful},
        # the event cards are drawn by the engine (nobody taps a physical deck)
        options={"digital_events": True},
        # uniform play wanders for thousands of actions before anyone wins; a family's game is
        # a few hundred, which the purposeful policy plays, still choosing only legal actions
        family_policy="greedy",
    ),
    docs="docs/games/key-to-the-kingdom.md",
    bench="tabletap.games.key_to_the_kingdom.bench",
    soak=(SoakCase("key-to-the-kingdom", ("knight", "wizard", "ranger"),
                   {"options": {"dice": "digital"}}),),
    content=Content(later("tabletap.games.key_to_the_kingdom.content:check"),
                    "a Key to the Kingdom content pack"),
    scenarios="tabletap.games.key_to_the_kingdom.scenarios",
)
