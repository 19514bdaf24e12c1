"""Memory through the table layer, the session and the journal.

Unit checks of what each table input means, then random legal games played at a simulated
table (cards tapped at any reader, some entered by hand, slips taken back) whose journal must
replay to exactly the state the table reached: the invariant a restart depends on.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tabletap_memory.rules import ENGINE, Flip
from tabletap_memory.table import MemoryTable, card_of

from tabletap.controller.games.base import ButtonPressed, ManualAction, PieceLifted, PiecePlaced
from tabletap.controller.games.registry import table_for
from tabletap.controller.rules.base import Rejection
from tabletap.controller.settings.config import Config
from tabletap.controller.state.journal import Journal
from tabletap.controller.table.runtime import GameSpec, open_table
from tabletap.controller.table.session import TableSession
from tabletap.sim.context import make_context

STATE = ENGINE.new_game(["ana", "ben"], 0, {}, {})


def test_the_registry_gives_a_fresh_memory_table() -> None:
    table = table_for("memory")
    assert isinstance(table, MemoryTable) and table is not table_for("memory")


@pytest.mark.parametrize("reader", ["chest", "pond", "table"])
def test_a_card_tapped_at_any_reader_is_that_card_turned_over(reader: str) -> None:
    """"A PiecePlaced of a `memory/card/...` piece means Flip" (any reader)."""
    assert MemoryTable().interpret(STATE, PiecePlaced(reader, "memory/card/owl/a"), 0.0) \
        == Flip("owl/a")
    assert MemoryTable().interpret(STATE, PiecePlaced(reader, "memory/card/sea-horse/b"),
                                   0.0) == Flip("sea-horse/b")  # the engine judges the deck


def test_a_flip_entered_by_hand_is_the_same_flip() -> None:
    """"A ManualAction `{action: flip, card: ...}` too"; a malformed one is `bad-action`."""
    table = MemoryTable()
    assert table.interpret(STATE, ManualAction({"action": "flip", "card": "fox/b"}), 0.0) \
        == Flip("fox/b")
    with pytest.raises(Rejection) as err:
        table.interpret(STATE, ManualAction({"action": "roll"}), 0.0)
    assert err.value.code == "bad-action"


def test_lifts_and_buttons_mean_nothing() -> None:
    """"Lifts mean nothing": the flip happened at the tap; a turn needs no button."""
    table = MemoryTable()
    for event in (PieceLifted("chest", "memory/card/owl/a"), ButtonPressed("end-turn"),
                  ButtonPressed("roll"), ButtonPressed("end-turn", long=True)):
        assert table.interpret(STATE, event, 0.0) is None


@pytest.mark.parametrize(("piece", "code"), [
    ("magic-keys/key/blue/3", "wrong-game"),  # the base class check, as in every game
    ("kingdomino/king/blue/1", "wrong-game"),
    ("memory/card/owl/c", "unknown-piece"),
    ("memory/card/owl", "unknown-piece"),
    ("memory/box", "unknown-piece"),
])
def test_a_piece_that_is_no_card_of_the_game_is_refused(piece: str, code: str) -> None:
    with pytest.raises(Rejection) as err:
        MemoryTable().interpret(STATE, PiecePlaced("chest", piece), 0.0)
    assert err.value.code == code
    with pytest.raises(Rejection):
        card_of(piece)


def _session(tmp_path: Path, players: list[str], options: dict[str, str] | None = None
             ) -> TableSession:
    cfg = Config.model_validate({"state_dir": str(tmp_path),
                                 "readers": {"chest": {}, "pond": {}}})
    ctx = make_context()
    return open_table(cfg, ctx, ctx["clock"], GameSpec("memory", players, 1, options or {}),
                      new=True).session


def test_a_refused_tap_at_the_table_changes_nothing(tmp_path: Path) -> None:
    """A card already taken, tapped at the table: refused with its reason, said aloud, the
    state and the journal untouched."""
    session = _session(tmp_path, ["ana", "ben"])
    for card in ("owl/a", "owl/b"):
        assert session.handle(PiecePlaced("chest", f"memory/card/{card}"), 0.0).accepted
    before = ENGINE.state_to_json(session.state)
    result = session.handle(PiecePlaced("pond", "memory/card/owl/a"), 0.0)
    assert result.accepted is False and result.rejection.code == "already-taken"
    assert ENGINE.state_to_json(session.state) == before and session.actions == 2


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.integers(min_value=1, max_value=6), small=st.booleans(),
       choices=st.lists(st.integers(min_value=0, max_value=1000), min_size=1, max_size=60))
def test_random_table_play_replays_from_the_journal(tmp_path: Path, players: int, small: bool,
                                                    choices: list[int]) -> None:
    """Random legal cards tapped at either reader (every seventh entered by hand, every
    eleventh followed by a slip taken back) replay from the journal to the table's state."""
    folder = tmp_path / f"{players}-{small}-{len(choices)}-{sum(choices)}"
    names = ["ana", "ben", "cleo", "dan", "eve", "finn"][:players]
    session = _session(folder, names, {"deck": "small"} if small else {})
    for i, choice in enumerate(choices):
        legal = ENGINE.legal_actions(session.state)
        if not legal:
            break
        card = legal[choice % len(legal)].card
        if i % 7 == 6:
            event: ManualAction | PiecePlaced = ManualAction({"action": "flip", "card": card})
        else:
            event = PiecePlaced("chest" if choice % 2 else "pond", f"memory/card/{card}")
        result = session.handle(event, 0.0)
        assert result.accepted is True, result.rejection
        if i % 11 == 10 and not ENGINE.is_over(session.state):  # a finished game stays
            session.handle(PiecePlaced("chest", "game/memory"), 0.0)
            assert session.handle(ButtonPressed("roll"), 0.0).accepted is True
    replayed = Journal.in_dir(folder).replay()
    assert replayed.actions == session.actions
    assert ENGINE.state_to_json(replayed.state) == ENGINE.state_to_json(session.state)
