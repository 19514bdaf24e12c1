"""A damaged journal, said for each audience: the family, the maker, `journal check`.

The daemon does not resume a journal that fails its checks (state/journal.py) and does not cut
it either: it starts held (table/runtime.py), tells the table in a sentence a child's parent
understands, and puts the detail where a grown-up looks (the health findings of `tabletap
doctor` and the phone page's doctor view). `tabletap journal check` prints the same detail.
"""

from __future__ import annotations

from pathlib import Path

from msgspec import Struct

from tabletap.controller.language.messages import msg, msg_n
from tabletap.controller.language.said import Said
from tabletap.controller.language.words import Words
from tabletap.controller.state.journal import Journal, JournalError

# Said once at the table: no command, no id, no path.
# TRANSLATORS: said at the table when it starts and the saved game could not be read back
FAMILY_SAID = msg("The saved game was damaged, so it was not started again. It is kept safe. "
                  "A grown-up can see what happened on the phone page.")
# On the page, where a parent reads: where the detail is.
# TRANSLATORS: shown on the phone page after the sentence about the damaged saved game; "Check
# the table" and "Check now" are the page's own section and button (use the page's words)
PAGE_SAID = msg("On a paired phone, open \"Check the table\" and press \"Check now\" to see "
                "what happened to the saved game, how many moves were saved and what a repair "
                "keeps.")
# The top line of the page while the daemon holds the damaged game (the feed says the rest).
# TRANSLATORS: the top line of the phone page while the damaged saved game is kept; "Check the
# table" is the page's own section (use the page's words)
HELD_SAID = msg("The saved game was damaged, so it was not started again. It is kept safe: "
                "\"Check the table\" below says what happened and what a repair keeps.")
# the same in English, for logs and the tests that read them
FAMILY_SENTENCE, PAGE_SENTENCE, HELD_LINE = (Words()(s) for s in (FAMILY_SAID, PAGE_SAID,
                                                                  HELD_SAID))
STOP_FIRST = ("stop the table first (`sudo systemctl stop tabletap`, or Ctrl-C in its console) "
              "and start it again afterwards")


class Damage(Struct, frozen=True):
    """What is wrong with the journal at `path`, and what each way out keeps."""

    path: Path
    error: JournalError
    saved: int | None  # the actions the durable record says were answered at the table
    kept: int | None  # the actions `tabletap journal repair` keeps (None: nothing)

    def saved_text(self) -> str:
        if self.saved is None:
            return "there is no durable record to say how many moves were saved"
        return f"the durable record says {_moves(self.saved)} were saved and answered at the table"

    def repair_text(self) -> str:
        if self.kept is None:
            return ("`tabletap journal repair` cannot keep anything (the game header itself is "
                    "damaged)")
        return (f"`tabletap journal repair` keeps {_moves(self.kept)} (every entry before the "
                "damage) and saves the damaged journal whole in games/")

    def detail(self) -> str:
        """For the maker: what happened, how many moves were saved, what repair keeps."""
        return (f"The saved game was not resumed and its journal is left as it is. {self.error}."
                f" So {self.saved_text()}; {self.repair_text()}: to repair, {STOP_FIRST}. Or "
                "start a new game at the table: the damaged journal is first saved whole in "
                "games/ under a `-damaged` name.")


    def said(self) -> Said:
        """For the parent on the phone page: what happened and what each way out keeps, in
        their language (the maker's detail, with its commands, stays in `detail`)."""
        if self.saved is None:
            # TRANSLATORS: the table check, about a damaged saved game
            saved = msg("Nobody can tell how many moves were saved.")
        else:
            # TRANSLATORS: the table check, about a damaged saved game; n is a count of moves
            saved = msg_n("%(n)s move was saved and answered at the table.",
                          "%(n)s moves were saved and answered at the table.", self.saved)
        if self.kept is None:
            # TRANSLATORS: the table check, about a damaged saved game
            repair = msg("A repair cannot keep anything of it.")
        else:
            # TRANSLATORS: the table check, about a damaged saved game; n is a count of moves
            repair = msg_n("A repair keeps %(n)s move, everything before the damage.",
                           "A repair keeps %(n)s moves, everything before the damage.",
                           self.kept)
        # TRANSLATORS: the table check, about a damaged saved game; saved and repair are the
        # sentences above. The maker's instructions for a repair are shown folded below it
        return msg("The saved game could not be read back, so it was not started again; it is "
                   "kept as it is. %(saved)s %(repair)s Whoever built the table can repair it "
                   "(the details are below), or you can start a new game at the table: the "
                   "damaged game is kept first.", saved=saved, repair=repair)


def _moves(n: int) -> str:
    return f"{n} move{'' if n == 1 else 's'}"


def assess(journal: Journal, error: JournalError | None = None) -> Damage | None:
    """The damage of `journal` (read-only; `error` if its replay already failed), or None when
    it is sound."""
    if error is None:
        try:
            journal.replay(repair=False)
            return None
        except JournalError as exc:
            error = exc
    return Damage(journal.path, error, error.saved, journal.kept_by_repair(error))
