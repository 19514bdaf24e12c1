"""Kingdomino through the table layer, the session and the journal.

Unit checks of what each tap and hand-entered action means, then random legal games played at
the table (dominoes and gems tapped, moves entered by hand) whose journal must replay to exactly
the state the table reached.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletap.controller.games import table_for
from tabletap.controller.games.base import (
    ButtonPressed,
    ManualAction,
    Pending,
    PieceLifted,
    PiecePlaced,
)
from tabletap.controller.rules.base import Rejection
from tabletap.controller.settings.config import Config
from tabletap.controller.state.journal import Journal
from tabletap.controller.table.runtime import GameSpec, open_table
from tabletap.games.kingdomino.rules import ENGINE
from tabletap.games.kingdomino.rules.actions import Action
from tabletap.sim.context import make_context
from tests.rules.kingdomino_helpers import act, grid, placing

TREASURE_READY = grid("""
    . . W
    . . F
    F L C
""")


def _table():  # noqa: ANN202
    t = table_for("kingdomino")
    assert t.__class__.__name__ == "KingdominoTable"
    return t


def _tap(piece: str) -> PiecePlaced:
    return PiecePlaced("table", piece)


def test_a_domino_tap_confirms_it() -> None:
    s = ENGINE.new_game(["a", "b"], 1, {}, {"face_up": ["ruby/1", "joker"]})
    n = s.next_line[0].domino
    action = _table().interpret(s, _tap(f"kingdomino/domino/{n}"), 0.0)
    assert action == Action("confirm", domino=n)
    s = ENGINE.apply(s, action).state
    assert n not in s.unconfirmed
    # A domino the box did not give, or one already confirmed, is refused by the engine.
    with pytest.raises(Rejection) as err:
        ENGINE.apply(s, _table().interpret(s, _tap(f"kingdomino/domino/{n}"), 0.0))
    assert err.value.code == "wrong-domino"


def _confirmed(players: list[str], **setup: object):  # noqa: ANN202
    """A new game whose first line is all tapped: the first king's claim is due."""
    s = ENGINE.new_game(players, 1, {}, {"face_up": ["ruby/1", "joker"], **setup})
    for slot in list(s.next_line):
        s = ENGINE.apply(s, Action("confirm", domino=slot.domino)).state
    return s


def test_a_tap_of_a_new_line_domino_at_the_claim_step_is_the_claim() -> None:
    """Kingdomino (docs/games/kingdomino.md, from the official rulebook): "First round: kings
    drawn at random choose in turn. Then the king on the lowest-numbered domino goes first:
    place your domino, then put your king on a domino in the new line." The player whose turn it
    is lifts the domino their king will stand on and taps it: the claim, for the king the claim
    order names."""
    s = _confirmed(["ana", "ben"], king_order=["ben", "ana", "ana", "ben"])
    assert s.step == "claim" and ENGINE.current_player(s) == "ben"
    first, second = s.next_line[2].domino, s.next_line[0].domino
    table = _table()
    action = table.interpret(s, _tap(f"kingdomino/domino/{first}"), 0.0)
    assert action == Action("claim", domino=first)
    out = ENGINE.apply(s, action)
    assert [e.data for e in out.events if e.kind == "claimed"][0]["player"] == "ben"
    s = out.state
    assert ENGINE.current_player(s) == "ana"
    with pytest.raises(Rejection) as err:  # a king already stands there
        ENGINE.apply(s, table.interpret(s, _tap(f"kingdomino/domino/{first}"), 0.0))
    assert err.value.code == "taken"
    s = ENGINE.apply(s, table.interpret(s, _tap(f"kingdomino/domino/{second}"), 0.0)).state
    assert [x.king for x in s.next_line][0] is not None
    assert ENGINE.public_view(s)["next_line"][0]["king"].startswith(s.colours["ana"])


def test_a_domino_tap_before_the_line_is_confirmed_still_confirms() -> None:
    """While the new line waits for its taps, a tap of one of its dominoes confirms it (the
    physical line must match the box before any claim)."""
    s = ENGINE.new_game(["a", "b"], 1, {}, {"face_up": ["ruby/1", "joker"]})
    n = s.next_line[-1].domino
    assert _table().interpret(s, _tap(f"kingdomino/domino/{n}"), 0.0) == Action("confirm",
                                                                                  domino=n)


def test_a_gem_tap_registers_the_revealed_gem() -> None:
    s = ENGINE.new_game(["a", "b"], 1, {}, {})
    action = _table().interpret(s, _tap("kingdomino/treasure/amethyst/2"), 0.0)
    assert action == Action("reveal", token="amethyst/2")
    action = _table().interpret(s, _tap("kingdomino/treasure/joker"), 0.0)
    assert action == Action("reveal", token="joker")


