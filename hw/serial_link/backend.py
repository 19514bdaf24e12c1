"""The `serial` output backend: chest, lights and buttons on a Pico over USB serial.

Registered as entry point `serial` in group `tabletap.backends`. Under `--sim` there is no Pico,
so it hands over to the `serial-sim` entry point (sim.board.backend), which starts the simulated
board and calls back here with its port: hw never imports sim.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from controller.config import Config
from controller.patterns import COLOURS, PATTERNS
from controller.ports import InputEvent, Outputs
from hw.serial_link.link import BoardLink, LinkError, ProtocolMismatch

log = logging.getLogger("tabletap.serial")

KINDS = ("press", "hold", "lid-open", "lid-closed")
SWEEP_WAIT = 3.0  # seconds


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
        self.link.submit({"op": "latch", "open": self._open})

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
        if not ticket.ok:
            raise LinkError(f"the board refused the sweep: {ticket.err}")
        return f"the Pico swung the servo {degrees:g} degrees toward open and back"

    def close(self) -> None:
        pass  # the link is closed once, by the buttons (the last part Outputs.close closes)


class SerialLights:
    def __init__(self, link: BoardLink) -> None:
        self.link = link
        self._pattern = "off"

    def show(self, pattern: str, colour: str | None = None, count: int | None = None) -> None:
        if pattern not in PATTERNS:
            raise ValueError(f"unknown light pattern {pattern!r}; known: {', '.join(PATTERNS)}")
        self._pattern = pattern
        command = {"op": "show", "pattern": pattern,
                   "colour": colour if colour in COLOURS else None}
        if count is not None:
            command["count"] = count
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
        found = entry_points(group="tabletap.backends", name="serial-sim")
        if not found:
            raise LinkError("--sim with backend: serial needs the simulated Pico (entry point "
                            "'serial-sim' in tabletap.backends); is tabletap installed "
                            "(pip install -e .)?")
        return next(iter(found)).load()(config, context)
    cfg = config.serial
    link = BoardLink(port or cfg.port, baud=cfg.baud, board_config=board_config(config),
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
