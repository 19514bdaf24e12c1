"""The page's own settings: the few config values `tabletap web` serves by, read in a child.

The table's config is checked by its schema (controller/settings/config.py), the same
file and the same messages as the daemon's. Importing the config module into the page would
bring PyYAML and every game's option checks into a process that runs all evening on a small Pi
(issue 23's page goal is 45 MiB), though the page needs nine values of it. So the page forks
before it loads any of them: the child checks the config as every command does (a bad config
exits 2 with `file:line: key: message`, from the child) and sends back only these values as
JSON; its memory goes when it exits. The page's process never imports PyYAML
(tests/web/test_page_settings.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass(frozen=True)
class PageSettings:
    """What the page needs of the table's config (`web:` and two top-level keys)."""

    state_dir: str
    log_level: str
    enabled: bool
    port: int
    bind: str
    public: bool
    mdns: bool
    pairing_attempts: int
    hostname: str

    @classmethod
    def of(cls, config: Any) -> PageSettings:
        """From a checked `Config`: each field from `web:` where it is a `web:` key, else from
        the top level, so a field added here needs no second list."""
        web = config.web
        own = type(web).__struct_fields__
        return cls(**{f.name: getattr(web if f.name in own else config, f.name)
                      for f in fields(cls)})


def read_settings(args: argparse.Namespace) -> PageSettings:
    """The page's settings from the config `args` name, checked in a forked child; raises
    SystemExit with the child's status when the config is bad (the child said why on stderr)."""
    sys.stdout.flush()
    sys.stderr.flush()
    readable, writable = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: check, answer, and exit without running the parent's cleanup
        os.close(readable)
        os._exit(_answer(args, writable))
    os.close(writable)
    with os.fdopen(readable, "rb") as answer:
        body = answer.read()
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        if code < 0:
            print(f"tabletap: reading the config was stopped by signal {-code}", file=sys.stderr)
        raise SystemExit(2 if code < 0 else code)
    return PageSettings(**json.loads(body))


def _answer(args: argparse.Namespace, writable: int) -> int:
    code = 0
    try:
        from tabletap.controller.commands.common import config_or_exit

        settings = PageSettings.of(config_or_exit(args))
        with os.fdopen(writable, "wb") as out:
            out.write(json.dumps(asdict(settings)).encode())
    except SystemExit as exc:  # config_or_exit has said why
        code = exc.code if isinstance(exc.code, int) else 2
    except BaseException:  # noqa: BLE001 - a bug: say it, never run on as a second page
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    return code
