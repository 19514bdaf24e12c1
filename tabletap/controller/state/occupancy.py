"""Whether a state folder holds a family's live game, for tools that must leave it alone (the
scenario runner asked to use a folder, say). It reads the lock and the journal, and writes
nothing."""

from __future__ import annotations

from pathlib import Path

from tabletap.controller.state.folder import StateFolder
from tabletap.controller.state.journal import Journal, JournalError
from tabletap.controller.state.lock import holder


def live_game(folder: str | Path) -> str | None:
    """Why `folder` holds a family's live game (a daemon plays it, or its journal has an
    unfinished or unreadable game), or None when a tool may use it. Read-only."""
    pid = holder(folder)
    if pid is not None:
        who = f"pid {pid}" if pid > 0 else "another process"
        return f"a tabletap daemon ({who}) is playing a game in {folder}"
    journal = Journal(StateFolder(folder).journal)
    if not journal.exists():
        return None
    try:
        replayed = journal.replay(repair=False)
    except JournalError as exc:
        return f"{folder} holds a game whose journal needs a look first ({exc})"
    if replayed.engine.is_over(replayed.state):
        return None
    h = replayed.header
    return (f"{folder} holds the unfinished {h.game} game of {', '.join(h.players)} "
            f"({replayed.actions} actions)")
