"""The core of tabletap, grouped by what each part belongs to (docs/CONTRACTS.md, "Layout").

From the ground up, each folder importing only those below it:
    loading/         safe loading: bounded YAML and JSON, files read with their names
    rules/           the engine contract every game's engine builds on
    games/           the game seam: the spec a game exports, the registry that finds games by
                     entry point, and the table layer's base class
    settings/        the config file and where it lives
    state/           the state folder: its layout, the journal, the lock, atomic replacement
    spoken/          the voice: sentences put into words, and the speaker
    table/           the table at play: the session, the set-up, undo, presence, the daemon
                     and how it starts, the adapters found by name, enrolment
    health/          the table's checks, shared by `tabletap doctor` and the phone page
    control_socket/  the control socket, its request kinds, the page's side and the pairings
    selfplay/        whole games played by the engines alone
    commands/        the `tabletap` commands, each a thin layer over the above
ports.py and clock.py are the ground every floor may use; cli.py is the console script.
Nothing here imports a game, the hardware, the simulator or the page.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller import legacy as _legacy

_legacy.install()


def __getattr__(name: str) -> Any:
    # `from tabletap.controller import journal`: the module's old home, before the grouping
    return _legacy.submodule(__name__, name)
