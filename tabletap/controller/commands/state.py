"""`tabletap state`: the game in the journal, as the table sees it.

It replays the journal read-only, so it works whether or not the daemon is running. Hidden
information (which keys are fake) is shown only with `--reveal`: a curious child at the console
should not spoil the game.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from tabletap.controller.commands.common import (
    PERMISSION_HINT,
    add_config_argument,
    config_or_exit,
)
from tabletap.controller.state.journal import Journal, JournalError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("state", help="print the current game's public state")
    add_config_argument(p)
    p.add_argument("--json", action="store_true", help="machine-readable JSON")
    p.add_argument("--reveal", action="store_true", help="also show hidden information")
    p.set_defaults(func=show_state)


def show_state(args: argparse.Namespace) -> int:
    config = config_or_exit(args)
    try:
        journal = Journal.in_dir(config.state_dir)
        if journal.exists() and not os.access(journal.path, os.R_OK):
            raise PermissionError(journal.path)
    except PermissionError:
        print(f"tabletap: you may not read the table's state folder {config.state_dir}. "
              f"{PERMISSION_HINT}", file=sys.stderr)
        return 2
    if not journal.exists():
        print(f"tabletap: no game in {journal.path}", file=sys.stderr)
        return 1
    try:
        replayed = journal.replay(repair=False)
    except JournalError as exc:
        print(f"tabletap: {exc}", file=sys.stderr)
        return 2
    engine, state = replayed.engine, replayed.state
    view = engine.public_view(state, args.reveal)
    if args.json:
        print(json.dumps(view, indent=2, sort_keys=True))
        return 0
    h = replayed.header
    seed = f" (seed {h.seed})" if args.reveal else ""  # the seed gives the secrets away
    print(f"{h.game}: {', '.join(h.players)}{seed}, {replayed.actions} actions")
    scores = engine.scores(state)
    print("scores: " + ", ".join(f"{p} {scores.get(p, 0)}" for p in h.players))
    winners = engine.winners(state)
    if winners:
        print("winner: " + " and ".join(winners))
    else:
        print(f"turn: {engine.current_player(state)}")
    for key, value in view.items():
        if key not in ("players", "scores"):
            print(f"{key}: {json.dumps(value, sort_keys=True)}")
    return 0
