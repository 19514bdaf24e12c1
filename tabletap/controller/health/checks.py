"""The table's device checks, shared by `tabletap doctor` (commands/doctor.py) and the phone page's
table check (health/table.py): each device gets one Finding, ok, warning (works, but look at it) or
failed (the daemon cannot use it), with a sentence that says what is wrong.

The devices are built exactly as the daemon builds them (the same entry points, the same config),
so checks that pass mean the daemon will find them. Optional adapter hooks, used when an adapter
has them (duck-typed, so the controller stays free of hw): `reader.firmware_version()`,
`chest.sweep(degrees) -> str` (a gentle move and back), `buttons.pressed() -> {name: bool}` and
`buttons.lid_closed`. The Pico board's hello comes from `tabletap.probes`: `serial` is the link's
`probe(port, timeout) -> Hello`, `serial-sim` the same against a simulated Pico,
`probe(config, context) -> Hello`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from tabletap.controller import entrypoints
from tabletap.controller.language.messages import msg_n
from tabletap.controller.language.said import Said
from tabletap.controller.language.words import Words
from tabletap.controller.ports import (
    Clock,
    InputEvent,
    Outputs,
    ReaderHeld,
    ReaderUnavailable,
    TagReader,
)
from tabletap.controller.settings.config import Config
from tabletap.controller.state.damage import assess
from tabletap.controller.state.folder import StateFolder
from tabletap.controller.state.journal import Journal
from tabletap.controller.table.adapters import build_outputs, build_readers

Status = Literal["ok", "warning", "failed"]

SWEEP_DEGREES = 10.0  # enough to see and hear the servo move, never enough to open the lid
LIGHT_SECONDS = 0.4  # per colour at the table; nobody watches the simulator
SIM_WAIT = 2.0  # a simulated Pico runs in real time: give its events a moment to arrive
LIGHT_STEPS: list[tuple[str, str | None]] = [
    ("turn", "red"), ("turn", "green"), ("turn", "blue"), ("off", None),
]
PROBES = "tabletap.probes"
REPORT_WIDTH = 100

READER_HINTS = {
    "uart": "check TX to RX crossed over, the PN532's switches set to UART (both off), and the "
            "Pi's serial console disabled (raspi-config)",
    "spi": "check the switches (SPI: 0 1), SPI enabled in raspi-config, and the CS pin",
    "i2c": "check the switches (I2C: 1 0), I2C enabled in raspi-config, and the address "
           "(`i2cdetect -y 1` should show 24); a hung PN532 needs RSTPDN wired to a GPIO",
    "sim": "the simulated reader is unplugged",
}


@dataclass(frozen=True)
class Finding:
    """One device's state; `detail` in the maker's words (English, with pins and commands),
    `said`, where a check has one, the same for a parent in the table's language."""

    status: Status
    device: str
    detail: str
    said: Said | None = None


JOURNAL_DEVICE = "saved game"

# What stands for the chest, the lights and the buttons when the Pico that drives them is silent
# (trying each would only wait out its timeout).
BOARD_DOWN = Finding("failed", "chest, lights and buttons (serial)",
                     "not checked: they are on the board, which does not answer")


def pin_name(pin: str | int | None, board: str = "GPIO") -> str:
    return f"{board}{pin}" if isinstance(pin, int) else str(pin)


def wiring(config: Config) -> tuple[dict[str, str], str | None]:
    """Each button's pin and the lid switch's, as the maker wired them: on the Pi's GPIO (BCM
    numbers) or on the Pico's (GP numbers) with the serial backend; empty names for the sim."""
    if config.backend == "serial":
        lid = config.serial.lid_pin
        return ({n: pin_name(p, "GP") for n, p in config.serial.buttons.items()},
                None if lid is None else pin_name(lid, "GP"))
    lid = config.chest.lid_pin
    named = config.backend == "gpio"
    return ({n: pin_name(p) if named else "" for n, p in config.buttons.items()},
            None if lid is None else (pin_name(lid) if named else ""))


def _guard(device: str, check: Callable[[], Finding | list[Finding]]) -> list[Finding]:
    """A check that raises is a failed device, described by its exception's message."""
    try:
        found = check()
    except Exception as exc:  # noqa: BLE001 - any failure of a device is the report's content
        return [Finding("failed", device, str(exc) or type(exc).__name__)]
    return found if isinstance(found, list) else [found]


