"""`tabletap run`: the table daemon. Resumes an unfinished game from the journal, or starts one.

With `--sim`, every chip is simulated and lines typed on standard input play at the table
(`tap <piece-id> chest`, `press end-turn`; see sim.context). It stops cleanly on
SIGTERM or SIGINT; a SIGKILL or a power cut loses nothing the journal already holds.

A damaged journal does not stop it: the table starts held (table/runtime.py, no game resumed,
the journal untouched, the family told, the detail in the health findings). A JournalError
here is only one the start itself meets, and still exits 2 with "cannot start".
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
import threading
from typing import Any

from tabletap.controller import collector
from tabletap.controller.clock import SystemClock
from tabletap.controller.commands.common import (
    PERMISSION_HINT,
    add_config_argument,
    config_or_exit,
)
from tabletap.controller.control_socket.requests import dispatch
from tabletap.controller.control_socket.requests import register as register_request
from tabletap.controller.control_socket.server import ControlServer, socket_path
from tabletap.controller.loading.yamldoc import load_value
from tabletap.controller.state.damage import FAMILY_SAID, PAGE_SAID
from tabletap.controller.state.journal import JournalError
from tabletap.controller.table.adapters import find
from tabletap.controller.table.daemon import IDLE_PAUSE, Daemon
from tabletap.controller.table.notices import Said
from tabletap.controller.table.runtime import GameSpec, StartError, open_table
from tabletap.controller.table.service import Notifier, fatal, narrator, setup_logging
from tabletap.controller.table.waiter import Console, LoopWaiter

log = logging.getLogger("tabletap.run")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("run", help="run the table daemon (resumes an unfinished game)")
    add_config_argument(p)
    p.add_argument("--sim", action="store_true",
                   help="simulate every chip; type table actions on standard input")
    p.add_argument("--game", help="the game to start when there is none to resume")
    p.add_argument("--players", help="comma-separated seats in turn order, youngest first")
    p.add_argument("--seed", type=int, help="seed for every digital random choice")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. dice=digital (repeatable)")
    p.add_argument("--new", action="store_true",
                   help="start a new game even if one is unfinished (the old one is archived)")
    # cli.main holds the collector until `run` settles it, at READY (controller/collector.py)
    p.set_defaults(func=run, settles_collector=True)


def _spec(args: argparse.Namespace, config: Any) -> GameSpec | None:
    game = args.game or config.game
    players = args.players.split(",") if args.players else list(config.players)
    if not game:
        return None
    options = dict(config.options)
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            raise StartError(f"--option {item!r}: expected KEY=VALUE")
        try:
            options[key] = load_value(value, f"--option {key}")
        except ValueError as exc:
            raise StartError(str(exc)) from None
    seed = args.seed if args.seed is not None else config.seed
    return GameSpec(game, [p.strip() for p in players if p.strip()], seed, options,
                    dict(config.setup))


def run(args: argparse.Namespace) -> int:
    config = config_or_exit(args)
    setup_logging(config.log_level)
    if not args.sim and os.geteuid() == 0:
        log.warning("running as root: at the table tabletap should run as its own unprivileged "
                    "user (see hw/systemd/tabletap.service)")
    clock = SystemClock()
    simulator = None
    if args.sim:
        factory = next(iter(find("tabletap.simulators", "default")))
        simulator = factory.load()(clock, config.default_reader)
        context = simulator.context
    else:
        context = {"sim": False, "clock": clock}
    try:
        daemon = open_table(config, context, clock, _spec(args, config), narrator(), new=args.new)
    except (StartError, JournalError) as exc:
        fatal(f"tabletap: cannot start: {exc}")
        if isinstance(exc, JournalError) and exc.line is not None and exc.line > 1:
            print("tabletap: `tabletap journal repair` keeps every move before that line (the "
                  "damaged journal is saved in games/)", file=sys.stderr)
        return 2
    except OSError as exc:  # the state folder: another user's, on a file, a full disk
        hint = PERMISSION_HINT if isinstance(exc, PermissionError) else \
            "Check state_dir in the config."
        fatal(f"tabletap: cannot start: the state folder {config.state_dir} cannot be used "
              f"({exc.strerror or exc}: {exc.filename}). {hint}")
        return 2
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    control = ControlServer(socket_path(config.state_dir), lambda req: dispatch(daemon, req),
                            recall=lambda rid: daemon.session.journal.recall(rid))
    console = _console() if simulator is not None else None
    if simulator is not None:
        print("simulated table ready: type `tap PIECE [READER]`, `press end-turn`, ...",
              flush=True)
    systemd = Notifier()
    collector.settle()  # the start's objects, traced by no collection again (constant time)
    systemd.ready("the table is ready")
    try:
        _attach_page(daemon, context)  # before the loop serves a request or reads a tag

        def typed(lines: list[str | None]) -> None:
            """Console lines, played the moment they arrive (the simulator's table)."""
            assert simulator is not None
            for line in lines:
                if line is None:
                    stop.set()
                    return
                answer = simulator.command(line, daemon.session.table,
                                           daemon.session.words.language)
                if answer:
                    print(answer, flush=True)

        # One selector for the whole loop: readers, control socket, console (table/waiter.py)
        waiter = LoopWaiter(console, typed)
        idle_limit = _wake_on_buttons(daemon, waiter) if simulator is None else None
        while not stop.is_set():
            started = clock.now()
            daemon.tick()
            systemd.ping(started)
            control.serve_pending(accept=False)  # new consoles: in the wait below
            if simulator is not None:
                simulator.tick(clock.now())
            wait = daemon.pause(config.poll.period, config.poll.resting_period,
                                config.poll.confirm_period, idle_limit, started)
            # a tap on a waiting reader or a console line ends the pause; requests are
            # answered during it
            daemon.idle(wait - (clock.now() - started), serve=control.serve_pending,
                        requests=control.sockets, waiter=waiter, serve_due=control.due)
            sys.stdout.flush()
        waiter.close()
    finally:
        if console is not None:  # a terminal shared with the shell gets its blocking back
            with contextlib.suppress(OSError):
                os.set_blocking(console.fd, True)
        systemd.stopping()
        control.close()
        daemon.close()
        daemon.session.outputs.close()
    return 0


def _attach_page(daemon: Daemon, context: dict[str, Any]) -> None:
    """The phone page's pairing desk, enrolment desk and feed, and its request kinds. Loaded
    once the table has said it is ready (nothing reaches the daemon before the loop below),
    so a start does not wait for the page's modules."""
    from tabletap.controller.control_socket import page as web_requests

    web_requests.attach(daemon, context)
    for kind, handler in web_requests.HANDLERS.items():
        register_request(kind, handler, web_requests.TAKES[kind])
    if daemon.session.journal.damaged:  # said at the table before the page's feed listened
        for line in (FAMILY_SAID, PAGE_SAID):
            daemon.session.notices.publish(Said(daemon.session.words(line), line))


def _wake_on_buttons(daemon: Daemon, waiter: LoopWaiter) -> float | None:
    """Buttons that say when a press arrives (the Pico's link, gpiozero) wake the loop, which
    may then sleep through a quiet table until its next timer, at most IDLE_PAUSE (or what the
    buttons allow: the Pico link wants to hear from the daemon). None: buttons that must be
    looked at every pass."""
    buttons = daemon.buttons
    if not hasattr(buttons, "on_input"):
        return None
    buttons.on_input = waiter.wake
    return min(IDLE_PAUSE, getattr(buttons, "idle_limit", IDLE_PAUSE))


def _console() -> Console:
    """The simulator's typed console, read by the loop's selector without blocking."""
    fd = sys.stdin.fileno()
    os.set_blocking(fd, False)
    return Console(fd)

