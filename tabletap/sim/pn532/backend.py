"""The `sim` transport: tabletap's real UART reader adapter and the real adafruit driver, talking
to an emulated PN532 whose antenna field is a reader's field in the simulated world.

The context is the simulator's (`tabletap.sim.context.make_context`): `world` (a SimWorld)
and `clock`.
Without a world (a CLI command run with `--sim`) a fresh one is made and put in the context, so
the caller can place tags on it. Optional keys: `faults` (reader name -> FaultPlan), `timing` (a
Timing, e.g. `INSTANT`), `sim_script` ({"rest": [spec...], "taps": [spec...]}: a simulated
hand, see sim.pn532.hand, for the `tabletap tags` commands), `sim_fade` ({"rate": P, "by":
"listing" or "activation"}: every chip's tags missed so, for `tabletap tags misses`). The chip
of each reader is kept in `context["chips"][name]`, for tests and tools that need to reach it.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.settings.config import ReaderConfig
from tabletap.hw.pn532.reader import Pn532Reader, waiting_reader
from tabletap.hw.pn532.transports import ResetLine, UartTransport
from tabletap.sim.clock import VirtualClock
from tabletap.sim.pn532.chip import Pn532Chip
from tabletap.sim.pn532.faults import FaultPlan
from tabletap.sim.pn532.hand import Hand
from tabletap.sim.pn532.port import EmulatedResetPin, EmulatedSerial
from tabletap.sim.pn532.timing import Timing, default_timing
from tabletap.sim.world import SimWorld


def _fade_plan(fade: dict[str, Any] | None) -> FaultPlan:
    """A chip's faults from `sim_fade`: a resting tag missed by whole listings (`fade`) or by
    each activation on its own (`activation_fade`), seeded so a run can be repeated."""
    if not fade:
        return FaultPlan()
    if fade.get("by") == "activation":
        return FaultPlan(activation_fade=fade["rate"], seed=1)
    return FaultPlan(rate=fade["rate"], kinds=("fade",), seed=1)


def chip_for(name: str, context: dict[str, Any]) -> Pn532Chip:
    """The emulated chip behind reader `name` (made on first use)."""
    world: SimWorld = context.setdefault(
        "world", SimWorld(clock=context.get("clock") or VirtualClock())
    )
    context.setdefault("clock", world.clock)
    chips: dict[str, Pn532Chip] = context.setdefault("chips", {})
    if name not in chips:
        faults = context.get("faults", {}).get(name) or _fade_plan(context.get("sim_fade"))
        timing: Timing = context.get("timing") or default_timing()
        chips[name] = Pn532Chip(
            field=lambda: [t.memory for t in world.field_of(name)],
            powered=lambda: name not in world.missing_readers,
            timing=timing,
            faults=faults,
            changed=world.changed,
        )
    return chips[name]


def build_reader(name: str, cfg: ReaderConfig, context: dict[str, Any]) -> Pn532Reader:
    chip = chip_for(name, context)
    clock = context["clock"]
    ports: list[EmulatedSerial] = context.setdefault("ports", {}).setdefault(name, [])

    def open_port() -> EmulatedSerial:
        port = EmulatedSerial(chip, clock, baudrate=cfg.baud, timeout=cfg.timeout)
        ports.append(port)
        return port

    script = context.get("sim_script")
    if script:
        hand = Hand.from_specs(
            context["world"], name, clock, list(script.get("rest", [])),
            list(script.get("taps", [])),
        )
        chip.on_command = hand.tick
        context.setdefault("hands", {})[name] = hand

    reset_pin = EmulatedResetPin(chip) if cfg.reset_pin else None
    if reset_pin is not None:
        context.setdefault("reset_pins", {})[name] = reset_pin
    transport = UartTransport(
        open_port, cfg.timeout, ResetLine(lambda: reset_pin, clock) if reset_pin else None,
        f"emulated PN532 {name} at {cfg.baud} baud",
    )
    return Pn532Reader(name, transport, arm=cfg.arm, **waiting_reader(cfg, context))
