"""The request kinds the page uses, on a real daemon loop over the simulated readers: a parent
card goes to pairing (never the game), and `snapshot` is cheap while nothing changes."""

from __future__ import annotations

import hashlib
import shutil
import time

from tabletap.controller.control_socket import page as web_requests
from tabletap.controller.health.table import check_state_folder
from tabletap.controller.patterns import PATTERNS
from tabletap.controller.table.pieces import pieces_of
from tests.core.helpers import magic_keys_table, tap

H = hashlib.sha256(b"browser").hexdigest()


def test_a_parent_card_in_the_window_pairs_and_never_reaches_the_game(tmp_path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon)
    before = daemon.session.actions
    started = web_requests.handle(daemon, {"pair": {"token_sha256": H, "label": "phone"}})
    assert started["ok"] and started["seconds_left"] == 30
    assert daemon.session.outputs.lights.pattern == "pairing"
    tap(daemon, ctx, "admin/1", "pond")
    status = web_requests.handle(daemon, {"pair": {"status": started["request"]}})
    assert status["status"] == "paired"
    assert daemon.session.actions == before  # the game never saw the card
    check = web_requests.handle(daemon, {"pairings": {"check": H}})
    assert check["paired"] and check["pairing"]["card"] == "admin/1"
    listed = web_requests.handle(daemon, {"pairings": True})["pairings"]
    assert [p["label"] for p in listed] == ["phone"]
    gone = web_requests.handle(daemon, {"revoke": listed[0]["id"]})
    assert gone["ok"] and not web_requests.handle(daemon, {"pairings": {"check": H}})["paired"]
    assert web_requests.handle(daemon, {"revoke": "nope"})["ok"] is False


def test_a_parent_card_with_no_window_is_refused_with_a_sentence(tmp_path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon)
    tap(daemon, ctx, "admin/1")
    assert daemon.session.last.rejection.code == "no-pairing"
    snap = web_requests.handle(daemon, {"snapshot": True})["snapshot"]
    assert snap["refusal"]["code"] == "no-pairing"
    assert "parent card" in snap["refusal"]["message"]


def test_the_window_closes_by_itself_on_the_daemon_clock(tmp_path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon)
    rid = web_requests.handle(daemon, {"pair": {"token_sha256": H}})["request"]
    daemon.run_for(29.0)
    assert daemon.session.outputs.lights.pattern == "pairing"
    daemon.run_for(1.5)
    assert web_requests.handle(daemon, {"pair": {"status": rid}})["status"] == "expired"
    assert daemon.session.outputs.lights.pattern == "rejected"
    tap(daemon, ctx, "admin/1")
    assert not web_requests.handle(daemon, {"pairings": {"check": H}})["paired"]


def test_snapshot_is_a_few_bytes_until_something_changes(tmp_path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon)
    first = web_requests.handle(daemon, {"snapshot": True, "since": None})
    assert first["changed"] and first["snapshot"]["game"] == "magic-keys"
    assert first["snapshot"]["extra"]["track"][0] == "start"
    counter = first["counter"]
    daemon.run_for(1.0)
    quiet = web_requests.handle(daemon, {"snapshot": True, "since": counter})
    assert quiet == {"ok": True, "protocol": 1, "counter": counter, "changed": False}
    tap(daemon, ctx, "magic-keys/key/blue/3")
    moved = web_requests.handle(daemon, {"snapshot": True, "since": counter})
    assert moved["changed"] and moved["counter"] > counter
    assert any("blue" in line["text"] for line in moved["snapshot"]["log"])


def test_other_kinds_are_left_to_the_dispatch(tmp_path):
    daemon, _ = magic_keys_table(tmp_path, players=("ana", "ben"))
    assert web_requests.handle(daemon, {"state": True}) is None
    assert web_requests.handle(daemon, {"pair": "yes"})["ok"] is False


def test_the_pairing_pattern_and_the_parent_cards_exist():
    assert PATTERNS["pairing"][0] in ("pulse", "blink", "chase", "solid")
    assert pieces_of("admin") == ["admin/1", "admin/2"]
    assert "game/kingdomino" in pieces_of("game")