# -- readers ------------------------------------------------------------------------------------

_NO_METHOD = object()


def _firmware(reader: TagReader) -> object:
    """The reader's firmware in words; None when it did not say; _NO_METHOD when the adapter
    cannot ask."""
    get = getattr(reader, "firmware_version", None)
    if get is None:
        return _NO_METHOD
    version = get() if callable(get) else get
    if isinstance(version, tuple) and len(version) >= 3:  # GetFirmwareVersion: IC, Ver, Rev
        return f"PN5{version[0]:02x} firmware {version[1]}.{version[2]}"
    return None if version is None else str(version)


def check_reader(name: str, reader: TagReader, transport: str) -> Finding:
    device = f"reader {name}"
    try:
        poll = reader.poll()
    except ReaderHeld as exc:  # another program has the port: its wiring is not in question
        return Finding("failed", device, str(exc))
    except ReaderUnavailable as exc:
        hint = READER_HINTS.get(transport, "check its wiring and power")
        return Finding("failed", device, f"{exc or 'does not answer'}; {hint}")
    firmware = _firmware(reader)
    tags = len(poll.tags)
    field = "nothing on it" if not tags else f"{tags} tag{'s' if tags > 1 else ''} on it"
    garbled = "; its first reply was garbled (loose wire?)" if poll.garbled else ""
    if firmware is _NO_METHOD:
        return Finding("warning" if poll.garbled else "ok", device,
                       f"answers ({transport}); {field}{garbled}")
    if firmware is None:
        return Finding("warning", device, f"answers polls ({transport}) but did not report its "
                                          f"firmware version (a flaky link?); {field}{garbled}")
    return Finding("warning" if poll.garbled else "ok", device,
                   f"answers ({transport}), {firmware}; {field}{garbled}")


def check_readers(config: Config, context: dict[str, Any]) -> list[Finding]:
    findings = []
    for name, cfg in config.readers.items():
        transport = "sim" if context.get("sim") else cfg.transport
        device = f"reader {name}"
        try:  # one at a time, so one reader's bad settings do not hide the others
            (reader,) = build_readers(config.model_copy(update={"readers": {name: cfg}}),
                                      context).values()
        except Exception as exc:  # noqa: BLE001 - e.g. a uart reader without `port:`
            findings.append(Finding("failed", device, str(exc)))
            continue
        findings += _guard(device, lambda n=name, r=reader, t=transport: check_reader(n, r, t))
        try:
            reader.close()
        except Exception:  # noqa: BLE001 - closing a broken reader must not hide the report
            pass
    return findings


# -- outputs ------------------------------------------------------------------------------------

def check_chest(config: Config, chest: Any, sim: bool) -> Finding:
    device = "chest servo"
    if config.backend == "gpio":
        device += f" ({pin_name(config.chest.servo.pin)})"
    elif config.backend == "serial":
        device += f" ({pin_name(config.serial.servo_pin, 'GP')})"
    sweep = getattr(chest, "sweep", None)
    if callable(sweep):
        told = sweep(SWEEP_DEGREES)
        watch = "" if sim else "; did you see and hear it move?"
        return Finding("ok", device, f"{told}{watch}")
    if sim:
        chest.set_open(True)
        opened = chest.is_open
        chest.set_open(False)
        if not opened or chest.is_open:
            return Finding("failed", device, "the simulated latch did not open and close")
        return Finding("ok", device, "opened and closed (simulated)")
    return Finding("warning", device, f"the {config.backend} chest cannot sweep gently, so the "
                                      "doctor left it alone")


def check_lights(config: Config, lights: Any, clock: Clock, sim: bool) -> Finding:
    pause = 0.0 if sim else LIGHT_SECONDS
    for pattern, colour in LIGHT_STEPS:
        lights.show(pattern, colour)
        clock.sleep(pause)
    where = ""
    if config.backend == "gpio":
        where = f" on {config.lights.kind} pins " + ", ".join(map(pin_name, config.lights.pins))
    ask = "" if sim else "; did each colour light?"
    return Finding("ok", "lights", f"showed red, green, blue, then off{where}{ask}")