def test_claiming_a_treasure_is_tap_then_orient() -> None:
    s = placing(37, TREASURE_READY, gems=("ruby/1", "joker"))
    s = act(s, action="place", domino=37, at=[-1, -1], facing="north")
    table = _table()
    with pytest.raises(Rejection) as err:
        table.interpret(s, ManualAction({"action": "orient", "turns": 1}), 0.0)
    assert err.value.code == "no-gem-chosen"
    with pytest.raises(Rejection) as err:
        table.interpret(s, _tap("kingdomino/treasure/topaz/1"), 0.0)
    assert err.value.code == "not-face-up"
    pending = table.interpret(s, _tap("kingdomino/treasure/joker"), 0.0)
    assert isinstance(pending, Pending)
    action = table.interpret(s, ManualAction({"action": "orient", "turns": 3}), 0.0)
    assert action == Action("treasure", token="joker", turns=3)
    assert table.held_gem is None
    with pytest.raises(Rejection) as err:
        table.interpret(s, ManualAction({"action": "orient", "turns": 9, "token": "joker"}), 0.0)
    assert err.value.code == "bad-action"


def test_gem_taps_with_no_treasure_waiting_are_refused() -> None:
    s = placing(12, gems=("ruby/1", "joker"))
    with pytest.raises(Rejection) as err:
        _table().interpret(s, _tap("kingdomino/treasure/ruby/1"), 0.0)
    assert err.value.code == "no-treasure"


def test_pieces_that_mean_nothing_and_pieces_that_are_wrong() -> None:
    s = ENGINE.new_game(["a", "b"], 1, {}, {})
    table = _table()
    assert table.interpret(s, _tap("kingdomino/king/pink/2"), 0.0) is None
    assert table.interpret(s, _tap("kingdomino/castle/blue"), 0.0) is None
    assert table.interpret(s, PieceLifted("table", "kingdomino/domino/3"), 0.0) is None
    assert table.interpret(s, ButtonPressed("end-turn"), 0.0) is None
    with pytest.raises(Rejection) as err:
        table.interpret(s, _tap("magic-keys/key/gold"), 0.0)
    assert err.value.code == "wrong-game"
    for piece in ("kingdomino/domino/49", "kingdomino/treasure/ruby/4", "kingdomino/meeple"):
        with pytest.raises(Rejection) as err:
            table.interpret(s, _tap(piece), 0.0)
        assert err.value.code == "unknown-piece"
    with pytest.raises(Rejection) as err:
        table.interpret(s, ManualAction({"action": "teleport"}), 0.0)
    assert err.value.code == "bad-action"


def _inputs(state: object, action: Action) -> list[object]:
    """The physical gestures (and hand entries) that make `action` at the table."""
    if action.action in ("confirm", "claim"):
        return [_tap(f"kingdomino/domino/{action.domino}")]
    if action.action == "reveal":
        token = random.Random(len(state.bag)).choice(sorted(state.bag))  # type: ignore[attr-defined]
        return [_tap(f"kingdomino/treasure/{token}")]
    if action.action == "treasure":
        return [_tap(f"kingdomino/treasure/{action.token}"),
                ManualAction({"action": "orient", "turns": action.turns})]
    return [ManualAction(ENGINE.action_to_json(action))]


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    game=st.sampled_from([(2, {}), (3, {}), (4, {}), (2, {"mighty_duel": True})]),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_random_table_play_replays_from_the_journal(tmp_path: Path, game: tuple, seed: int):
    players, options = game
    state_dir = tmp_path / f"s{seed}-{players}-{len(options)}"
    cfg = Config.model_validate({"state_dir": str(state_dir)})
    ctx = make_context()
    names = ["ana", "ben", "cleo", "dan"][:players]
    daemon = open_table(cfg, ctx, ctx["clock"], GameSpec("kingdomino", names, seed, options),
                        new=True)
    session = daemon.session
    rng = random.Random(seed)
    while not ENGINE.is_over(session.state):
        legal = ENGINE.legal_actions(session.state)
        action = rng.choice(legal)
        results = [session.handle(i, 0.0) for i in _inputs(session.state, action)]
        assert results[-1].accepted is True, results[-1].rejection
        assert all(r.accepted is None and r.pending for r in results[:-1])
    assert ENGINE.winners(session.state)
    replayed = Journal.in_dir(state_dir).replay()
    assert replayed.actions == session.actions
    assert ENGINE.state_to_json(replayed.state) == ENGINE.state_to_json(session.state)
    daemon.close()
    session.outputs.close()
