"""Putting a table together: config -> adapters -> journal -> engine -> session -> daemon.

Shared by `tabletap run` and the scenario runner, so a scenario exercises exactly the assembly a
family's box runs.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from tabletap.controller.adapters import AdapterError, build_outputs, build_readers
from tabletap.controller.config import Config
from tabletap.controller.daemon import Daemon
from tabletap.controller.games import table_for
from tabletap.controller.identity import Identifier, RegistryError, UidRegistry
from tabletap.controller.journal import GameHeader, Journal
from tabletap.controller.ports import Clock
from tabletap.controller.rules import engine_for
from tabletap.controller.rules.base import JSON, Rejection
from tabletap.controller.session import Narrator, TableSession

log = logging.getLogger("tabletap.runtime")


class StartError(RuntimeError):
    """The table cannot start (no game named, an impossible setup); the message says why."""


@dataclass
class GameSpec:
    game: str
    players: list[str]
    seed: int | None = None
    options: JSON = field(default_factory=dict)
    setup: JSON = field(default_factory=dict)


def open_table(
    config: Config,
    context: dict[str, Any],
    clock: Clock,
    spec: GameSpec | None,
    narrate: Narrator = lambda text: None,
    new: bool = False,
) -> Daemon:
    """Resume the unfinished game in the journal, or start `spec` (a new game)."""
    try:
        registry = UidRegistry.load(config.registry_path())
    except RegistryError as exc:
        raise StartError(str(exc)) from None
    journal = Journal.in_dir(config.state_dir)
    engine = state = header = None
    actions = 0
    if journal.exists() and not new:
        replayed = journal.replay()  # JournalError is loud on purpose
        for warning in replayed.warnings:
            log.warning(warning)
        if not replayed.engine.is_over(replayed.state):
            header, engine, state = replayed.header, replayed.engine, replayed.state
            actions = replayed.actions
            narrate(f"Resuming the unfinished {header.game} game of {', '.join(header.players)} "
                    f"after {actions} actions.")
    if state is None:
        if spec is None:
            raise StartError("no game to resume and none to start: name one with --game and "
                             "--players, or `game:` and `players:` in the config")
        seed = spec.seed if spec.seed is not None else secrets.randbelow(2**31)
        header = GameHeader(spec.game, list(spec.players), seed, dict(spec.options),
                            dict(spec.setup))
        try:
            engine = engine_for(spec.game)
            state = engine.new_game(header.players, seed, header.options, header.setup)
        except Rejection as exc:
            raise StartError(exc.message) from None
        journal.start(header)
        # Some games announce their set-up (Kingdomino's first line); engines may offer it.
        for event in getattr(engine, "opening_events", lambda _state: ())(state):
            narrate(f"  {event.text}")
    assert engine is not None and header is not None
    table = table_for(header.game)
    try:
        readers = build_readers(config, context)
        outputs = build_outputs(config, context)
    except (AdapterError, ValueError, OSError) as exc:
        raise StartError(f"the {config.backend} wiring cannot start: {exc}") from None
    session = TableSession(engine, table, state, journal, outputs, config, narrate,
                           actions=actions, header=header)
    session.show_turn()
    return Daemon(session, readers, outputs.buttons, clock, Identifier(registry),
                  config.poll.period, config.poll.miss_threshold)