def _wait_for(buttons: Any, done: Callable[[list[InputEvent]], bool], clock: Clock,
              timeout: float) -> bool:
    """Drain events until what arrived satisfies `done`, or `timeout` passes."""
    seen: list[InputEvent] = []
    end = clock.now() + timeout
    while True:
        seen += buttons.events()
        if done(seen):
            return True
        if clock.now() >= end:
            return False
        clock.sleep(0.02)


def check_buttons(config: Config, buttons: Any, context: dict[str, Any], clock: Clock,
                  press: bool, timeout: float,
                  untried: str = "run with --press to try it") -> list[Finding]:
    """Each button and the lid switch: pressed in the simulator, pressed by the maker with
    `press`, else read at rest (`untried` says how to try them; the running daemon's check,
    controller.health.table, has no --press to offer)."""
    world = context.get("world") if context.get("sim") else None
    pressed = getattr(buttons, "pressed", None)
    at_rest: dict[str, bool] = pressed() if callable(pressed) else {}
    buttons.events()  # start from a clean queue
    findings = []
    button_pins, lid_pin = wiring(config)
    for name, pin in button_pins.items():
        device = f"button {name}" + (f" ({pin})" if pin else "")
        if at_rest.get(name):
            findings.append(Finding("warning", device, "reads pressed while nobody touches it: "
                                    "stuck, or wired to 3.3 V instead of ground?"))
            continue
        if world is not None:
            world.press(name)
            ok = _wait_for(buttons, lambda seen, n=name: InputEvent(n, "press") in seen, clock,
                           SIM_WAIT)
            findings.append(Finding("ok", device, "a simulated press came through") if ok else
                            Finding("failed", device, "a simulated press never arrived"))
        elif press:
            print(f"  press {name} now ({timeout:g} s)...", flush=True)
            ok = _wait_for(buttons, lambda seen, n=name: any(e.name == n for e in seen), clock,
                           timeout)
            findings.append(Finding("ok", device, "press seen") if ok else
                            Finding("failed", device, f"no press within {timeout:g} s: check "
                                    "it connects its pin to ground when pressed"))
        else:
            rest = "reads released" if name in at_rest else "configured"
            findings.append(Finding("ok", device, f"{rest}; {untried}" if untried else rest))
    if lid_pin is not None:
        device = "lid switch" + (f" ({lid_pin})" if lid_pin else "")
        if world is not None:
            # Move the lid away from where it is and back (a chest at rest is shut, unless the
            # adapter says otherwise), ending shut; each move must come back as its event.
            start = getattr(buttons, "lid_closed", None)
            start = True if start is None else start
            moves = [not start, start] + ([] if start else [True])
            ok = True
            for closed in moves:
                world.lid(closed=closed)
                kind = "lid-closed" if closed else "lid-open"
                ok = ok and _wait_for(buttons, lambda seen, k=kind: any(e.kind == k for e in seen),
                                      clock, SIM_WAIT)
            findings.append(Finding("ok", device, "simulated opening and closing came through")
                            if ok else
                            Finding("failed", device, "simulated lid changes never arrived"))
        else:
            state = getattr(buttons, "lid_closed", None)
            reading = {True: "reads closed", False: "reads open"}.get(state, "configured")
            findings.append(Finding("ok", device, reading))
    return findings


def describe_hello(hello: Any) -> str:
    """The board's hello in a line: firmware and protocol versions, where, what it drives."""
    if isinstance(hello, str):
        return hello
    parts = [f"tabletap firmware {getattr(hello, 'fw', '?')}, protocol "
             f"{getattr(hello, 'proto', '?')}"]
    if getattr(hello, "port", None):
        parts.append(f"on {hello.port}")
    if getattr(hello, "buttons", None):
        parts.append("buttons " + ", ".join(hello.buttons))
    if getattr(hello, "safe", False):
        parts.append("in its safe state (it lost the host: latched, amber)")
    return "; ".join(parts)


