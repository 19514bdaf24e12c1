"""A real multi-action journal to damage: a Kingdomino game played by its self-play policy,
journaled entry by entry the way the table does (each append moves the durable record), and
the four kinds of damage issue 22 names."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from tabletap.controller.games import registry
from tabletap.controller.selfplay.play import chooser, seat_names
from tabletap.controller.state.journal import GameHeader, Journal

GAME = "kingdomino"
ACTIONS = 78
SEED = 5


def kingdomino_journal(state_dir: Path, actions: int = ACTIONS, seed: int = SEED) -> Journal:
    """`actions` actions of an unfinished three-player Kingdomino game, in `state_dir`."""
    engine = registry.engine_for(GAME)
    spec = registry.game(GAME)
    players = seat_names(GAME, 3)
    options = dict(spec.selfplay.options)
    state = engine.new_game(players, seed, options, {})
    rng, choose = random.Random(seed), chooser(GAME, "random")
    journal = Journal.in_dir(state_dir)
    journal.start(GameHeader(GAME, players, seed, options, {}))
    for n in range(1, actions + 1):
        action = choose(engine, state, engine.legal_actions(state), rng)
        if spec.selfplay.resolve is not None:
            action = spec.selfplay.resolve(state, action, rng)
        state = engine.apply(state, action).state
        journal.append(n, engine.action_to_json(action))
    assert not engine.is_over(state)
    return journal


def write_config(tmp_path: Path) -> Path:
    cfg = tmp_path / "t.yaml"
    cfg.write_text(f"state_dir: {tmp_path / 'state'}\n")
    return cfg


def zero_last_4k(raw: bytes) -> bytes:
    """The last 4 KiB of the file read back as zeros (an SD card's lost block)."""
    start = max(len(raw) - 4096, 0)
    return raw[:start] + bytes(len(raw) - start)


def zero_last_block(raw: bytes) -> bytes:
    """The file's last 4 KiB-aligned block zeroed (what the file system loses at once)."""
    start = (len(raw) - 1) // 4096 * 4096
    return raw[:start] + bytes(len(raw) - start)


def zero_last_three_lines(raw: bytes) -> bytes:
    start = raw[:-1].rsplit(b"\n", 3)[0]
    return start + b"\n" + bytes(len(raw) - len(start) - 1)


def cut_in_half(raw: bytes) -> bytes:
    return raw[:len(raw) // 2]


def flip_final_newline(raw: bytes) -> bytes:
    assert raw.endswith(b"\n")
    return raw[:-1] + bytes([raw[-1] ^ 0x01])


DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "last 4 KiB zeroed": zero_last_4k,
    "last block zeroed": zero_last_block,
    "last three lines zeroed": zero_last_three_lines,
    "cut in half": cut_in_half,
    "final newline flipped": flip_final_newline,
}
