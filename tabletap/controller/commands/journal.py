"""`tabletap journal check|repair`: is the game on disk sound, and if not, keep what is.

`check` replays the journal read-only (it is safe while the daemon runs: the durable record is
read before the journal) and names the first damaged line, how many moves the durable record
says were answered at the table, and how many `repair` keeps. `repair` keeps every entry before
that line: the damaged journal is copied whole to `games/` first, so nothing is thrown away, the
durable record is reset to what was kept, and the repaired game resumes at the next start.

It needs the state folder to itself, so it refuses while a daemon holds it, saying to stop the
table first. That is the whole procedure for a maker (stop, repair, start), rather than asking
the running daemon to repair over its control socket: a daemon held on a damaged journal has no
game to lose by stopping, and one code path that owns the folder is simpler to trust.
"""

from __future__ import annotations

import argparse
import sys

from tabletap.controller.commands.common import add_config_argument, config_or_exit
from tabletap.controller.state.damage import STOP_FIRST, assess
from tabletap.controller.state.journal import Journal, JournalError, Replayed
from tabletap.controller.state.lock import StateLocked, state_lock


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("journal", help="check the game journal, or repair a damaged one")
    add_config_argument(p)
    p.add_argument("what", choices=["check", "repair"],
                   help="check: say whether the journal is sound (read-only); repair: keep "
                        "everything before the first damaged line")
    p.set_defaults(func=journal_command)


def _summary(replayed: Replayed) -> str:
    h = replayed.header
    return (f"{h.game} game of {', '.join(h.players)}, {replayed.actions} actions "
            f"(journal format {replayed.format})")


def journal_command(args: argparse.Namespace) -> int:
    config = config_or_exit(args)
    journal = Journal.in_dir(config.state_dir)
    if not journal.exists():
        print(f"tabletap: no game in {journal.path}", file=sys.stderr)
        return 1
    return _check(journal) if args.what == "check" else _repair(journal)


def _check(journal: Journal) -> int:
    try:
        replayed = journal.replay(repair=False)
    except JournalError as exc:
        damage = assess(journal, exc)
        assert damage is not None
        print(f"damaged: {exc}")
        print(f"{damage.saved_text()[0].upper()}{damage.saved_text()[1:]}; "
              f"{damage.repair_text()}.")
        return 1
    print(f"sound: {journal.path}: {_summary(replayed)}")
    for warning in replayed.warnings:
        print(f"note: {warning} (dropped at the next start)"
              if "torn last line" in warning else f"note: {warning}")
    return 0


def _repair(journal: Journal) -> int:
    try:
        with state_lock(journal.path.parent):
            result = journal.cut_at_damage()
    except StateLocked as exc:
        print(f"tabletap: cannot repair now: {exc} To repair, {STOP_FIRST}.", file=sys.stderr)
        return 2
    except JournalError as exc:
        print(f"tabletap: cannot repair: {exc}", file=sys.stderr)
        return 2
    if result is None:
        print(f"nothing to repair: {journal.path} is sound")
        return 0
    replayed, damage, copy = result
    print(f"repaired: {damage}")
    print(f"kept: {_summary(replayed)}; the damaged journal is saved as {copy}; the durable "
          "record now says the same")
    return 0
