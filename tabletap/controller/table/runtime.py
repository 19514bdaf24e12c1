"""Putting a table together: config -> adapters -> journal -> engine -> session -> daemon.

Shared by `tabletap run` and the scenario runner, so a scenario exercises exactly the assembly a
family's box runs.
"""

from __future__ import annotations

import logging
from typing import Any

from msgspec import Struct, field

from tabletap.controller import unguessable
from tabletap.controller.games.registry import engine_for, table_for, title_said
from tabletap.controller.language.messages import msg
from tabletap.controller.language.said import Said as Sentence
from tabletap.controller.language.words import Words
from tabletap.controller.ports import Clock
from tabletap.controller.rules.base import JSON, Rejection, english
from tabletap.controller.settings.config import Config
from tabletap.controller.spoken.speaker import Speaker, VoiceSettings, VoiceWorker
from tabletap.controller.spoken.words import spoken
from tabletap.controller.state.damage import FAMILY_SAID, Damage, assess
from tabletap.controller.state.journal import GameHeader, Journal, JournalError
from tabletap.controller.state.lock import StateLock, StateLocked
from tabletap.controller.table.adapters import AdapterError, build_outputs, build_readers
from tabletap.controller.table.daemon import Daemon
from tabletap.controller.table.identity import Identifier, RegistryError, UidRegistry
from tabletap.controller.table.session import Narrator, TableSession

log = logging.getLogger("tabletap.runtime")


class StartError(RuntimeError):
    """The table cannot start (no game named, an impossible setup); the message says why."""


class GameSpec(Struct):
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
    """Resume the unfinished game in the journal, or start `spec` (a new game); with neither,
    the table waits for a game card (table/setup.py).

    The state folder is locked first (one daemon per folder) and stays locked until the
    daemon is closed."""
    lock = StateLock(config.state_dir)
    try:
        lock.acquire()
    except StateLocked as exc:
        raise StartError(str(exc)) from None
    try:
        return _open_locked(config, context, clock, spec, narrate, new, lock)
    except BaseException:
        lock.release()
        raise


def _open_locked(
    config: Config,
    context: dict[str, Any],
    clock: Clock,
    spec: GameSpec | None,
    narrate: Narrator,
    new: bool,
    lock: StateLock,
) -> Daemon:
    try:
        registry = UidRegistry.load(config.registry_path())
    except RegistryError as exc:
        raise StartError(str(exc)) from None
    journal = Journal.in_dir(config.state_dir)
    engine = state = header = None
    actions = 0
    history: list = []
    undos = 0
    notices: list[Sentence] = []  # warnings: the config differs from the unfinished game
    idle = False  # no game: the table says so (news, not a warning)
    resumed: Sentence | None = None
    held: Damage | None = None  # a damaged journal: no game resumed, nothing cut
    if journal.exists() and new:  # replaced unread: still named for what it is
        journal.damaged = assess(journal) is not None
    if journal.exists() and not new:
        try:
            replayed = journal.replay()
        except JournalError as exc:
            replayed, held = None, hold(journal, exc)
        for warning in replayed.warnings if replayed is not None else ():
            log.warning(warning)
        if replayed is not None and not replayed.abandoned \
                and not replayed.engine.is_over(replayed.state):
            header, engine, state = replayed.header, replayed.engine, replayed.state
            actions, history, undos = replayed.actions, replayed.history, replayed.undos
            narrate(f"Resuming the unfinished {header.game} game of {', '.join(header.players)} "
                    f"after {actions} actions.")
            player = engine.current_player(state)
            resumed = goes_on(header.game, player)
            notices += mismatch(header, spec)
    if state is None and spec is not None and (not spec.players or held is not None):
        spec = None  # no players named, or a damaged game held: chosen at the table
    if state is None and spec is None:
        idle = True
    elif state is None:
        assert spec is not None
        seed = spec.seed if spec.seed is not None else unguessable.randbelow(2**31)
        header = GameHeader(spec.game, list(spec.players), seed, dict(spec.options),
                            dict(spec.setup))
        try:
            engine = engine_for(spec.game)
            state = engine.new_game(header.players, seed, header.options, header.setup)
        except Rejection as exc:
            raise StartError(exc.message) from None
        journal.start(header)
        # Some games announce their set-up (the first line of dominoes); engines may offer it.
        words = Words(config.language)
        for event in getattr(engine, "opening_events", lambda _state: ())(state):
            narrate(f"  {words(event.said)}")
    table = table_for(header.game) if header is not None else None
    try:
        readers = build_readers(config, context)
        outputs = build_outputs(config, context)
    except (AdapterError, ValueError, OSError) as exc:
        raise StartError(f"the {config.backend} wiring cannot start: {exc}") from None
    worker = None
    if config.voice_on(simulated=bool(context.get("sim"))):
        worker = VoiceWorker(VoiceSettings(config.voice_name(), config.voice.rate,
                                           config.voice.volume))
    session = TableSession(engine, table, state, journal, outputs, config, narrate,
                           actions=actions, header=header, speaker=Speaker(worker),
                           history=list(history), undos=undos)
    if resumed is not None:  # the play-by-play printed its own line above
        session.speaker.say(spoken(session.words(resumed)))
    # Each once, at its level: told (printed, or logged at info under systemd), or a warning.
    if held is not None:
        session.tell(FAMILY_SAID)
    if idle:
        # TRANSLATORS: said when the table starts with no game under way
        session.tell(msg("No game is under way: tap a game card to set one up."))
    for notice in notices:
        log.warning(english(notice))
        session.speaker.say(spoken(session.words(notice)))
    session.show_turn()
    return Daemon(session, readers, outputs.buttons, clock, Identifier(registry),
                  config.poll.period, config.poll.miss_threshold, state_lock=lock,
                  resting_period=config.poll.resting_period,
                  confirm_period=config.poll.confirm_period)


