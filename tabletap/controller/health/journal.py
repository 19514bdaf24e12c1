"""The journal's health: a damaged saved game, told where a grown-up looks.

When the journal is damaged the daemon starts held (table/runtime.py) and the table says only
that the saved game was damaged and kept safe; the detail (what happened, how many moves were
saved, how many `tabletap journal repair` keeps, that the damaged file is kept) is this finding,
which the phone page's doctor view shows (`tabletap doctor` reads the journal itself:
health/checks.py, `journal_findings`). A sound journal adds no
finding, so a healthy table's report is unchanged.
"""

from __future__ import annotations

from tabletap.controller.health.checks import JOURNAL_DEVICE, Finding
from tabletap.controller.language.messages import msg
from tabletap.controller.state.damage import assess
from tabletap.controller.state.journal import Journal


def held_findings(journal: Journal) -> list[Finding]:
    """The running daemon's journal: held because it is damaged, or a new game started over
    a damaged one (whose copy is named)."""
    if journal.damaged:
        damage = assess(journal)
        if damage is not None:
            return [Finding("failed", JOURNAL_DEVICE, damage.detail(), damage.said())]
    if journal.damaged_copy is not None:
        # TRANSLATORS: the table check after a new game replaced a damaged saved game
        said = msg("The saved game was damaged, so a new one was started instead; the damaged "
                   "game is kept whole.")
        return [Finding("warning", JOURNAL_DEVICE, "The saved game was damaged, so a new one "
                        "was started instead; the damaged journal is kept whole as "
                        f"{journal.damaged_copy}.", said)]
    return []
