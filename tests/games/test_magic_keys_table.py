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
from tabletap.controller.config import Config
from tabletap.controller.games.base import ButtonPressed, ManualAction, PiecePlaced
from tabletap.controller.journal import Journal
from tabletap.controller.rules.magic_keys import EndTurn, Move, Pond, Roll, TryKey
from tabletap.controller.runtime import GameSpec, open_table
from tabletap.sim.context import make_context


def _piece(key: str) -> str:
    return f"magic-keys/key/{key}"


def _table_input(action: object) -> object:
    """The physical gesture that makes `action` at the table."""
    if isinstance(action, TryKey):
        return PiecePlaced("chest", _piece(action.key))
    if isinstance(action, Pond):
        return PiecePlaced("pond", _piece(action.key))
    if isinstance(action, EndTurn):
        return ButtonPressed("end-turn")
    if isinstance(action, Roll):
        return ButtonPressed("roll")
    assert isinstance(action, Move)
    return ManualAction({"action": "move", "steps": action.steps})


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
        result = session.handle(_table_input(legal[choice % len(legal)]), 0.0)
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
