"""What several sub-commands share: loading the config with a clear error, logging set-up, and
talking to the running daemon with sentences instead of tracebacks.

Every command reads the table's config: `--config FILE`, else `$TABLETAP_CONFIG`, else
/etc/tabletap/table.yaml (where the Pi image puts it). Without any of them only `--sim` may go on,
with the built-in simulated table: a command must never quietly talk about a simulated table
when the family's real one was meant. Each command says on stderr which config and backend it
uses.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from tabletap.controller.loading.source import SourceError
from tabletap.controller.settings.config import Config, load_config
from tabletap.controller.settings.path import (  # noqa: F401 - the commands take them from here
    CONFIG_ENV,
    DEFAULT_CONFIG,
    add_config_argument,
    config_source,
)
from tabletap.controller.table.service import fatal


def config_or_exit(args: argparse.Namespace, announce: bool = True) -> Config:
    """The config, or exit 2 with `file:line: key: message` on stderr."""
    path = config_source(args)
    sim = bool(getattr(args, "sim", False))
    if path is None and not sim:
        print(f"tabletap: no config: {DEFAULT_CONFIG} does not exist. Pass --config FILE, set "
              f"{CONFIG_ENV}, or add --sim for a simulated table.", file=sys.stderr)
        raise SystemExit(2)
    try:
        config = load_config(path)
    except SourceError as exc:
        fatal(f"tabletap: config error: {exc}")
        raise SystemExit(2) from None
    except PermissionError:
        print(f"tabletap: you may not read the config {path}. {PERMISSION_HINT}",
              file=sys.stderr)
        raise SystemExit(2) from None
    if announce:
        where = path or "the built-in simulated table (no config file)"
        backend = "simulated (--sim)" if sim else config.backend
        print(f"tabletap: config {where}; backend {backend}; state {config.state_dir}",
              file=sys.stderr)
    return config


PERMISSION_HINT = ("Run the command as the table's user: sudo -u tabletap tabletap ... (the state "
                   "folder and its control socket belong to that user alone, since the journal "
                   "holds the game's secrets).")


STOP_FIRST = ("stop it first (systemctl stop tabletap, as root), then start it again "
              "(systemctl start tabletap)")


def table_running(config: Config) -> str | None:
    """"the table is running (pid N)" when a daemon holds the config's state folder, else None:
    for the commands that need a device the daemon holds, and so refuse or ask it instead
    (docs/CONTRACTS.md, "Processes"). A user who may not read the lock file cannot open the
    daemon's devices either, as a rule: for that user this says nothing."""
    from tabletap.controller.state.lock import holder

    pid = holder(config.state_dir)
    if pid is None:
        return None
    return f"the table is running ({f'pid {pid}' if pid > 0 else 'another process'})"


def ask_daemon(config: Config, payload: dict[str, Any]) -> dict[str, Any]:
    """Send one request to the running daemon; exit 2 with a sentence when it cannot be asked
    (no daemon, or a state folder this user may not use). Never starts a daemon itself."""
    from tabletap.controller.control_socket.server import NoAnswer, request, socket_path

    path = socket_path(config.state_dir)
    try:
        return request(path, payload)
    except NoAnswer:
        raise  # the daemon went away mid-answer: the caller decides (tabletap do retries once)
    except PermissionError:
        print(f"tabletap: you may not use the table's state folder {config.state_dir} "
              f"(permission denied). {PERMISSION_HINT}", file=sys.stderr)
    except (FileNotFoundError, ConnectionRefusedError):
        folder = Path(config.state_dir)
        if folder.exists() and not os.access(folder, os.R_OK | os.X_OK):
            print(f"tabletap: you may not read the table's state folder {folder}. "
                  f"{PERMISSION_HINT}", file=sys.stderr)
        else:
            print(f"tabletap: no table is running at {path}: start it with `tabletap run` "
                  "(or `systemctl start tabletap`).", file=sys.stderr)
    except OSError as exc:
        print(f"tabletap: the table at {path} did not answer ({exc.strerror or exc})",
              file=sys.stderr)
    except ValueError as exc:
        print(f"tabletap: the table at {path} sent an answer that is not JSON ({exc})",
              file=sys.stderr)
    raise SystemExit(2)


def key_values(items: list[str]) -> dict[str, Any]:
    """`["at=[2, 3]", "facing=east"]` -> `{"at": [2, 3], "facing": "east"}`: values are YAML,
    read within the project's limits (no tags, aliases bounded, dates stay strings). Raises
    ValueError naming the item without `=`, or a SourceError (a ValueError) naming the key."""
    from tabletap.controller.loading.yamldoc import load_value

    data: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"{item!r}: expected KEY=VALUE")
        data[key] = load_value(value, f"the value of {key}")
    return data


def print_reply(reply: dict[str, Any]) -> int:
    """Print what the table answered; exit 0 accepted, 1 rejected by the table, 2 not
    understood."""
    if not reply.get("ok"):
        print(f"tabletap: {reply.get('error')}", file=sys.stderr)
        return 2
    for text in reply.get("events", []):
        print(text)
    if reply.get("accepted") is False:
        print(f"rejected ({reply.get('rejected')}): {reply.get('message')}")
        return 1
    return 0
