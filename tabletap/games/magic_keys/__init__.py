"""Magic Keys (Happy Baobab), as one package: its engine (rules/), the table layer (table.py),
its pieces, undo sentences, self-play policies, bench figures and page view. docs/games/
magic-keys.md explains both dice modes, every reason code and every decision taken where the
rulebook is silent. Importing this module loads no engine: the spec's factories do.
"""

from __future__ import annotations

from tabletap.controller.games.spec import (
    Demo,
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
from tabletap.games.magic_keys import pieces, selfplay, takeback, words

FAKES = ["purple/4", "purple/5", "blue/1", "blue/2", "green/3", "green/5", "yellow/1",
         "yellow/2"]
TRUE_KEYS = ("purple/1", "purple/2", "purple/3", "blue/3", "blue/4", "blue/5", "green/1",
             "green/2", "green/4", "yellow/3", "yellow/4", "yellow/5")

GAME = GameSpec(
    name="magic-keys",
    title=words.TITLE.msgid,
    piece_prefix="magic-keys",
    players=Players(2, 4),
    options=(Option("dice", "physical", words.DICE_HELP.msgid, ("physical", "digital"),
                    (words.DICE_REAL.msgid, words.DICE_TABLE.msgid)),),
    seating=Seating(words.SEATING.msgid, pieces.seat_of, by_button=True),
    engine=value_of("tabletap.games.magic_keys.rules:ENGINE"),
    table=later("tabletap.games.magic_keys.table:MagicKeysTable"),
    pieces=pieces.pieces,
    put_back=takeback.put_back,
    move_name=takeback.move_name,
    piece_words=pieces.words,
    page=Page("view.js", style="view.css",
              extras=later("tabletap.games.magic_keys.page:extras"), hint="ana, ben"),
    selfplay=SelfPlay(
        seats=lambda n: [f"seat{i + 1}" for i in range(n)],
        policies={"random": selfplay.uniform, "greedy": selfplay.greedy},
        variants={"physical": (3, {"dice": "physical"}), "digital": (3, {"dice": "digital"})},
        resolve=selfplay.throw_dice,
    ),
    docs="docs/games/magic-keys.md",
    bench="tabletap.games.magic_keys.bench",
    # with the fakes fixed, every true key opens the chest; the golden key is always true
    demo=Demo(("ana", "ben"), tuple(f"magic-keys/key/{k}" for k in TRUE_KEYS),
              "magic-keys/key/gold", {"fake_keys": FAKES}),
    soak=(SoakCase("magic-keys", ("ana", "ben", "cleo"), {"setup": {"fake_keys": FAKES}}),
          SoakCase("magic-keys-digital", ("ana", "ben", "cleo"),
                   {"options": {"dice": "digital"}}),
          SoakCase("magic-keys-pico", ("ana", "ben", "cleo"), {"backend": "serial"})),
)
