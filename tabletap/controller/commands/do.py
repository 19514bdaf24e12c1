"""`tabletap do ACTION [KEY=VALUE...]`: an action entered by hand at a running table.

`tabletap do place domino=12 at=[2,3] facing=east` sends `{action: place, domino: 12, at: [2, 3],
facing: east}` to the daemon, exactly like a scenario's `do:` step. Values are read as YAML.

Every request carries a fresh id. If the daemon goes away before answering (it died, or it was
too slow), `do` waits for it to come back and sends the same request once more: the daemon
recognises the id (the journal keeps it with the move) and says the move already counted instead
of playing it twice. If no daemon comes back, the journal itself says whether the move counted.
"""

from __future__ import annotations

import argparse
import sys
import uuid
from pathlib import Path
from typing import Any

from tabletap.controller.commands.common import (
    add_config_argument,
    ask_daemon,
    config_or_exit,
    key_values,
    print_reply,
)
from tabletap.controller.control_socket.server import (
    NoAnswer,
    request,
    socket_path,
    wait_for_server,
)
from tabletap.controller.state.journal import Journal, JournalError

RETRY_WAIT = 15.0  # seconds `do` waits for a daemon to come back (systemd restarts it in ~5)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("do", help="enter an action by hand at the running table")
    add_config_argument(p)
    p.add_argument("action", help="the action, e.g. claim, place, discard, orient, move")
    p.add_argument("fields", nargs="*", metavar="KEY=VALUE")
    p.add_argument("--retry-wait", type=float, default=RETRY_WAIT, metavar="SECONDS",
                   help="how long to wait for the table to come back if it goes away before "
                        f"answering (default {RETRY_WAIT:g})")
    p.set_defaults(func=do)


def parse_fields(action: str, fields: list[str]) -> dict[str, Any]:
    return {"action": action, **key_values(fields)}


def do(args: argparse.Namespace) -> int:
    config = config_or_exit(args)
    try:
        data = parse_fields(args.action, args.fields)
    except ValueError as exc:
        print(f"tabletap: {exc}", file=sys.stderr)
        return 2
    path = socket_path(config.state_dir)
    payload = {"do": data, "id": uuid.uuid4().hex}
    try:
        try:
            reply = ask_daemon(config, payload)  # a sentence and exit 2 when none listens
        except NoAnswer as exc:
            print(f"tabletap: {exc}; asking again once", file=sys.stderr)
            reply = _retry(path, payload, Path(config.state_dir), args.retry_wait)
            if reply is None:
                return _from_journal(Path(config.state_dir), payload["id"])
    except TypeError as exc:  # a value YAML read as something JSON cannot carry (a date)
        print(f"tabletap: {exc}; quote the value", file=sys.stderr)
        return 2
    if reply.get("ok") and reply.get("repeated"):
        print("the move counted: the table had saved it before its answer was lost"
              + (f" ({reply['message']})" if reply.get("message") else ""))
    return print_reply(reply)


def _retry(path: Path, payload: dict[str, Any], state_dir: Path, wait: float
           ) -> dict[str, Any] | None:
    """The one retry, once a daemon listens again; None when none came back or it too went
    away (then only the journal can tell)."""
    if not wait_for_server(path, wait):
        return None
    try:
        return request(path, payload)
    except (NoAnswer, OSError) as exc:
        print(f"tabletap: {exc}", file=sys.stderr)
        return None


def _from_journal(state_dir: Path, request_id: str) -> int:
    """Whether the move counted, from the journal (read-only: a daemon may be starting)."""
    journal = Journal.in_dir(state_dir)
    try:
        number = journal.replay(repair=False).request_ids.get(request_id)
    except JournalError as exc:
        print(f"tabletap: the table went away and its journal cannot tell whether the move "
              f"counted: {exc}", file=sys.stderr)
        return 2
    if number is None:
        print("the move did NOT count: the table went away before saving it; try it again once "
              "the table is running")
        return 3
    print(f"the move counted: the table saved it as action {number} before it went away")
    return 0