def test_mid_game_the_doctor_moves_nothing_and_says_why(tmp_path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon, ctx)
    outputs = daemon.session.outputs
    lights_before, chest_before = list(outputs.lights.history), list(outputs.chest.history)
    reply = web_requests.handle(daemon, {"doctor": True})
    assert reply["full"] is False and "A game is under way" in reply["skipped"]
    findings = reply["findings"]
    assert [f["device"] for f in findings] == ["reader chest", "reader pond", "state folder"]
    assert all(f["status"] == "ok" for f in findings), findings
    # Neither the lights nor the latch moved under the family's hands.
    assert outputs.lights.history == lights_before and outputs.chest.history == chest_before
    ctx["world"].missing_readers.add("pond")
    daemon.run_for(0.5)  # (the poll that finds it gone reads as garbled: a flaky link, once)
    pond = web_requests.handle(daemon, {"doctor": True})["findings"][1]
    assert pond["status"] == "failed" and "the simulated reader is unplugged" in pond["detail"]


def test_with_no_game_under_way_the_daemon_runs_the_whole_doctor(tmp_path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon, ctx)
    daemon.session.abandon(daemon.clock.now())
    outputs = daemon.session.outputs
    lights_from, chest_from = len(outputs.lights.history), len(outputs.chest.history)
    reply = web_requests.handle(daemon, {"doctor": True})
    assert reply["full"] is True and reply["skipped"] is None
    found = {f["device"]: f for f in reply["findings"]}
    assert list(found) == ["reader chest", "reader pond", "chest servo", "lights",
                           "button end-turn", "button roll", "state folder"]
    assert all(f["status"] == "ok" for f in found.values()), found
    # The same checks as `tabletap doctor --sim`, on the devices the daemon holds: the latch
    # opened and shut again, the lights showed red, green, blue and off, each simulated press
    # came through (to the check, not to the table).
    assert [o for _, o in outputs.chest.history[chest_from:]] == [True, False]
    shown = [(p, c) for _, p, c in outputs.lights.history[lights_from:]]
    assert shown[:4] == [("turn", "red"), ("turn", "green"), ("turn", "blue"), ("off", None)]
    assert outputs.lights.pattern == "idle"  # and back to the resting picture
    assert found["button roll"]["detail"] == "a simulated press came through"
    ctx["world"].missing_readers.add("chest")
    daemon.run_for(0.5)
    chest = web_requests.handle(daemon, {"doctor": True})["findings"][0]
    assert chest["status"] == "failed"


def test_an_open_chest_stays_open_after_the_check(tmp_path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon, ctx)
    daemon.session.abandon(daemon.clock.now())
    chest = daemon.session.outputs.chest
    chest.set_open(True)
    web_requests.handle(daemon, {"doctor": True})
    assert chest.is_open


def test_a_state_folder_that_cannot_take_the_journal_is_named(tmp_path, monkeypatch):
    gone = check_state_folder(tmp_path / "gone")
    assert gone.status == "failed" and "not writable" in gone.detail
    monkeypatch.setattr(shutil, "disk_usage", lambda _p: shutil._ntuple_diskusage(1, 1, 10**6))
    low = check_state_folder(tmp_path)
    assert low.status == "warning" and "0 MiB free" in low.detail


def test_the_pairing_lights_come_back_after_an_answer_in_the_window(tmp_path):
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"))
    web_requests.attach(daemon)
    lights = daemon.session.outputs.lights
    web_requests.handle(daemon, {"pair": {"token_sha256": H}})
    tap(daemon, ctx, "magic-keys/key/blue/3")  # a move in the window: its answer shows...
    assert lights.pattern != "pairing"
    daemon.run_for(daemon.session.config.lights.feedback_seconds + 0.2)
    assert lights.pattern == "pairing"  # ...then the table goes back to asking for the card
    daemon.run_for(30)
    daemon.run_for(daemon.session.config.lights.feedback_seconds + 0.2)
    assert lights.pattern == "turn"  # the window closed: whose turn again


def test_the_final_scores_of_a_whole_game_add_up(tmp_path):
    """scenarios/kingdomino/two-players.yaml ends "score: {ana: 28, ben: 26}, winner: ana"; the
    snapshot's `final` gives the page the sums those points are made of."""
    from pathlib import Path

    from tabletap.sim.scenario.model import load
    from tabletap.sim.scenario.runner import ScenarioRun

    path = Path(__file__).resolve().parents[2] / "scenarios" / "kingdomino" / "two-players.yaml"
    run = ScenarioRun(load(str(path)))
    seen: list[dict] = []

    def look(step, expect):
        snap = web_requests.handle(run.daemon, {"snapshot": True})["snapshot"]
        if snap["over"]:
            seen.append(snap)

    assert run.run(after_step=look) is None
    final = seen[-1]["extra"]["final"]
    assert {p: final[p]["score"] for p in final} == {"ana": 28, "ben": 26}
    assert seen[-1]["winners"] == ["ana"]
    for kingdom in final.values():
        parts = kingdom["territories"]
        assert parts and all(t["crowns"] for t in parts)
        assert sum(t["points"] for t in parts) + sum(kingdom["bonuses"].values()) \
            + kingdom["earlier"] == kingdom["score"]
        assert all(t["points"] == (0 if t["skulls"] else t["squares"] * t["crowns"])
                   for t in parts)
    assert not any(k["immediate_victory"] for k in final.values())


