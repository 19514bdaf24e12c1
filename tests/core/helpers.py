"""Shared set-up for the core tests: a Magic Keys table on the simple simulated backend."""

from __future__ import annotations

from pathlib import Path

from tabletap.controller.settings.config import Config
from tabletap.controller.table.daemon import Daemon
from tabletap.controller.table.runtime import GameSpec, open_table
from tabletap.sim.context import make_context

FAKES = ["purple/4", "purple/5", "blue/1", "blue/2", "green/3", "green/5", "yellow/1", "yellow/2"]


def magic_keys_table(tmp_path: Path, players: tuple[str, ...] = ("ana", "ben", "cleo"),
                     **config: object) -> tuple[Daemon, dict]:
    cfg = Config.model_validate({"state_dir": str(tmp_path / "state"), **config})
    context = make_context()
    spec = GameSpec("magic-keys", list(players), 1, {}, {"fake_keys": FAKES})
    daemon = open_table(cfg, context, context["clock"], spec, new=True)
    return daemon, context


def tap(daemon: Daemon, context: dict, piece: str, reader: str = "chest") -> None:
    from tabletap.sim.world import SimTag

    world = context["world"]
    tag = SimTag.for_piece(piece)
    world.place(reader, tag)
    daemon.run_for(0.2)
    world.remove(reader, tag.uid)
    daemon.run_for(0.5)
