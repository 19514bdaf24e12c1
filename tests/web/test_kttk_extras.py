"""What the daemon adds to a Key to the Kingdom snapshot for the phone page
(games.key_to_the_kingdom.page):
the step under way with its target and shortcut, the lands each flap shows, and the legal
actions without the draws that would tell the event deck's order."""

from __future__ import annotations

import json

from tabletap.controller.control_socket.page import EXTRAS
from tabletap.controller.language.tree import spelled
from tabletap.controller.language.words import Words
from tabletap.games.key_to_the_kingdom.page import extras as game_extras
from tabletap.games.key_to_the_kingdom.rules import ENGINE
from tabletap.games.key_to_the_kingdom.rules.actions import Castle, Move, Roll, Use


def game(**setup):
    return ENGINE.new_game(["knight", "wizard"], 7, {"dice": "physical"},
                           {"first": "knight", **setup})


def play(state, *actions):
    for action in actions:
        state = ENGINE.apply(state, action).state
    return state


def extras(engine, state):
    """The extras as the page gets them: their names and sentences in English."""
    return spelled(game_extras(engine, state), Words("en"))


def test_the_snapshot_uses_these_extras():
    state = game()
    assert EXTRAS["key-to-the-kingdom"](ENGINE, state) == game_extras(ENGINE, state)


def test_an_event_space_lists_no_draw_so_the_deck_order_stays_hidden():
    state = play(game(), Roll(4), Move("v5"))
    assert state.phase == "event" and len(state.deck) > 1
    assert ENGINE.legal_actions(state)  # the engine would list a draw per card, in deck order
    assert extras(ENGINE, state)["legal"] == []


def test_a_key_adventure_step_shows_its_target_and_the_shortcut():
    # The default pack's fire mountain (red key, from h6): step 1 target 3, step 3 the boots.
    state = play(game(positions={"knight": "h5"}), Roll(1), Move("h6"))
    step = extras(ENGINE, state)["step"]
    assert {k: v for k, v in step.items() if not k.endswith("_said")} == {
        "kind": "adventure", "hero": "knight", "hero_name": "knight", "name": "fire mountain",
        "colour": "red", "colour_name": "red", "step": 1, "steps": 5, "target": 3, "item": None,
        "companion": None, "shortcut": None}
    rolled = play(state, Roll(2))
    assert extras(ENGINE, rolled)["step"]["target"] == 3  # still shown while the roll is changed
    assert {"action": "resolve"} in extras(ENGINE, rolled)["legal"]


def test_the_castle_step_shows_the_face_up_token_and_its_section():
    state = play(game(positions={"knight": "court2"}, keys={"knight": ["red", "green", "blue"]}),
                 Castle())
    x = extras(ENGINE, state)
    token = state.ask.token
    assert x["step"]["kind"] == "castle"
    assert x["step"]["name"] == state.pack.token(token).name.replace("-", " ")
    assert x["step"]["section"] == "the gate" and x["step"]["steps"] == 3
    assert list(x["tokens"]) == [token]
    assert x["tokens"][token]["target"] == state.pack.token(token).target
    assert x["tokens"][token]["item"] == state.pack.token(token).item
    # the face-down tokens are not named anywhere in what the page gets
    hidden = [t for s in state.castle for t in s if t != token]
    assert not any(t in json.dumps(x) for t in hidden)


def test_lands_follow_the_flaps_and_items_their_side():
    state = play(game(flaps={"west": "open"}), Roll(5), Use("knight/sword", -1))
    lands = {land["land"]: land for land in extras(ENGINE, state)["lands"]}
    assert (lands["marsh"]["shown"], lands["meadow"]["shown"]) == (True, False)
    assert lands["village"]["flap"] is None and lands["village"]["shown"]
    assert ["v3", "refresh 2"] in lands["village"]["spaces"]
    sword = next(i for i in extras(ENGINE, state)["items"]["knight"] if i["id"] == "knight/sword")
    assert {k: v for k, v in sword.items() if k != "name_said"} == {
        "id": "knight/sword", "name": "sword", "values": [4], "exhausted": True, "magic": False}


def test_the_board_is_drawn_from_the_packs_layout_each_space_on_its_land_in_words():
    # issue 21: the page draws the board, so the extras carry where each land and space lies
    state = game()
    x = extras(ENGINE, state)
    picture = x["map"]
    places = {land["land"]: land["at"] for land in picture["lands"]}
    assert set(places) == {"village", "hills", "meadow", "marsh", "forest", "caves"}
    assert places["meadow"] == places["marsh"]  # a flap's two sides lie in one place
    for land in x["lands"]:
        left, top, width, height = places[land["land"]]
        for sid, _kind in land["spaces"]:
            px, py = picture["spaces"][sid]
            assert left <= px <= left + width and top <= py <= top + height, sid
    assert set(picture["spaces"]) == set(state.pack.spaces)
    assert x["names"]["v12"] == "village space 12" and x["names"]["court2"] == "courtyard space 2"
    assert ["v1", "v2"] in picture["links"] and picture["colours"]["h6"] == "red"
    assert picture["status"] == "guess"


def test_a_pack_without_a_layout_is_drawn_in_an_arrangement_of_our_own(tmp_path):
    import shutil
    from importlib import resources

    from tabletap.games.key_to_the_kingdom.layout import layout_of
    from tabletap.games.key_to_the_kingdom.rules.pack import FILES, load_pack

    shipped = resources.files("tabletap.games.key_to_the_kingdom.rules").joinpath(
        "packs", "default")
    for name in FILES:
        shutil.copyfile(str(shipped.joinpath(name)), tmp_path / name)
    pack = load_pack(str(tmp_path))
    picture = layout_of(pack)
    assert set(picture["spaces"]) == set(pack.spaces)
    columns = {land["land"]: land["at"][0] for land in picture["lands"]}
    assert columns["meadow"] == columns["marsh"] != columns["village"]