def test_on_the_pico_wiring_the_check_uses_the_daemons_own_link(tmp_path):
    """`backend: serial` under the simulator (the firmware behind a pseudo-terminal, in real
    time): the board's hello is the one the daemon's link got, the sweep is the Pico's, the
    presses and the lid come through the board, and the port is never opened a second time."""
    from tabletap.controller.clock import SystemClock
    from tabletap.controller.settings.config import Config
    from tabletap.controller.table.runtime import open_table
    from tabletap.sim.context import make_context

    clock = SystemClock()
    config = Config.model_validate({"state_dir": str(tmp_path / "state"), "backend": "serial",
                                    "serial": {"lid_pin": 12}})
    context = make_context(clock)
    daemon = open_table(config, context, clock, None)  # no game: the whole check
    try:
        web_requests.attach(daemon, context)
        reply = web_requests.handle(daemon, {"doctor": True})
        found = {f["device"]: f for f in reply["findings"]}
        assert reply["full"] and all(f["status"] == "ok" for f in found.values()), found
        assert found["board"]["detail"].startswith("tabletap firmware ")
        assert list(found) == ["reader chest", "reader pond", "board", "chest servo (GP16)",
                               "lights", "button end-turn (GP14)", "button roll (GP13)",
                               "lid switch (GP12)", "state folder"]
        assert "the Pico swung the servo 10 degrees" in found["chest servo (GP16)"]["detail"]
        assert found["lid switch (GP12)"]["detail"] == "simulated opening and closing came through"
        assert context["pico"].error is None
        context["pico"].unplug()  # the USB cable pulled: the daemon's link loses the board
        deadline = time.monotonic() + 10
        while daemon.session.outputs.chest.link.connected:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        found = web_requests.handle(daemon, {"doctor": True})["findings"]
        board, rest = found[2], found[3]
        assert board["status"] == "failed" and "does not answer the daemon now" in board["detail"]
        # Nothing waits out a timeout on a silent board (the loop would stall for seconds).
        assert rest["device"] == "chest, lights and buttons (serial)" and "not checked" in \
            rest["detail"]
    finally:
        daemon.close()
        daemon.session.outputs.close()


def test_the_game_states_part_of_a_snapshot_is_made_again_only_for_another_state(
        tmp_path, monkeypatch):
    """WebSide._of_state: the engines never change a state (rules.base, `apply`), so the
    view, the scores and the game's extras are made once a state; a change that is not a move
    (the relock, a lift) sends the same part again, and a move sends the new state's."""
    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben"),
                                   chest={"open_seconds": 1})
    web_requests.attach(daemon)
    engine = daemon.session.engine
    views: list[object] = []
    real = type(engine).public_view

    def counted(self, state, *args):
        if args == (False,):  # the page's view (the lights ask for the players too)
            views.append(state)
        return real(self, state, *args)

    monkeypatch.setattr(type(engine), "public_view", counted)
    first = web_requests.handle(daemon, {"snapshot": True})
    assert first["snapshot"]["turn"] == "ana" and len(views) == 1
    tap(daemon, ctx, "magic-keys/key/purple/1")  # ana's true key: the chest opens
    moved = web_requests.handle(daemon, {"snapshot": True, "since": first["counter"]})
    assert moved["changed"] and moved["snapshot"]["turn"] == "ben" and len(views) == 2
    assert moved["snapshot"]["view"] != first["snapshot"]["view"]
    daemon.run_for(1.5)  # the relock: said, so the counter moves, but no move was made
    relocked = web_requests.handle(daemon, {"snapshot": True, "since": moved["counter"]})
    assert relocked["changed"] and relocked["snapshot"]["log"] != moved["snapshot"]["log"]
    assert relocked["snapshot"]["view"] == moved["snapshot"]["view"] and len(views) == 2
    assert relocked["snapshot"]["extra"] == moved["snapshot"]["extra"]
