"""Kingdomino's messages (catalog domain `kingdomino`, locale/): the functions every sentence of
the game is built with, the spec's sentences, and the names of what the table talks about
(landscapes, king colours), so each language says them its own way (docs/LANGUAGES.md)."""

from __future__ import annotations

from tabletap.controller.language.said import Domain, ListOf, Named, Said

msg, msg_n, msg_p, msg_np = Domain("kingdomino").functions()

# -- the spec's sentences (GameSpec takes their English, the msgid) ---------------------------

# TRANSLATORS: the game's name, as the box says it
TITLE = msg("Kingdomino")
# TRANSLATORS: an option chosen at set-up (the page's settings)
TREASURES = msg("The Lost Treasures: gem tokens in the kingdoms.")
# TRANSLATORS: an option chosen at set-up (the page's settings)
DYNASTY = msg("Dynasty: three games, the scores summed.")
# TRANSLATORS: an option chosen at set-up (the page's settings)
MIDDLE_KINGDOM = msg("Middle Kingdom: 10 points for the castle in the centre.")
# TRANSLATORS: an option chosen at set-up (the page's settings)
HARMONY = msg("Harmony: 5 points for a complete kingdom.")
# TRANSLATORS: an option chosen at set-up (the page's settings); 7×7 is the kingdom's size
MIGHTY_DUEL = msg("Mighty Duel: two players, all 48 dominoes, 7×7 kingdoms.")
# TRANSLATORS: an option's choice on the page's set-up form: the option is played
YES = msg("yes")
# TRANSLATORS: an option's choice on the page's set-up form: the option is not played
NO = msg("no")
YES_NO = (YES.msgid, NO.msgid)  # the labels of an option whose choices are (True, False)
NO_YES = (NO.msgid, YES.msgid)
# TRANSLATORS: said at set-up, after "Setting up Kingdomino:": how a player takes a seat
SEATING = msg("each player taps one of their kings")

# -- landscapes -------------------------------------------------------------------------------

LANDSCAPES: dict[str, Said] = {
    # TRANSLATORS: a landscape of Kingdomino, as the printed game names it
    "wheat": msg("wheat field"),
    # TRANSLATORS: a landscape of Kingdomino, as the printed game names it
    "forest": msg("forest"),
    # TRANSLATORS: a landscape of Kingdomino, as the printed game names it
    "lake": msg("lake"),
    # TRANSLATORS: a landscape of Kingdomino, as the printed game names it
    "grassland": msg("grassland"),
    # TRANSLATORS: a landscape of Kingdomino, as the printed game names it
    "swamp": msg("swamp"),
    # TRANSLATORS: a landscape of Kingdomino, as the printed game names it
    "mine": msg("mine"),
}


def landscapes_of(number: int) -> ListOf:
    """A domino's landscapes, as a child sees its face: one when both halves are alike."""
    from tabletap.games.kingdomino.rules.dominoes import dominoes

    d = dominoes()[number]
    left, right = d.left.terrain, d.right.terrain
    names = (left,) if left == right else (left, right)
    return ListOf(tuple(LANDSCAPES[t] for t in names))


# -- pieces -----------------------------------------------------------------------------------

KINGS: dict[str, Said] = {
    # TRANSLATORS: a piece: the pink king (each player has one or two kings of a colour)
    "pink": msg("the pink king"),
    # TRANSLATORS: a piece: the yellow king
    "yellow": msg("the yellow king"),
    # TRANSLATORS: a piece: the green king
    "green": msg("the green king"),
    # TRANSLATORS: a piece: the blue king
    "blue": msg("the blue king"),
}
CASTLES: dict[str, Said] = {
    # TRANSLATORS: a piece: the pink castle, the start of a kingdom
    "pink": msg("the pink castle"),
    # TRANSLATORS: a piece: the yellow castle
    "yellow": msg("the yellow castle"),
    # TRANSLATORS: a piece: the green castle
    "green": msg("the green castle"),
    # TRANSLATORS: a piece: the blue castle
    "blue": msg("the blue castle"),
}


def domino_number(number: object) -> Said:
    """A domino by the number on its back (while the line is laid out, number side up)."""
    # TRANSLATORS: a domino by the number printed on its back; n is that number
    return msg("domino %(n)s", n=number)


def gem(token: str) -> Named | str:
    """A treasure token's gem as treasures.yaml names it in each language (`ruby/2` -> ruby)."""
    from tabletap.games.kingdomino.rules.treasures import token_kind, token_kinds

    kind = token_kinds().get(token_kind(token))
    return kind.named if kind is not None else token_kind(token)


def gem_token(token: str) -> Said:
    """A treasure token as a piece: "the ruby token"."""
    # TRANSLATORS: a treasure token as a piece; gem is its gem's name (ruby, ..., joker)
    return msg("the %(gem)s token", gem=gem(token))


def gems(tokens: list[str]) -> ListOf:
    """Several gems, said "a ruby or an emerald" style as a list of names."""
    return ListOf(tuple(gem(t) for t in tokens), style="or")
