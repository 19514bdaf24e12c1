"""Magic Keys through the table layer, the session and the journal.

Random legal play is made at the table (keys tapped at the chest and pond readers, buttons
pressed, moves entered by hand), and the journal must replay to exactly the state the table
reached: the invariant the SIGKILL resume depends on.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletap.controller.cli import main
from tabletap.controller.games.base import ButtonPressed, PiecePlaced
from tabletap.controller.rules.base import english
from tabletap.controller.settings.config import Config
from tabletap.controller.state.journal import Journal
from tabletap.controller.table.runtime import GameSpec, open_table
from tabletap.games.magic_keys.rules import EndTurn, MagicKeysState, Move, Pond, Roll, TryKey
from tabletap.sim.context import make_context


def said(result) -> str:
    """What a half-made gesture says, in English (a Said, or a string)."""
    return result.pending if isinstance(result.pending, str) else english(result.pending)


def _piece(key: str) -> str:
    return f"magic-keys/key/{key}"


def _table_inputs(action: object, state: MagicKeysState) -> list[object]:
    """The physical gestures that make `action` at the table: a move is short presses of
    `roll` until the die is named, then a long press (no console)."""
    if isinstance(action, TryKey):
        return [PiecePlaced("chest", _piece(action.key))]
    if isinstance(action, Pond):
        return [PiecePlaced("pond", _piece(action.key))]
    if isinstance(action, EndTurn):
        return [ButtonPressed("end-turn")]
    if isinstance(action, Roll):
        return [ButtonPressed("roll")]
    assert isinstance(action, Move)
    presses = list(dict.fromkeys(state.showing)).index(action.steps) + 1
    return [ButtonPressed("roll")] * presses + [ButtonPressed("roll", long=True)]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    players=st.integers(min_value=2, max_value=4),
    dice=st.sampled_from(["physical", "digital"]),
    seed=st.integers(min_value=0, max_value=10_000),
    choices=st.lists(st.integers(min_value=0, max_value=1000), min_size=1, max_size=150),
)
def test_random_table_play_replays_from_the_journal(tmp_path: Path, players: int, dice: str,
                                                    seed: int, choices: list[int]):
    state_dir = tmp_path / f"s{seed}-{players}-{dice}-{len(choices)}"
    cfg = Config.model_validate({"state_dir": str(state_dir)})
    ctx = make_context()
    names = ["ana", "ben", "cleo", "dan"][:players]
    daemon = open_table(cfg, ctx, ctx["clock"], GameSpec("magic-keys", names, seed,
                                                         {"dice": dice}), new=True)
    session = daemon.session
    engine = session.engine
    for choice in choices:
        legal = engine.legal_actions(session.state)
        if not legal:
            break
        *naming, doing = _table_inputs(legal[choice % len(legal)], session.state)
        for press in naming:
            assert session.handle(press, 0.0).pending
        result = session.handle(doing, 0.0)
        assert result.accepted is True, result.rejection
        view = engine.public_view(session.state, reveal=True)
        assert sum(view["scores"].values()) + view["chest"] == 42  # gems conserved
        assert len(view["winners"]) <= 1
    replayed = Journal.in_dir(state_dir).replay()
    assert replayed.actions == session.actions
    assert engine.state_to_json(replayed.state) == engine.state_to_json(session.state)


def test_state_hides_fake_keys_unless_revealed(tmp_path: Path, capsys):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(f"state_dir: {tmp_path}\n")
    ctx = make_context()
    open_table(Config.model_validate({"state_dir": str(tmp_path)}), ctx, ctx["clock"],
               GameSpec("magic-keys", ["ana", "ben"], 3), new=True)
    assert main(["state", "--json", "--config", str(cfg)]) == 0
    hidden = json.loads(capsys.readouterr().out)
    assert "fake_keys" not in hidden and set(hidden["keys"].values()) == {"forest"}
    assert main(["state", "--json", "--reveal", "--config", str(cfg)]) == 0
    revealed = json.loads(capsys.readouterr().out)
    assert len(revealed["fake_keys"]) == 8


def _digital_table(tmp_path: Path, players: list[str] | None = None):
    cfg = Config.model_validate({"state_dir": str(tmp_path)})
    ctx = make_context()
    daemon = open_table(cfg, ctx, ctx["clock"], GameSpec("magic-keys", players or ["ana", "ben"],
                                                         7, {"dice": "digital"}), new=True)
    return daemon.session


def test_roll_button_names_a_die_then_moves_by_it(tmp_path: Path):
    """1. Roll the dice and move forward: "Choose one of the remaining dice and advance the game
    pawn by the number indicated on the chosen dice"; "As long as you have any available dice,
    you can roll the dice again any number of times." With digital dice and no console: a short
    press of `roll` names the next die showing (the lights flash its number in the player's
    colour), a long press moves by it, and the family can roll again."""
    session = _digital_table(tmp_path)
    lights = session.outputs.lights
    session.table.force("roll", [3, "moon", 1])
    assert session.handle(ButtonPressed("roll"), 0.0).accepted
    named = session.handle(ButtonPressed("roll"), 0.0)
    assert named.accepted is None
    assert said(named).startswith("ana: move by 3, to the third purple key")
    assert "press roll for the 1" in said(named)
    assert (lights.pattern, lights.counts[-1]) == ("turn", 3)
    assert said(session.handle(ButtonPressed("roll"), 0.0)).startswith("ana: move by 1")
    assert lights.counts[-1] == 1
    assert said(session.handle(ButtonPressed("roll"), 0.0)).startswith("ana: move by 3")
    assert session.state.showing == (3, 1) and session.state.pawn == 0  # naming changes nothing
    moved = session.handle(ButtonPressed("roll", long=True), 0.0)
    assert moved.accepted and [e.kind for e in moved.events] == ["move"]
    assert session.state.pawn == 3 and session.state.dice == 2 and session.state.moved
    # roll again with the two dice left; a long press before naming a die is refused
    session.table.force("roll", [4, 2])
    assert session.handle(ButtonPressed("roll"), 0.0).accepted
    before = session.engine.state_to_json(session.state)
    refused = session.handle(ButtonPressed("roll", long=True), 0.0)
    assert refused.rejection is not None and refused.rejection.code == "choose-die-first"
    assert session.engine.state_to_json(session.state) == before
    session.handle(ButtonPressed("roll"), 0.0)
    session.handle(ButtonPressed("roll"), 0.0)  # 4, then 2
    assert session.handle(ButtonPressed("roll", long=True), 0.0).accepted
    assert session.state.pawn == 5
    # the key where the pawn stands is pulled and tried at the chest as before
    assert session.handle(PiecePlaced("chest", _piece("purple/5")), 0.0).accepted
    assert session.engine.current_player(session.state) == "ben"


def test_one_number_showing_moves_on_a_long_press(tmp_path: Path):
    """With one number showing there is nothing to choose: the long press moves by it; a
    naming left over from an earlier roll is not carried to the next one."""
    session = _digital_table(tmp_path)
    session.table.force("roll", [2, "moon", 2])
    session.handle(ButtonPressed("roll"), 0.0)
    assert session.handle(ButtonPressed("roll", long=True), 0.0).accepted
    assert session.state.pawn == 2
    session.table.force("roll", [4, 1])
    session.handle(ButtonPressed("roll"), 0.0)
    assert said(session.handle(ButtonPressed("roll"), 0.0)).startswith("ana: move by 4")


def test_the_golden_key_stops_the_named_move(tmp_path: Path):
    """Golden Key: "When the game pawn arrives or passes here": the die named says the pawn
    stops on the golden key's space."""
    session = _digital_table(tmp_path)
    gold = session.engine.track.gold_position
    session.state = session.state.model_copy(update={"pawn": gold - 2, "rolled": True,
                                                     "showing": (4,), "dice": 1})
    assert "to the golden key?" in said(session.handle(ButtonPressed("roll"), 0.0))
