"""`tabletap doctor`: check every configured device and say, in a maker's words, what is wrong.

One line per device, ok, warning or failed; exit 0 when nothing failed. The checks themselves
are the controller's (health/checks.py), shared with the phone page's table check.
"""

from __future__ import annotations

import argparse

from tabletap.controller.clock import SystemClock
from tabletap.controller.commands.common import (
    add_config_argument,
    config_or_exit,
    config_source,
)
from tabletap.controller.health import checks
from tabletap.controller.health.checks import report, run_checks, simulated_context
from tabletap.controller.health.speaker import speaker_findings
from tabletap.controller.health.wiring import wiring_findings


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