def hold(journal: Journal, error: JournalError) -> Damage:
    """The journal is damaged: the daemon starts held rather than dying or cutting it. No game
    is resumed, the file is left byte for byte as it is, the error is logged with what repair
    would keep, and the journal is marked so a new game started at the table first saves it
    whole in games/ under a `-damaged` name (docs/CONTRACTS.md, "The journal")."""
    damage = assess(journal, error)
    assert damage is not None
    journal.damaged = True
    log.error("%s", damage.detail())
    return damage


def names(players: list[str] | tuple[str, ...]) -> str:
    """Players' names as entered, one after the other: a list of names, not a sentence to
    join by a language's grammar (no "and" to agree with anything)."""
    return ", ".join(players)


def goes_on(game: str, player: str | None) -> Sentence:
    """What the table says when it resumes an unfinished game."""
    if player:
        # TRANSLATORS: said when the table starts again and resumes a game; game is its
        # title, player a name
        return msg("The game of %(game)s goes on: it is %(player)s's turn.",
                   game=title_said(game), player=player)
    # TRANSLATORS: said when the table starts again and resumes a game; game is its title
    return msg("The game of %(game)s goes on.", game=title_said(game))


def mismatch(header: GameHeader, spec: GameSpec | None) -> list[Sentence]:
    """The config (or the command line) asks for another game than the unfinished one: say so,
    and how to switch at the table, rather than silently resuming."""
    if spec is None or (spec.game == header.game and (
            not spec.players or list(spec.players) == list(header.players))):
        return []
    was = names(header.players)
    if spec.players:
        # TRANSLATORS: said at start when the settings name another game than the saved one;
        # wanted and game are titles, players and were the names of each game's players
        return [msg("The config asks for %(wanted)s for %(players)s, but the unfinished game "
                    "of %(game)s for %(were)s goes on. To switch, tap the game card, hold the "
                    "end-turn button and tap the game card again.",
                    wanted=title_said(spec.game), players=names(spec.players),
                    game=title_said(header.game), were=was)]
    # TRANSLATORS: said at start when the settings name another game than the saved one;
    # wanted and game are titles, were the names of the saved game's players
    return [msg("The config asks for %(wanted)s, but the unfinished game of %(game)s for "
                "%(were)s goes on. To switch, tap the game card, hold the end-turn button and "
                "tap the game card again.", wanted=title_said(spec.game),
                game=title_said(header.game), were=was)]
