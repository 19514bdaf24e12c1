"""`doctor` for the running table, as the phone page asks for it.

`tabletap doctor` opens every device itself, which it cannot while the daemon holds them; so the
daemon, which owns the readers, the chest, the lights and the buttons, runs the same checks
(controller.health.checks, which `tabletap doctor` runs too) on the devices it has open:

- always: each reader answers one extra poll (the tracker never sees it, so no piece seems to
  move), the Pico's hello on the link the daemon keeps (`backend: serial`), and the state folder,
  which holds the journal, must be writable with room to spare, and the journal must not be
  damaged (health/journal.py: a damaged one holds the table);
- only while no game is under way: the chest's gentle sweep, the lights' red, green, blue and
  off, and the buttons (pressed in the simulator; at the table, read at rest). In the middle of
  a game these would move the latch under a family's hands, put out whose turn it is, and swallow
  a press, so the answer says in a sentence why they were left alone.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from tabletap.controller.health.checks import (
    BOARD_DOWN,
    Finding,
    _guard,
    check_buttons,
    check_chest,
    check_lights,
    check_reader,
    describe_hello,
)
from tabletap.controller.health.journal import held_findings
from tabletap.controller.language.messages import msg
from tabletap.controller.language.words import Words
from tabletap.controller.table.protocols import TableDaemon

LOW_SPACE = 50 * 1024 * 1024  # the journal is small, but a full card loses the next move
# TRANSLATORS: the table check on the phone page, asked during a game
MID_GAME_SAID = msg("A game is under way, so the chest, the lights and the buttons were not "
                    "tried: they would move the latch, put out whose turn it is and swallow a "
                    "press. Finish or abandon the game, then check again.")
MID_GAME = Words()(MID_GAME_SAID)  # English, for the maker's shell


def check_state_folder(folder: str | Path) -> Finding:
    device = "state folder"
    path = Path(folder)
    if not os.access(path, os.W_OK):
        return Finding("failed", device, f"{path} is not writable: moves cannot be saved")
    free = shutil.disk_usage(path).free
    if free < LOW_SPACE:
        return Finding("warning", device, f"{path}: only {free // 2**20} MiB free; make room "
                       "before the card fills and a move cannot be saved")
    return Finding("ok", device, f"{path}: writable, {free // 2**20} MiB free")


def check_open_board(config: Any, outputs: Any) -> list[Finding]:
    """`backend: serial`: the hello the board gave the daemon's own link (opening the port
    again, as `tabletap doctor` does, would take it from the daemon)."""
    if config.backend != "serial":
        return []
    link = getattr(outputs.chest, "link", None)
    hello = getattr(link, "hello", None)
    cable = ("check the USB cable (a charge-only cable carries no data) and that the Pico runs "
             "tabletap's firmware")
    if hello is None:
        return [Finding("failed", "board", f"the Pico has not said hello to the daemon: {cable}")]
    if not getattr(link, "connected", True):
        return [Finding("failed", "board", "the Pico does not answer the daemon now (it last "
                        f"said: {describe_hello(hello)}); {cable}")]
    return [Finding("ok", "board", describe_hello(hello))]


def table_findings(daemon: TableDaemon, context: dict[str, Any] | None = None,
                   moving: bool = True) -> list[Finding]:
    """The running table's checks; `moving` adds the chest, the lights and the buttons (only
    when no game is under way: the caller decides). `context` is the daemon's adapters' context
    (the simulator's world under `--sim`, which presses the simulated buttons)."""
    context = context if context is not None else {"sim": False}
    sim = bool(context.get("sim"))
    session, clock = daemon.session, daemon.clock
    config, outputs = session.config, session.outputs
    findings: list[Finding] = []
    for name, reader in daemon.readers.items():
        transport = "sim" if sim else config.readers[name].transport
        findings += _guard(f"reader {name}",
                           lambda n=name, r=reader, t=transport: check_reader(n, r, t))
    board = _guard("board", lambda: check_open_board(config, outputs))
    findings += board
    if moving and any(f.status == "failed" for f in board):
        findings.append(BOARD_DOWN)
    elif moving:
        chest = outputs.chest
        was_open = chest.is_open
        findings += _guard("chest servo", lambda: check_chest(config, chest, sim))
        if chest.is_open != was_open:  # the sweep ends shut; an open chest stays open
            chest.set_open(was_open)
        findings += _guard("lights", lambda: check_lights(config, outputs.lights, clock, sim))
        session.show_turn()  # the lights' resting picture again (or the pairing pattern)
        findings += _guard("buttons", lambda: check_buttons(
            config, outputs.buttons, context, clock, press=False, timeout=0.0, untried=""))
    findings.append(check_state_folder(config.state_dir))
    journal = getattr(session, "journal", None)
    if journal is not None:
        findings += held_findings(journal)
    return findings
