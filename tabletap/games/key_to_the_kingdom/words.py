"""Key to the Kingdom's message functions (catalog domain `key-to-the-kingdom`) and the spec's
sentences, defined here as messages so that the spec's English is the catalog's msgid and
cannot drift from it (docs/LANGUAGES.md). Imports nothing of the engine."""

from __future__ import annotations

from tabletap.controller.language.said import Domain

DOMAIN = "key-to-the-kingdom"
msg, msg_n, msg_p, msg_np = Domain(DOMAIN).functions()

# TRANSLATORS: the game's name, on the page's game list and in set-up sentences
TITLE = msg("Key to the Kingdom")
# TRANSLATORS: set-up: how players join; each player is the hero whose figure they tap
SEATING = msg("each player taps their hero")
# TRANSLATORS: set-up form: the option for the dice
DICE = msg("The dice: the table rolls them, or you roll real dice and enter them.")
# TRANSLATORS: set-up form: a choice of the dice option
DICE_DIGITAL = msg("the table rolls")
# TRANSLATORS: set-up form: a choice of the dice option (the family rolls the printed dice)
DICE_PHYSICAL = msg("real dice")
# TRANSLATORS: set-up form: the option that has the table draw the event cards
DIGITAL_EVENTS = msg("The table draws the event cards instead of the deck.")
# TRANSLATORS: set-up form: the option naming the game's content (boards, cards, heroes)
PACK = msg("The content pack: a shipped pack's name or a folder.")
# TRANSLATORS: set-up form: a hint of the player names this game takes (its heroes)
HINT = msg("heroes, e.g. knight, wizard")
# TRANSLATORS: set-up form: the choice that turns an option off
NO = msg("no")
# TRANSLATORS: set-up form: the choice that turns an option on
YES = msg("yes")
NO_YES = (NO.msgid, YES.msgid)
