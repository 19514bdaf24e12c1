"""The `serial` output backend: chest, lights and buttons on a Pico over USB serial.

Registered as entry point `serial` in group `tabletap.backends`. Under `--sim` there is no Pico,
so it hands over to the `serial-sim` entry point (sim.board.backend), which starts the simulated
board and calls back here with its port: hw never imports sim.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from tabletap.controller import entrypoints
from tabletap.controller.patterns import COLOURS, PATTERNS
from tabletap.controller.ports import InputEvent, Outputs
from tabletap.controller.settings.config import Config
from tabletap.firmware import protocol
from tabletap.firmware.board import DEFAULTS, check_config
from tabletap.hw.serial_link.link import BoardLink, LinkError, ProtocolMismatch

log = logging.getLogger("tabletap.serial")

KINDS = ("press", "hold", "lid-open", "lid-closed")
SWEEP_WAIT = 3.0  # seconds
# How long the loop waits for a latch command to reach the wire: a fraction of a millisecond
# when the link is idle, up to the board's ack behind a command still in flight (one at a time),
# never longer than this (a board that stopped acking is the link's to retry, not the loop's).
LATCH_WIRE_WAIT = 0.01  # seconds


# The YAML key each cfg key comes from, to name it when the board would refuse the value.
YAML_KEYS = {
    "servo_pin": "serial.servo_pin",
    "min_us": "chest.servo.min_pulse_width",
    "max_us": "chest.servo.max_pulse_width",
    "min_angle": "chest.servo.min_angle",
    "max_angle": "chest.servo.max_angle",
    "open_angle": "chest.servo.open_angle",
    "closed_angle": "chest.servo.closed_angle",
    "travel_s": "chest.servo.travel_seconds",
    "pixel_pin": "serial.pixel_pin",
    "pixels": "lights.pixels",
    "buttons": "serial.buttons",
    "lid_pin": "serial.lid_pin",
    "hold_ms": "long_press_seconds",
    "host_timeout": "serial.host_timeout",
}
LARGEST_ID = {"h": 2**24 - 1, "b": 2**30 - 1}  # host and boot ids at their widest
LARGEST_SEQ = 10**9


class BoardConfigError(ValueError):
    """The YAML holds a value the Pico would refuse (it would then run on its defaults)."""


def check_board_config(config: Config) -> dict[str, Any]:
    """The cfg command, checked here with the firmware's own rules before any board sees it.

    A cfg the board refuses leaves it on DEFAULTS, driving the servo with limits that are not
    the maker's; so the host refuses to start instead, naming the YAML key.
    """
    cfg = board_config(config)
    try:
        check_config(cfg, DEFAULTS)
    except ValueError as e:
        raise BoardConfigError(f"{_yaml_keys(str(e))}: the Pico would refuse this ({e}) and "
                               "drive the chest with its default limits instead") from None
    try:
        protocol.encode("cmd", LARGEST_SEQ, {"op": "cfg"} | cfg | LARGEST_ID)
    except ValueError as e:
        raise BoardConfigError(f"serial.buttons: the config for the Pico would not fit in one "
                               f"frame ({e}: {protocol.MAX_PAYLOAD} bytes at most); use fewer "
                               "or shorter button names") from None
    return cfg


def _yaml_keys(message: str) -> str:
    """The YAML keys behind the cfg keys a board error message names (or all buttons)."""
    named = [yaml for key, yaml in YAML_KEYS.items() if key in message]
    if "pin GP" in message:
        named = ["serial.servo_pin", "serial.pixel_pin", "serial.buttons", "serial.lid_pin"]
    elif not named and "button" in message:
        named = ["serial.buttons"]
    return ", ".join(named) if named else "serial, chest.servo"


def board_config(config: Config) -> dict[str, Any]:
    """The cfg command the host sends after hello: the board keeps no config of its own."""
    servo, serial_cfg = config.chest.servo, config.serial
    return {
        "servo_pin": serial_cfg.servo_pin,
        "min_us": round(servo.min_pulse_width * 1e6),
        "max_us": round(servo.max_pulse_width * 1e6),
        "min_angle": servo.min_angle,
        "max_angle": servo.max_angle,
        "open_angle": servo.open_angle,
        "closed_angle": servo.closed_angle,
        "travel_s": servo.travel_seconds,
        "pixel_pin": serial_cfg.pixel_pin,
        "pixels": config.lights.pixels,
        "buttons": dict(serial_cfg.buttons),
        "lid_pin": serial_cfg.lid_pin,
        "hold_ms": round(config.long_press_seconds * 1000),
        "host_timeout": serial_cfg.host_timeout,
    }


class SerialChest:
    def __init__(self, link: BoardLink) -> None:
        self.link = link
        self._open = False

    def set_open(self, open_: bool) -> None:
        self._open = bool(open_)
        self.link.submit({"op": "latch", "open": self._open}, wire_wait=LATCH_WIRE_WAIT)

    @property
    def is_open(self) -> bool:
        return self._open

    def sweep(self, degrees: float) -> str:
        """For `tabletap doctor`: a small move toward open and back, done by the board itself."""
        ticket = self.link.submit({"op": "sweep", "degrees": degrees})
        if not ticket.wait(SWEEP_WAIT):
            raise LinkError(f"the board did not acknowledge the sweep within {SWEEP_WAIT:g} s")
        if ticket.superseded:
            raise LinkError("the board reset during the sweep")
        if self.link.config_error is not None:
            raise LinkError(f"the board refused its config ({self.link.config_error}); it "
                            "runs on its default servo limits")
        if not ticket.ok:
            raise LinkError(f"the board refused the sweep: {ticket.err}")
        return f"the Pico swung the servo {degrees:g} degrees toward open and back"

    def close(self) -> None:
        pass  # the link is closed once, by the buttons (the last part Outputs.close closes)


class SerialLights:
    def __init__(self, link: BoardLink) -> None:
        self.link = link
        self._pattern = "off"
        self._level = 255  # the ring's brightness of 255 the board scales each frame by

    def set_brightness(self, fraction: float) -> None:
        """Bedtime (controller.table.bedtime): the next show carries `level`, and the board
        scales every pixel of every frame by it. By day no `level` is sent at all, so a board
        whose firmware predates it sees the commands it always did."""
        self._level = max(1, min(255, round(fraction * 255)))

    def show(self, pattern: str, colour: str | None = None, count: int | None = None) -> None:
        if pattern not in PATTERNS:
            raise ValueError(f"unknown light pattern {pattern!r}; known: {', '.join(PATTERNS)}")
        self._pattern = pattern
        command = {"op": "show", "pattern": pattern,
                   "colour": colour if colour in COLOURS else None}
        if count is not None:
            command["count"] = count
        if self._level < 255:
            command["level"] = self._level
        self.link.submit(command)

    @property
    def pattern(self) -> str:
        return self._pattern

    def close(self) -> None:
        pass


class SerialButtons:
    def __init__(self, link: BoardLink, on_close: list[Callable[[], None]] | None = None) -> None:
        self.link = link
        self.on_close = on_close or []

    @property
    def on_input(self) -> Callable[[], None] | None:
        """Called from the link's thread when a press arrives (the daemon's loop wakes)."""
        return self.link.on_event

    @on_input.setter
    def on_input(self, wake: Callable[[], None] | None) -> None:
        self.link.on_event = wake

    @property
    def idle_limit(self) -> float:
        """The longest the daemon may go without calling events(): the link takes a daemon
        that stops calling for half the host timeout for hung (BoardLink._daemon_alive). A
        third of it (1 s of the default 3) leaves half a second for a slow pass, and is the
        loop's own longest pause and its armed listings' renewal (Daemon.pause, readers'
        `arm`), so an empty table's loop passes once a second for all three; at a quarter
        (0.75 s) they fell apart, two passes a second (bench.live.stopwatch --idle)."""
        return self.link.host_timeout / 3

    def events(self) -> list[InputEvent]:
        out = []
        for name, kind in self.link.events():
            if kind in KINDS:
                out.append(InputEvent(name, kind))  # type: ignore[arg-type]
            else:
                log.warning("ignoring board event %s/%s", name, kind)
        return out

    def close(self) -> None:
        self.link.close()
        for fn in self.on_close:
            fn()


def build_outputs(config: Config, context: dict[str, Any], port: str | None = None,
                  on_close: list[Callable[[], None]] | None = None) -> Outputs:
    """Outputs on the Pico at `port` (or config.serial.port, or the one found on USB)."""
    if port is None and context.get("sim"):
        found = entrypoints.select("tabletap.backends", "serial-sim")
        if not found:
            raise LinkError("--sim with backend: serial needs the simulated Pico (entry point "
                            "'serial-sim' in tabletap.backends); is tabletap installed "
                            "(pip install -e .)?")
        return next(iter(found)).load()(config, context)
    cfg = config.serial
    link = BoardLink(port or cfg.port, baud=cfg.baud, board_config=check_board_config(config),
                     host_timeout=cfg.host_timeout, retry=cfg.retry_seconds).start()
    try:
        hello = link.wait_hello(cfg.hello_timeout)
        log.info("Pico firmware %s (protocol %d) on %s", hello.fw, hello.proto, hello.port)
    except ProtocolMismatch:
        link.close()
        raise
    except LinkError as e:
        log.warning("%s; the chest and lights will follow when the board answers", e)
    return Outputs(SerialChest(link), SerialLights(link), SerialButtons(link, on_close))
