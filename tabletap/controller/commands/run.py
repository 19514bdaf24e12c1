"""`tabletap run`: the table daemon. Resumes an unfinished game from the journal, or starts one.

With `--sim`, every chip is simulated and lines typed on standard input play at the table
(`tap magic-keys/key/blue/3 chest`, `press end-turn`; see sim.context). It stops cleanly on
SIGTERM or SIGINT; a SIGKILL or a power cut loses nothing the journal already holds.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import queue
import signal
import sys
import threading
from importlib.metadata import entry_points
from typing import Any

import yaml

from tabletap.controller.clock import SystemClock
from tabletap.controller.commands.common import add_config_argument, config_or_exit, setup_logging
from tabletap.controller.control import ControlServer, socket_path
from tabletap.controller.daemon import Daemon
from tabletap.controller.games.base import ManualAction
from tabletap.controller.journal import JournalError
from tabletap.controller.runtime import GameSpec, StartError, open_table
from tabletap.controller.service import Notifier, fatal, narrator

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
    p.set_defaults(func=run)


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
        options[key] = yaml.safe_load(value)
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
        factory = next(iter(entry_points(group="tabletap.simulators", name="default")))
        simulator = factory.load()(clock, config.default_reader)
        context = simulator.context
    else:
        context = {"sim": False, "clock": clock}
    try:
        daemon = open_table(config, context, clock, _spec(args, config), narrator(), new=args.new)
    except (StartError, JournalError) as exc:
        fatal(f"tabletap: cannot start: {exc}")
        return 2
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    control = ControlServer(socket_path(config.state_dir), lambda req: _control(daemon, req))
    lines: queue.Queue[str | None] = queue.Queue()
    if simulator is not None:
        threading.Thread(target=_read_stdin, args=(lines,), daemon=True).start()
        print("simulated table ready: type `tap PIECE [READER]`, `press end-turn`, ...",
              flush=True)
    systemd = Notifier()
    systemd.ready("the table is ready")
    try:
        while not stop.is_set():
            started = clock.now()
            daemon.tick()
            systemd.ping(started)
            control.serve_pending()
            if simulator is not None:
                simulator.tick(clock.now())
                while not lines.empty():
                    line = lines.get()
                    if line is None:
                        stop.set()
                        break
                    answer = simulator.command(line, daemon.session.table)
                    if answer:
                        print(answer, flush=True)
            clock.sleep(config.poll.period - (clock.now() - started))
            sys.stdout.flush()
    finally:
        systemd.stopping()
        control.close()
        daemon.close()
        daemon.session.outputs.close()
    return 0


def _read_stdin(lines: queue.Queue[str | None]) -> None:
    for line in sys.stdin:
        lines.put(line.strip())
    lines.put(None)


def _control(daemon: Daemon, request: dict[str, Any]) -> dict[str, Any]:
    session = daemon.session
    if "do" in request:
        if not isinstance(request["do"], dict):
            return {"ok": False, "error": "bad request: `do` takes a mapping like "
                    "{\"action\": \"move\", \"steps\": 3}"}
        result = session.handle(ManualAction(dict(request["do"])), daemon.clock.now())
        reply: dict[str, Any] = {"ok": True, "accepted": result.accepted}
        if result.rejection:
            reply.update(rejected=result.rejection.code, message=result.rejection.message)
        reply["events"] = [ev.text for ev in result.events]
        return reply
    if "state" in request:
        view = session.engine.public_view(session.state, bool(request.get("reveal")))
        return {"ok": True, "state": json.loads(json.dumps(view))}
    return {"ok": False, "error": "unknown request (use do or state)"}
