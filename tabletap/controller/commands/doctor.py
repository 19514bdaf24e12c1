"""`tabletap doctor`: check every configured device and say, in a maker's words, what is wrong.

One line per device, ok, warning or failed; exit 0 when nothing failed. The checks themselves
are the controller's (health/checks.py), shared with the phone page's table check.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tabletap.controller.clock import SystemClock
from tabletap.controller.commands.common import (
    STOP_FIRST,
    add_config_argument,
    ask_daemon,
    config_or_exit,
    config_source,
    table_running,
)
from tabletap.controller.health import checks
from tabletap.controller.health.checks import Finding, report, run_checks, simulated_context
from tabletap.controller.health.speaker import speaker_findings
from tabletap.controller.health.wiring import wiring_findings
from tabletap.controller.settings.config import Config


def __getattr__(name: str) -> object:
    # The checks lived here before they were shared with the page (controller.health.checks):
    # `from tabletap.controller.commands.doctor import check_chest` still finds them.
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(checks, name)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("doctor", help="check every configured device and print a report")
    add_config_argument(p)
    p.add_argument("--sim", action="store_true",
                   help="check the simulated devices (every chip emulated) instead")
    p.add_argument("--press", action="store_true",
                   help="at the table: ask for each button to be pressed, and wait for it")
    p.add_argument("--press-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="how long to wait for each button with --press (default 10)")
    p.set_defaults(func=doctor)


def doctor(args: argparse.Namespace) -> int:
    config = config_or_exit(args, announce=False)
    clock = SystemClock()
    source = config_source(args) or "the built-in simulated table (no config file)"
    simulate = args.sim or config.backend == "sim"  # `backend: sim` has nothing else to check
    if not simulate and (running := table_running(config)) is not None:
        return ask_the_table(args, config, source, running)
    if simulate:
        context = simulated_context(config, clock)
    else:
        context = {"sim": False, "clock": clock}
    factory = f", pin factory {config.pin_factory}" if config.backend == "gpio" and \
        config.pin_factory else ""
    print(f"tabletap doctor: {source}, backend {config.backend}{factory}"
          + (" (simulated)" if simulate else ""), flush=True)
    # the configured wiring's device nodes, modules and permissions first (health/wiring.py):
    # a missing /dev/serial0 explains a reader that does not answer
    findings = [] if simulate else wiring_findings(config)
    findings += run_checks(config, context, clock, args.press, args.press_timeout)
    text, code = report(findings + speaker_findings(config, simulate))
    print(text)
    return code


def ask_the_table(args: argparse.Namespace, config: Config, source: str, running: str) -> int:
    """The table's daemon runs and holds the devices. Opening them a second time would take its
    replies on the reader's port and move its latch under it (docs/CONTRACTS.md, "Processes"),
    so the daemon checks them, as for the phone page's table check (`{"doctor": true}`,
    docs/WEB.md). The wiring (device nodes, modules, permissions) and the voice are checked
    here: they open nothing the daemon holds."""
    if args.press:
        print(f"tabletap doctor: {running} and reads the buttons itself: to be asked for each "
              f"press, run the doctor with the table stopped; {STOP_FIRST}", file=sys.stderr)
        return 2
    from tabletap.controller.control_socket.server import NoAnswer

    print(f"tabletap doctor: {source}, backend {config.backend}; {running}, so it checks the "
          "devices it holds", flush=True)
    try:
        reply: dict[str, Any] = ask_daemon(config, {"doctor": True})
    except NoAnswer:
        print("tabletap doctor: the table stopped while it answered; run the doctor again",
              file=sys.stderr)
        return 2
    if not reply.get("ok"):
        print(f"tabletap doctor: the table did not check its devices: {reply.get('error')}",
              file=sys.stderr)
        return 2
    held = [Finding(f["status"], f["device"], f["detail"]) for f in reply["findings"]]
    text, code = report(wiring_findings(config) + held + speaker_findings(config, False))
    print(text)
    if reply.get("skipped"):
        print(reply["skipped"])
    return code
