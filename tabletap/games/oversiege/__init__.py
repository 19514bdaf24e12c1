"""Oversiege, the castle-siege card game (rulebook "Official Rules, last updated 12.16.2020"), as
one package: its engine (rules/), the table layer (table.py), its pieces, undo sentences,
self-play policies and bench figures, and its page view. Decisions where the rulebook is silent
are written in docs/games/oversiege.md. Importing this module loads no engine.
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
from tabletap.games.oversiege import pieces, selfplay, takeback, words

MAX_PLAYERS = 10  # GROUP PLAY: "games with up to ten players" (rules/setup.py checks it too)


GAME = GameSpec(
    name="oversiege",
    title=words.TITLE.msgid,
    piece_prefix="oversiege",
    players=Players(2, MAX_PLAYERS),
    options=(
        Option("teams", None, words.TEAMS_HELP.msgid),
        Option("first_crown_wins", False, words.FIRST_CROWN_HELP.msgid, (False, True),
               (words.NO.msgid, words.YES.msgid)),
    ),
    seating=Seating(words.SEATING.msgid, pieces.seat_of),
    engine=value_of("tabletap.games.oversiege.rules:ENGINE"),
    table=later("tabletap.games.oversiege.table:OversiegeTable"),
    pieces=pieces.pieces,
    put_back=takeback.put_back,
    move_name=takeback.move_name,
    piece_words=words.words,
    page=Page("view.js", style="view.css", extras=None, hint=words.HINT.msgid),
    selfplay=SelfPlay(
        seats=lambda n: [f"p{i + 1}" for i in range(n)],  # seats name decks: lower-case
        policies={"random": selfplay.weighted, "greedy": selfplay.greedy},
        variants={"2": (2, {}), "10": (10, {})},
    ),
    docs="docs/games/oversiege.md",
    decks="a player's deck (repeatable; default red and blue)",
    bench="tabletap.games.oversiege.bench",
    soak=(SoakCase("oversiege", ("ana", "ben")),),
)
