"""A gap the aimed soak found: the retry of a game-ending move whose answer was lost.

The daemon dies after saving the move that ends the game and before answering it. systemd
restarts it; the config names a game, so the restarted daemon archives the finished game and
starts a new one, and the new journal does not know the request id. `tabletap do` retries with
the same id, as it must, and the move is applied again, to the new game (or refused by the new
game's rules, and `do` says it did not count, although it did). Every other saved-but-unanswered
move is recognised (tests/reliability/test_do_retry.py, `make soak`).

Fixed in the journal: a new game's header carries the request ids of the game before it
(state/journal.py, CARRIED_IDS), so the retry is answered "already done" in the next game too.
This test failed before that.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tabletap.controller.control_socket.server import NoAnswer, request, wait_for_server
from tests.reliability.procs import ROOT
from tests.reliability.test_do_retry import DYING

TOOLS = ROOT / "tools"


def test_a_retried_game_ending_move_is_not_applied_to_the_next_game(tmp_path: Path):
    sys.path.insert(0, str(TOOLS))
    from drive import Table, cases, last_entry

    case = next(c for c in cases() if c.label == "magic-keys")
    table = Table(tmp_path / "state", tmp_path / "daemon.log", seed=4)
    table.start(case)
    engine, state = table._follow()
    rng = random.Random(4)
    try:
        while True:  # play to one move before the end
            legal = engine.legal_actions(state)
            ending = [a for a in legal if engine.is_over(engine.apply(state, a).state)]
            if ending:
                break
            data = _console_form(engine, rng.choice(legal))
            if request(table.sock, {"do": data, "id": uuid.uuid4().hex}).get("accepted"):
                for action in last_entry(table.journal)["actions"]:
                    state = engine.apply(state, engine.action_from_json(action)).state
        table.stop(signal.SIGTERM)
        # the same daemon, which SIGKILLs itself after the move is saved, before the answer
        config = tmp_path / "state.yaml"
        dying = subprocess.Popen([sys.executable, "-c", DYING, "run", "--sim", "--config",
                                  str(config)], stdin=subprocess.PIPE,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
        assert wait_for_server(table.sock, 60)
        final = {"do": _console_form(engine, ending[0]), "id": uuid.uuid4().hex}
        with pytest.raises(NoAnswer):
            request(table.sock, final, timeout=30)
        dying.wait(timeout=30)
        assert final["id"] in table.journal.read_text()  # saved before the answer was lost
        table.start(case)  # systemd's restart: a new game over the finished one
        again = request(table.sock, final, timeout=30)
        assert again.get("repeated"), f"the retry was taken as a new move: {again}"
    finally:
        table.stop(signal.SIGTERM)


def _console_form(engine: object, action: object) -> dict:
    data = dict(engine.action_to_json(action))  # type: ignore[attr-defined]
    if "type" in data:
        data["action"] = data.pop("type")
    return {k: v for k, v in data.items() if v is not None}
