"""The simulator as `tabletap run --sim` uses it: a world, its clock, and a typed console.

The console lets a developer (or a test) play at a simulated table in real time by typing lines:
    tap PIECE [READER]      place a piece's tag, lift it half a second later
    place PIECE [READER]    leave it on the reader
    remove PIECE [READER]
    press NAME | hold NAME  a button, short or long
    roll FACE...            fix the next digital dice roll
    unplug READER | plug READER
    pico unplug | pico plug | pico noise FRACTION   the simulated Pico's USB line (backend: serial)
    lights | chest | help
The lights and the chest are printed as they change (tabletap.sim.console).
"""

from __future__ import annotations

import shlex
from typing import Any

from tabletap.controller.ports import Clock
from tabletap.sim.clock import VirtualClock
from tabletap.sim.console import OutputWatch, help_text, quiet_echoes
from tabletap.sim.world import SimTag, SimWorld

TAP_SECONDS = 0.5


def make_context(clock: Clock | None = None) -> dict[str, Any]:
    """A fresh simulated table; `clock` defaults to virtual time (the scenario runner's)."""
    world = SimWorld(clock=clock or VirtualClock())  # type: ignore[arg-type]
    return {"sim": True, "world": world, "clock": world.clock}


class Simulator:
    def __init__(self, clock: Clock, default_reader: str = "chest") -> None:
        self.context = make_context(clock)
        self.world: SimWorld = self.context["world"]
        self.default_reader = default_reader
        self._lifts: list[tuple[float, str, bytes]] = []
        self.watch = OutputWatch(self.context)
        quiet_echoes()

    def tick(self, now: float) -> None:
        due = [lift for lift in self._lifts if lift[0] <= now]
        for lift in due:
            self._lifts.remove(lift)
            self.world.remove(lift[1], lift[2])
        for line in self.watch.changes():
            print(line, flush=True)

    def command(self, line: str, table: Any, language: str = "en") -> str:
        """Apply one console line; returns a short answer (a typo never ends the daemon).
        `language` is the table's, for the help."""
        try:
            return self._command(line, table, language)
        except ValueError as exc:
            return f"? {exc}"

    def _command(self, line: str, table: Any, language: str) -> str:
        words = shlex.split(line)
        if not words:
            return ""
        verb, rest = words[0], words[1:]
        now = self.world.clock.now()
        if verb in ("help", "?") and not rest:
            return help_text(language)
        if verb in ("lights", "chest") and not rest:
            return self.watch.ask(verb)
        if verb in ("tap", "place", "remove") and rest:
            reader = rest[1] if len(rest) > 1 else self.default_reader
            tag = SimTag.for_piece(rest[0]) if "/" in rest[0] else None
            if tag is None:
                return f"? {rest[0]!r} is not a piece id"
            if verb == "remove":
                return "lifted" if self.world.remove(reader, tag.uid) else "? not on that reader"
            self.world.place(reader, tag)
            if verb == "tap":
                self._lifts.append((now + TAP_SECONDS, reader, tag.uid))
            return f"{verb} {rest[0]} at {reader}"
        if verb in ("press", "hold") and len(rest) == 1:
            self.world.press(rest[0], long=verb == "hold")
            return f"{verb} {rest[0]}"
        if verb == "roll" and rest:
            faces = [int(f) if f.isdigit() else f for f in rest]
            table.force("roll", faces)
            return f"next roll: {faces}"
        if verb in ("unplug", "plug") and len(rest) == 1:
            (self.world.missing_readers.add if verb == "unplug"
             else self.world.missing_readers.discard)(rest[0])
            return f"{verb} {rest[0]}"
        if verb == "pico" and rest:
            return self._pico(rest)
        return f"? unknown command {line!r}: type `help` for the list"

    def _pico(self, words: list[str]) -> str:
        """Faults on the simulated Pico's USB line: the link must ride them out."""
        board = self.context.get("pico")
        if board is None:
            return "? no simulated Pico here (the config's backend is not serial)"
        if words == ["unplug"]:
            board.unplug()
        elif words == ["plug"]:
            board.replug()
        elif words[0] == "noise" and len(words) == 2:
            fraction = float(words[1])  # ValueError: answered as `? ...`
            if not 0 <= fraction <= 1:
                raise ValueError("noise is a fraction of the bytes, from 0 to 1")
            board.set_corruption(fraction)
        else:
            return "? pico unplug | pico plug | pico noise FRACTION"
        return f"pico {' '.join(words)}"
