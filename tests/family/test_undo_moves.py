"""Undo goes back over moves (issue 21, defect 4): a domino of the new line tapped to check it
is not a move, so undo takes back the move before it, with the taps after it, and says which
move it was and what to put back; and the journal replays to the same place."""

from __future__ import annotations

from pathlib import Path

from tabletap.controller.control_socket.requests import dispatch
from tabletap.controller.settings.config import Config
from tabletap.controller.table.runtime import GameSpec, open_table
from tabletap.sim.context import make_context
from tests.core.helpers import tap
from tests.web.table import KINGDOMINO

ROUND_ONE = ["kingdomino/domino/31", "kingdomino/treasure/ruby/3", "kingdomino/treasure/ruby/2",
             "kingdomino/domino/29", "kingdomino/domino/5", "kingdomino/domino/13"]


def _kingdomino(tmp_path: Path):
    cfg = Config.model_validate({"state_dir": str(tmp_path / "state")})
    context = make_context()
    spec = GameSpec("kingdomino", ["ana", "ben"], KINGDOMINO["seed"], {}, KINGDOMINO["setup"])
    return open_table(cfg, context, context["clock"], spec, new=True), context


def test_undo_goes_back_over_the_line_check_taps_to_the_last_move(tmp_path: Path) -> None:
    daemon, ctx = _kingdomino(tmp_path)
    for piece in ROUND_ONE:
        tap(daemon, ctx, piece)
    for domino in (31, 29, 5, 13):
        assert dispatch(daemon, {"do": {"action": "claim", "domino": domino}})["accepted"]
    before_line = daemon.session.actions
    for n in (47, 23, 18, 41):  # the new line, each tapped to check it
        tap(daemon, ctx, f"kingdomino/domino/{n}")
    assert daemon.session.actions == before_line + 4

    reply = dispatch(daemon, {"undo": True})
    assert reply["accepted"], reply
    said = " ".join(reply["events"])
    assert said.startswith("Taken back: ben's claim of domino 13.")
    assert "Take the king back off domino 13." in said
    assert "tap them again" in said
    assert daemon.session.actions == before_line - 1
    assert daemon.session.journal.replay().actions == before_line - 1

    # the move is made again and the line tapped again: the game goes on as before
    assert dispatch(daemon, {"do": {"action": "claim", "domino": 13}})["accepted"]
    for n in (47, 23, 18, 41):
        tap(daemon, ctx, f"kingdomino/domino/{n}")
    assert daemon.session.actions == before_line + 4


def test_with_only_line_check_taps_there_is_nothing_to_take_back(tmp_path: Path) -> None:
    daemon, ctx = _kingdomino(tmp_path)
    tap(daemon, ctx, "kingdomino/domino/31")
    reply = dispatch(daemon, {"undo": True})
    assert reply["accepted"] is False
    assert "not a move" in reply["message"]
    assert daemon.session.actions == 1