def check_board(config: Config, context: dict[str, Any]) -> list[Finding]:
    """The Pico's hello, for `backend: serial`: the link's own probe at the table, the same
    probe against a freshly started simulated board under --sim."""
    if config.backend != "serial":
        return []
    sim = bool(context.get("sim"))
    name = "serial-sim" if sim else "serial"
    found = entrypoints.select(PROBES, name)
    if not found:
        return [Finding("warning", "board", "the board check is not available in this "
                        f"installation (no {name!r} probe in {PROBES})")]
    probe = next(iter(found)).load()
    if sim:
        return _guard("board", lambda: Finding(
            "ok", "board", "simulated Pico answers: " + describe_hello(probe(config, context))))
    where = config.serial.port or "the Pico found on USB"

    def hello() -> Finding:
        try:
            answer = probe(config.serial.port, config.serial.hello_timeout)
        except OSError as exc:  # no such port, no Pico plugged in
            raise RuntimeError(f"{exc}; check the USB cable (a charge-only cable carries no "
                               "data) and that the Pico runs tabletap's firmware") from None
        return Finding("ok", "board", describe_hello(answer))

    return _guard(f"board ({where})", hello)


def check_outputs(config: Config, context: dict[str, Any], clock: Clock, press: bool,
                  timeout: float) -> list[Finding]:
    sim = bool(context.get("sim"))
    try:
        outputs: Outputs = build_outputs(config, context)
    except Exception as exc:  # noqa: BLE001 - a pin used twice, no pin factory, no board...
        return [Finding("failed", f"chest, lights and buttons ({config.backend})", str(exc))]
    try:
        findings = _guard("chest servo", lambda: check_chest(config, outputs.chest, sim))
        findings += _guard("lights", lambda: check_lights(config, outputs.lights, clock, sim))
        findings += _guard("buttons", lambda: check_buttons(config, outputs.buttons, context,
                                                             clock, press, timeout))
    finally:
        outputs.close()
    return findings


def simulated_context(config: Config, clock: Clock) -> dict[str, Any]:
    """The simulator's context, found by entry point (controller never imports sim)."""
    found = entrypoints.select("tabletap.simulators", "default")
    if not found:
        raise RuntimeError("the simulator is not installed (pip install -e .)")
    return next(iter(found)).load()(clock, config.default_reader).context


def run_checks(config: Config, context: dict[str, Any], clock: Clock, press: bool = False,
               timeout: float = 10.0) -> list[Finding]:
    findings = check_readers(config, context)
    board = check_board(config, context)  # before the outputs open the same serial port
    findings += board
    if any(f.status == "failed" for f in board):
        findings.append(BOARD_DOWN)
    else:
        findings += check_outputs(config, context, clock, press, timeout)
    return findings + journal_findings(config.state_dir)


def journal_findings(state_dir: str | Path) -> list[Finding]:
    """`tabletap doctor`: the journal in the state folder, read-only (safe while the daemon
    runs: the durable record is read before the journal)."""
    path = StateFolder(state_dir).journal
    try:
        if not path.is_file():
            return []
        damage = assess(Journal(path))
    except OSError:
        return []  # the state folder's own check says what is wrong with the folder
    return [] if damage is None else [Finding("failed", JOURNAL_DEVICE, damage.detail(),
                                              damage.said())]


def summary(findings: list[Finding]) -> Said:
    """The report's last line, the one a parent reads first: failed, warnings, or all fine."""
    failed = sum(f.status == "failed" for f in findings)
    warned = sum(f.status == "warning" for f in findings)
    if failed:
        # TRANSLATORS: the last line of the table check; failed and n are counts of checks
        return msg_n("%(failed)s of %(n)s check failed: fix those before playing.",
                     "%(failed)s of %(n)s checks failed: fix those before playing.",
                     len(findings), failed=failed)
    if warned:
        # TRANSLATORS: the last line of the table check; n is the count of warnings
        return msg_n("Everything answers; %(n)s warning to look at.",
                     "Everything answers; %(n)s warnings to look at.", warned)
    # TRANSLATORS: the last line of the table check; n is the count of checks
    return msg_n("All %(n)s check is fine.", "All %(n)s checks are fine.", len(findings))


def report(findings: Iterable[Finding], words: Words | None = None) -> tuple[str, int]:
    """The doctor's report, its last line in `words`' language (English by default)."""
    findings = list(findings)
    width = max((len(f.device) for f in findings), default=0)
    lines = [
        textwrap.fill(f.detail, REPORT_WIDTH, break_on_hyphens=False,
                      initial_indent=f"  {f.status:<8} {f.device:<{width}}  ",
                      subsequent_indent=" " * (width + 13))
        for f in findings
    ]
    lines.append((words or Words())(summary(findings)))
    return "\n".join(lines), 1 if any(f.status == "failed" for f in findings) else 0


