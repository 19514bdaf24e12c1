"""What the control socket's requests do: a table of request kind -> handler.

A request is one JSON object; its kind is the key that names a handler (`{"undo": true}`).
Handlers run on the daemon's own thread, between polls, so they may use the session directly.
Another module adds its kinds with `register("pair", handler, MAPPING)`; `dispatch` is what the
ControlServer calls. Every answer is `{"ok": true, ...}` or `{"ok": false, "error": sentence}`.

Every kind declares the exact value it takes (`Takes`) and the qualifiers it allows beside it,
and `dispatch` refuses anything else before a handler runs: `{"abandon": false}` must not
abandon a game, nor `{"doctor": 5}` drive the chest, only because the handler looked at the key
and never at its value.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from tabletap import __version__
from tabletap.controller.control_socket.takes import COMMON, FLAG, MAPPING, TRUE, Takes
from tabletap.controller.games.base import ManualAction
from tabletap.controller.language.words import Words
from tabletap.controller.spoken.words import game_name
from tabletap.controller.table.daemon import Daemon
from tabletap.controller.table.session import Result

PROTOCOL = 1
Reply = dict[str, Any]
Handler = Callable[[Daemon, dict[str, Any]], Reply]
HANDLERS: dict[str, Handler] = {}
TAKES: dict[str, Takes] = {}
def register(kind: str, handler: Handler, takes: Takes) -> None:
    HANDLERS[kind] = handler
    TAKES[kind] = takes


def problem(request: Mapping[str, Any]) -> str | None:
    """Why `request` is not exactly one registered kind with the value it takes, or None."""
    kinds = [k for k in request if k in HANDLERS]
    if len(kinds) != 1:
        wanted = ", ".join(sorted(HANDLERS))
        return f"unknown request: send exactly one of {wanted}"
    kind = kinds[0]
    takes = TAKES[kind]
    if not takes.check(request[kind]):
        return f"bad request: `{kind}` takes {takes.shown}, not {_shown(request[kind])}"
    allowed = {**COMMON, **takes.qualifiers}
    for key, value in request.items():
        if key == kind:
            continue
        if key not in allowed:
            extra = ", ".join(f"`{k}`" for k in sorted(allowed))
            return f"bad request: `{kind}` takes no `{key:.40}` (it may carry {extra})"
        if not allowed[key].check(value):
            return f"bad request: `{key}` takes {allowed[key].shown}, not {_shown(value)}"
    return None


def _shown(value: Any) -> str:
    return json.dumps(value)[:60]


def dispatch(daemon: Daemon, request: dict[str, Any]) -> Reply:
    why = problem(request)
    if why is not None:
        return {"ok": False, "error": why}
    kind = next(k for k in request if k in HANDLERS)
    return HANDLERS[kind](daemon, request)


def _result(result: Result, words: Words) -> Reply:
    """The answer to a command, its sentences in the table's language (as the table said
    them)."""
    reply: Reply = {"ok": True, "accepted": result.accepted}
    if result.rejection:
        reply.update(rejected=result.rejection.code, message=words(result.rejection.said))
    if result.pending:
        reply["message"] = words(result.pending)
    reply["events"] = [words(ev.said) for ev in result.events]
    return reply


def hello(daemon: Daemon, request: dict[str, Any]) -> Reply:
    # The package's own version (a test keeps it equal to the distribution's), not
    # importlib.metadata's: reading the metadata cost the daemon's start its import.
    return {"ok": True, "protocol": PROTOCOL, "version": __version__}


def do(daemon: Daemon, request: dict[str, Any]) -> Reply:
    if not isinstance(request["do"], dict):
        return {"ok": False, "error": "bad request: `do` takes a mapping like "
                "{\"action\": \"move\", \"steps\": 3}"}
    if not daemon.session.playing:
        return {"ok": False, "error": "No game is under way: start one with `tabletap new` or "
                "a game card at the table."}
    session = daemon.session
    return _result(session.handle(ManualAction(dict(request["do"])), daemon.clock.now()),
                   session.words)


def state(daemon: Daemon, request: dict[str, Any]) -> Reply:
    session = daemon.session
    if session.engine is None or session.header is None:
        return {"ok": True, "game": None, "players": [], "state": {},
                "setup": session.setup.view()}
    view = session.engine.public_view(session.state, bool(request.get("reveal")))
    return {"ok": True, "game": session.header.game, "players": list(session.header.players),
            "state": json.loads(json.dumps(view)), "setup": session.setup.view()}


def new(daemon: Daemon, request: dict[str, Any]) -> Reply:
    spec = request["new"]
    if not isinstance(spec, dict) or not isinstance(spec.get("game"), str) \
            or not isinstance(spec.get("players"), list) \
            or not all(isinstance(p, str) for p in spec["players"]) \
            or not isinstance(spec.get("options", {}), dict):
        return {"ok": False, "error": "bad request: `new` takes {\"game\": NAME, \"players\": "
                "[NAMES], \"options\": {...}}"}
    session = daemon.session
    if session.playing and session.header is not None:
        return {"ok": False, "error": f"A game of {game_name(session.header.game)} is under "
                "way: abandon it first (`tabletap abandon`), then start the new one."}
    options = spec.get("options")
    result = session.start(spec["game"], list(spec["players"]), daemon.clock.now(),
                           None if options is None else dict(options))
    session.setup.game, session.setup.seats = None, []
    return _result(result, session.words)


def abandon(daemon: Daemon, request: dict[str, Any]) -> Reply:
    return _result(daemon.session.abandon(daemon.clock.now()), daemon.session.words)


def undo(daemon: Daemon, request: dict[str, Any]) -> Reply:
    return _result(daemon.session.undo(daemon.clock.now()), daemon.session.words)


for _kind, _handler, _takes in (
    ("hello", hello, TRUE), ("do", do, MAPPING), ("state", state, TRUE.with_qualifiers(
        reveal=FLAG)), ("new", new, MAPPING), ("abandon", abandon, TRUE), ("undo", undo, TRUE),
):
    register(_kind, _handler, _takes)
