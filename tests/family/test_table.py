"""The family's table without a shell: the journal's undo and abandon entries, the lights at
set-up and on a win, the request table, and the voice's defaults."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletap.controller.control_socket.requests import HANDLERS, TAKES, dispatch, register
from tabletap.controller.control_socket.takes import Takes
from tabletap.controller.settings.config import Config, parse_config
from tabletap.controller.state.journal import Journal, JournalError, sealed
from tabletap.controller.table.runtime import open_table
from tabletap.sim.context import make_context
from tests.core.helpers import magic_keys_table, tap


def _idle_table(tmp_path: Path, **config: object):
    cfg = Config.model_validate({"state_dir": str(tmp_path / "state"), **config})
    context = make_context()
    return open_table(cfg, context, context["clock"], None), context


def test_replay_honours_undo_entries(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path)
    tap(daemon, ctx, "magic-keys/key/purple/1")  # ana, true
    daemon.session.undo(daemon.clock.now())
    tap(daemon, ctx, "magic-keys/key/purple/4")  # ana, fake this time
    lines = [json.loads(line) for line in daemon.session.journal.path.read_text().splitlines()]
    assert [e["type"] for e in lines] == ["game", "action", "undo", "action"]
    assert lines[2]["undoes"] == 1 and lines[3]["n"] == 1
    replayed = daemon.session.journal.replay()
    assert replayed.actions == 1 and replayed.undos == 0
    view = replayed.engine.public_view(replayed.state)
    assert view["keys"]["purple/1"] == "forest" and view["keys"]["purple/4"] == "held:ana"


def test_an_undo_of_anything_but_the_last_live_action_is_a_loud_journal_error(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path)
    tap(daemon, ctx, "magic-keys/key/purple/1")
    path = daemon.session.journal.path
    with open(path, "a") as fh:
        fh.write(sealed({"type": "undo", "undoes": 7}))  # checksummed like a real entry
    with pytest.raises(JournalError, match=r":3: undo of action 7"):
        Journal(path).replay()


def test_a_journal_that_ends_abandoned_is_not_resumed(tmp_path: Path):
    """A power cut between the `abandoned` entry and the archive must not bring the game back."""
    daemon, ctx = magic_keys_table(tmp_path)
    tap(daemon, ctx, "magic-keys/key/purple/1")
    daemon.session.journal.append_abandoned()
    daemon.close()
    resumed, _ = _idle_table(tmp_path)
    assert resumed.session.state is None and resumed.session.engine is None
    assert "No game is under way: tap a game card to set one up." in resumed.session.speaker.said


def test_abandon_archives_the_journal_with_its_abandoned_entry(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path)
    tap(daemon, ctx, "magic-keys/key/purple/1")
    result = daemon.session.abandon(daemon.clock.now())
    assert result.accepted and not daemon.session.journal.exists()
    (archived,) = (tmp_path / "state" / "games").glob("*.jsonl")
    last = json.loads(archived.read_text().splitlines()[-1])
    assert {k: v for k, v in last.items() if k != "crc"} == {"type": "abandoned"}


def test_the_lights_count_the_seats_in_each_players_colour(tmp_path: Path):
    daemon, ctx = _idle_table(tmp_path, lights={"seat_colours": ["green", "pink", "cyan"]})
    lights = daemon.session.outputs.lights
    for piece in ("game/oversiege", "oversiege/red/stone/1", "oversiege/blue/stone/1"):
        tap(daemon, ctx, piece)
    assert lights.history[-1][1:] == ("turn", "pink") and lights.counts[-1] == 2
    seat_one = [(h, c) for h, c in zip(lights.history, lights.counts, strict=True)
                if c == 1]
    assert seat_one and seat_one[-1][0][2] == "green"
    ctx["world"].press("end-turn", long=True)
    daemon.run_for(0.2)
    assert daemon.session.header.players == ["red", "blue"]
    assert lights.history[-1][1:] == ("turn", "green")  # red's turn, in seat one's colour


def _play_to_a_win(daemon) -> None:
    """Every true key tried in turn (helpers.FAKES are the fakes): the tower fills, a win."""
    from tabletap.controller.games.base import ManualAction

    session = daemon.session
    for key in ("purple/1", "purple/2", "purple/3", "blue/3", "blue/4", "blue/5", "green/1",
                "green/2", "green/4", "yellow/3", "yellow/4", "yellow/5"):
        session.handle(ManualAction({"action": "try-key", "key": key}), daemon.clock.now())
        if session.engine.is_over(session.state):
            return
    raise AssertionError("the true keys alone did not end the game")


def test_after_a_win_a_game_card_sets_up_the_next_game(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    _play_to_a_win(daemon)
    tap(daemon, ctx, "game/kingdomino")
    assert daemon.session.setup.game == "kingdomino"
    tap(daemon, ctx, "kingdomino/king/blue/1")
    tap(daemon, ctx, "kingdomino/king/pink/2")
    ctx["world"].press("end-turn", long=True)
    daemon.run_for(0.2)
    assert daemon.session.header.game == "kingdomino" and daemon.session.playing
    assert daemon.session.header.players == ["blue", "pink"]
    (archived,) = (tmp_path / "state" / "games").glob("*.jsonl")  # the won game, kept
    assert "magic-keys" in archived.read_text().splitlines()[0]


def test_a_win_shows_the_winners_colour_once_the_celebration_is_over(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"),
                                   lights={"feedback_seconds": 1})
    session = daemon.session
    _play_to_a_win(daemon)
    winner = session.engine.winners(session.state)[0]
    lights = session.outputs.lights
    assert lights.pattern == "win"
    daemon.run_for(1.5)
    seat = session.header.players.index(winner)
    assert lights.pattern == "turn" and lights.history[-1][2] == ["red", "blue"][seat]


def test_the_request_table_answers_hello_and_takes_new_kinds(tmp_path: Path):
    daemon, _ = _idle_table(tmp_path)
    hello = dispatch(daemon, {"hello": True, "id": "x1"})
    assert hello["ok"] and hello["protocol"] == 1 and hello["version"]
    assert dispatch(daemon, {"state": True}) == {
        "ok": True, "game": None, "players": [], "state": {},
        "setup": {"game": None, "seats": []}}
    assert not dispatch(daemon, {"fly": True})["ok"]
    register("ping-test", lambda d, r: {"ok": True, "pong": r["ping-test"]},
             Takes("a number", lambda v: isinstance(v, int)))
    try:
        assert dispatch(daemon, {"ping-test": 3}) == {"ok": True, "pong": 3}
        assert "takes a number" in dispatch(daemon, {"ping-test": "3"})["error"]
    finally:
        HANDLERS.pop("ping-test")
        TAKES.pop("ping-test")
    refused = dispatch(daemon, {"do": {"action": "end-turn"}})
    assert not refused["ok"] and "No game is under way" in refused["error"]


def test_the_voice_is_on_at_a_real_table_and_off_in_the_simulator():
    assert not Config().voice_on()
    assert parse_config("backend: gpio\n").voice_on()
    assert not parse_config("backend: gpio\n").voice_on(simulated=True)  # run --sim
    assert not parse_config("backend: gpio\nvoice: {enabled: false}\n").voice_on()
    assert parse_config("voice: {enabled: true, voice: en-gb, rate: 140}\n").voice_on()
    with pytest.raises(Exception, match="rate"):
        parse_config("voice: {rate: 5}\n")
    with pytest.raises(Exception, match="seat_colours"):
        parse_config("lights: {seat_colours: [red, mauve]}\n")


def test_per_game_options_name_known_games():
    with pytest.raises(Exception, match="game_options.chess"):
        parse_config("game_options:\n  chess: {}\n")
    assert parse_config("game_options: {kingdomino: {treasures: false}}\n").options_for(
        "kingdomino") == {"treasures": False}
