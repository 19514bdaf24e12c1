"""Memory's message functions, and the spec's sentences as messages of its own catalog.

Every sentence this game says is a message of the domain `memory`, translated in
`tabletap_memory/locale/<lang>/LC_MESSAGES/memory.po` (docs/LANGUAGES.md). The game's modules
import `msg` and `msg_n` from here, so that Babel finds each call by its keyword and the
`TRANSLATORS:` comment above it. The spec's strings are defined once here as messages and the
spec is built from their `.msgid`, so the English the spec holds cannot drift from the catalog.

Importing this module reads no deck and loads no engine (the spec imports it).
"""

from __future__ import annotations

from tabletap.controller.language.said import Domain

DOMAIN = "memory"
msg, msg_n, msg_p, msg_np = Domain(DOMAIN).functions()

# TRANSLATORS: the game's name, said at set-up ("Setting up Memory") and shown on the page
TITLE = msg("Memory")
# TRANSLATORS: the set-up page's sentence beside the deck option
DECK_HELP = msg("Which pictures are in play: the default deck's twelve pairs, or the small "
                "deck's six for the youngest.")
DECK_LABELS = (
    # TRANSLATORS: a choice of the deck option on the set-up page: the default deck
    msg("twelve pairs"),
    # TRANSLATORS: a choice of the deck option on the set-up page: the small deck
    msg("six pairs"),
)
# TRANSLATORS: said at set-up, after "Setting up Memory:": how players join (the roll button
# is the table's button with the die on it)
SEATING = msg("press the roll button once for each player")
