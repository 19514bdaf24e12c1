"""The Oversiege table layer: taps, the end-turn button and `do:` actions made into plays.

Issue 5, "At the table": each card is tapped when played; an attack is the projectile and then
its target; a timeout or an unrelated card cancels a half-made gesture; `end-turn` passes the
turn. The tests drive the table as the session does (interpret, then ENGINE.apply).
"""

from __future__ import annotations

import pytest

from tabletap.controller.games import table_for
from tabletap.controller.games.base import (
    ButtonPressed,
    ManualAction,
    Pending,
    PieceLifted,
    PiecePlaced,
)
from tabletap.controller.rules.base import Rejection, english
from tabletap.games.oversiege.rules import ENGINE as E
from tabletap.games.oversiege.rules import Action
from tabletap.games.oversiege.table import GESTURE_TIMEOUT, OversiegeTable


def c(deck: str, name: str) -> str:
    return f"oversiege/{deck}/{name}"


class Table:
    """The session's loop in miniature: interpret an input, apply what it returns."""

    def __init__(self, players=("red", "blue"), options=None, setup=None) -> None:
        self.table = table_for("oversiege")
        assert isinstance(self.table, OversiegeTable)
        self.state = E.new_game(list(players), 0, options or {}, setup or {})
        self.now = 0.0

    def send(self, event):
        result = self.table.interpret(self.state, event, self.now)
        if isinstance(result, Action):
            out = E.apply(self.state, result)
            self.state = out.state
            return out
        return result

    def tap(self, piece: str, reader: str = "table"):
        result = self.send(PiecePlaced(reader, piece))
        assert self.send(PieceLifted(reader, piece)) is None  # a lift means nothing
        return result

    def refused(self, code: str, event) -> None:
        before = E.state_to_json(self.state)
        with pytest.raises(Rejection) as info:
            self.send(event)
        assert info.value.code == code, info.value
        assert E.state_to_json(self.state) == before

    def press(self, long: bool = False):
        return self.send(ButtonPressed("end-turn", long))

    def discard_to_two(self) -> None:
        player = self.state.current
        side = self.state.sides[player]
        loose = [x for x in E.cards.deck_cards(player)
                 if x not in side.in_play() and x not in side.discard and "/key/" not in x]
        while self.state.sides[player].hand > 2:
            assert isinstance(self.press(long=True), Pending)
            self.tap(loose.pop())


def test_one_tap_plays():
    """An armament is one tap (with fewer than two in play); the blockade is one tap."""
    t = Table()
    out = t.tap(c("red", "catapult/1"))
    assert out.action == Action("armament", c("red", "catapult/1"))
    out = t.tap(c("red", "blockade/1"))
    assert out.action == Action("blockade", c("red", "blockade/1"))
    assert t.state.sides["red"].blockade == c("red", "blockade/1")


def test_attack_is_projectile_then_target():
    t = Table()
    t.tap(c("red", "crossbow/1"))
    pending = t.tap(c("red", "bolt/1"))
    assert isinstance(pending, Pending) and "target" in english(pending.message)
    out = t.tap(c("blue", "tower/3"))
    assert out.action == Action("attack", c("red", "bolt/1"), (c("blue", "tower/3"),))
    assert t.state.sides["blue"].destroyed == ["tower/3"]


def test_double_projectile_takes_two_targets():
    t = Table(("red", "blue", "green"))
    t.tap(c("red", "catapult/1"))
    assert isinstance(t.tap(c("red", "double-stone/1")), Pending)
    assert isinstance(t.tap(c("blue", "tower/1")), Pending)
    out = t.tap(c("green", "tower/2"))
    assert out.action.targets == (c("blue", "tower/1"), c("green", "tower/2"))


def test_double_with_one_card_in_reach_fires_on_the_first_target_tap():
    """PROJECTILES: "Double projectiles can destroy two cards at once"; decided: with one card
    in reach (here the last stone tower) the double fires at it on that tap, no second tap."""
    t = Table(setup={"destroyed": {"blue": ["tower/1"]}})
    t.tap(c("red", "catapult/1"))
    assert isinstance(t.tap(c("red", "double-stone/1")), Pending)
    out = t.tap(c("blue", "tower/2"))
    assert out.action == Action("attack", c("red", "double-stone/1"), (c("blue", "tower/2"),))
    assert t.table.gesture is None and t.state.sides["blue"].destroyed == ["tower/1", "tower/2"]


def test_double_with_an_illegal_first_aim_still_waits_for_the_second_tap():
    """The lone-target shortcut never turns a refused aim into an early refusal: the engine
    judges the pair after the second tap, as before."""
    t = Table(setup={"destroyed": {"blue": ["tower/1"]}})
    t.tap(c("red", "catapult/1"))
    t.tap(c("red", "double-stone/1"))
    assert isinstance(t.tap(c("blue", "tower/1")), Pending)  # already destroyed
    t.refused("already-destroyed", PiecePlaced("table", c("blue", "tower/2")))


def test_double_aimed_twice_at_one_card_is_refused_by_the_rules():
    t = Table()
    t.tap(c("red", "catapult/1"))
    t.tap(c("red", "double-stone/1"))
    t.tap(c("blue", "tower/1"))
    t.refused("same-target", PiecePlaced("table", c("blue", "tower/1")))
    assert t.table.gesture is None


def test_armament_with_two_in_play_then_the_one_it_replaces():
    t = Table()
    t.tap(c("red", "catapult/1"))
    t.tap(c("red", "crossbow/1"))
    assert isinstance(t.tap(c("red", "battering-ram/1")), Pending)
    out = t.tap(c("red", "crossbow/1"))
    assert out.action == Action("armament", c("red", "battering-ram/1"), (c("red", "crossbow/1"),))
    assert t.state.sides["red"].discard == [c("red", "crossbow/1")]


def test_rebuild_and_key_gestures():
    t = Table(("blue", "red"), setup={"destroyed": {"blue": ["tower/2"],
                                                    "red": ["tower/1", "tower/2", "tower/3",
                                                            "tower/4", "entrance"]}})
    assert isinstance(t.tap(c("blue", "rebuild/1")), Pending)
    out = t.tap(c("blue", "tower/2"))
    assert out.action == Action("rebuild", c("blue", "rebuild/1"), (c("blue", "tower/2"),))
    assert isinstance(t.tap(c("blue", "key/1")), Pending)
    out = t.tap(c("red", "chamber"))
    assert [e.kind for e in out.events] == ["chest-open", "win"]
    assert E.winners(t.state) == ["blue"]


def test_first_tap_is_checked_at_once():
    """A wrong first card is refused before any target is asked for."""
    t = Table()
    t.refused("no-armament", PiecePlaced("table", c("red", "stone/1")))
    t.refused("not-your-turn", PiecePlaced("table", c("blue", "catapult/1")))
    t.refused("not-a-play", PiecePlaced("table", c("blue", "tower/1")))
    t.refused("wrong-game", PiecePlaced("table", "magic-keys/key/gold"))
    t.refused("unknown-piece", PiecePlaced("table", "oversiege/red/sword/1"))
    assert t.table.gesture is None


def test_unrelated_card_cancels_the_gesture():
    """A card that cannot finish the gesture cancels it with a clear light; nothing changes."""
    t = Table()
    t.tap(c("red", "catapult/1"))
    t.tap(c("red", "stone/1"))
    t.refused("gesture-cancelled", PiecePlaced("table", c("red", "stone/2")))
    assert t.table.gesture is None
    # the next tap starts afresh
    assert isinstance(t.tap(c("red", "stone/2")), Pending)
    t.refused("gesture-cancelled", PiecePlaced("table", c("red", "stone/2")))  # same card again
    t.tap(c("red", "rebuild/1"))
    t.refused("gesture-cancelled", PiecePlaced("table", c("blue", "catapult/1")))


def test_a_piece_of_another_game_cancels_the_gesture():
    """Issue: "A timeout or an unrelated card cancels a half-made gesture with a clear light";
    a Magic Keys key is as unrelated as a card can be, so the castle tap after it starts afresh
    (it is refused as a first tap) instead of finishing the attack."""
    t = Table()
    t.tap(c("red", "catapult/1"))
    assert isinstance(t.tap(c("red", "stone/1")), Pending)
    t.refused("wrong-game", PiecePlaced("table", "magic-keys/key/gold"))
    assert t.table.gesture is None
    t.refused("not-a-play", PiecePlaced("table", c("blue", "tower/1")))
    assert t.state.sides["blue"].standing("tower/1")


def test_key_with_two_cards_in_hand_is_refused_at_the_first_tap():
    """TURNS: a key among the two cards kept at the end of a turn waits for the following
    turn; the table refuses the key's tap at once (no chamber is asked for)."""
    t = Table(("blue", "red"), setup={"destroyed": {"red": ["tower/1", "tower/2", "tower/3",
                                                            "tower/4", "entrance"]}})
    t.discard_to_two()
    t.refused("keep-two", PiecePlaced("table", c("blue", "key/1")))
    assert t.table.gesture is None
    t.refused("not-a-play", PiecePlaced("table", c("red", "chamber")))
    assert not t.state.sides["red"].chamber_open


def test_armament_replacement_needs_an_armament_in_play():
    t = Table()
    t.tap(c("red", "catapult/1"))
    t.tap(c("red", "crossbow/1"))
    t.tap(c("red", "battering-ram/1"))
    t.refused("gesture-cancelled", PiecePlaced("table", c("red", "tower/1")))


def test_gesture_times_out():
    t = Table()
    t.tap(c("red", "catapult/1"))
    t.tap(c("red", "stone/1"))
    assert t.table.expire(GESTURE_TIMEOUT - 0.1) is None
    expired = t.table.expire(GESTURE_TIMEOUT)
    assert isinstance(expired, Rejection) and expired.code == "gesture-timeout"
    assert t.table.gesture is None and t.table.expire(GESTURE_TIMEOUT + 1) is None


def test_late_tap_after_a_timeout_starts_afresh():
    """If expire() was not called in time, a target tapped too late is not taken as the
    target: the stale gesture is dropped and the tap is judged on its own."""
    t = Table()
    t.tap(c("red", "catapult/1"))
    t.tap(c("red", "stone/1"))
    t.now = GESTURE_TIMEOUT + 5
    t.refused("not-a-play", PiecePlaced("table", c("blue", "tower/1")))


def test_each_tap_restarts_the_timeout():
    t = Table()
    t.tap(c("red", "catapult/1"))
    t.tap(c("red", "double-stone/1"))
    t.now = GESTURE_TIMEOUT - 1
    t.tap(c("blue", "tower/1"))
    assert t.table.expire(GESTURE_TIMEOUT + 1) is None


def test_end_turn_button():
    """The end-turn button passes the turn; the turn event tells the next player's draw."""
    t = Table()
    t.refused("hand-too-full", ButtonPressed("end-turn"))
    t.discard_to_two()
    out = t.press()
    assert t.state.current == "blue"
    assert [e.data for e in out.events if e.kind == "turn"] == [{"player": "blue", "draw": 3}]


def test_short_press_cancels_a_gesture():
    t = Table()
    t.tap(c("red", "rebuild/1"))
    t.refused("gesture-cancelled", ButtonPressed("end-turn"))
    assert t.table.gesture is None and t.state.current == "red"


def test_discard_by_holding_end_turn_then_tapping():
    t = Table()
    pending = t.press(long=True)
    assert isinstance(pending, Pending)
    out = t.tap(c("red", "key/1"))
    assert out.action == Action("discard", c("red", "key/1"))
    assert t.state.sides["red"].discard == [c("red", "key/1")]


def test_discard_the_card_waiting_for_its_target_by_holding_end_turn():
    t = Table()
    t.tap(c("red", "rebuild/1"))
    out = t.press(long=True)
    assert out.action == Action("discard", c("red", "rebuild/1"))


def test_holding_end_turn_twice_cancels_the_discard():
    t = Table()
    t.press(long=True)
    t.refused("gesture-cancelled", ButtonPressed("end-turn", long=True))
    assert t.table.gesture is None


def test_discard_refused_with_two_cards_in_hand():
    t = Table()
    t.discard_to_two()
    t.refused("keep-two", ButtonPressed("end-turn", long=True))
    assert t.table.gesture is None


def test_manual_actions_and_other_buttons():
    t = Table()
    t.tap(c("red", "rebuild/1"))
    out = t.send(ManualAction({"action": "armament", "card": c("red", "catapult/1")}))
    assert out.action.kind == "armament" and t.table.gesture is None
    t.refused("bad-action", ManualAction({"action": "fly"}))
    assert t.send(ButtonPressed("roll")) is None


def test_a_whole_game_through_the_table():
    """Two players, red wins: towers, then the entrance with a ram, then the key."""
    t = Table()
    t.tap(c("red", "catapult/1"))
    t.tap(c("red", "crossbow/1"))
    t.tap(c("red", "double-stone/1"))
    t.tap(c("blue", "tower/1"))
    t.tap(c("blue", "tower/2"))
    t.press()
    t.discard_to_two()
    t.press()
    t.tap(c("red", "double-bolt/1"))
    t.tap(c("blue", "tower/3"))
    t.tap(c("blue", "tower/4"))
    t.tap(c("red", "battering-ram/1"))
    t.tap(c("red", "catapult/1"))  # replaces the catapult
    t.tap(c("red", "ram/1"))
    t.tap(c("blue", "entrance"))
    assert t.state.sides["red"].hand == 2
    t.press()
    t.discard_to_two()
    t.press()
    t.tap(c("red", "key/1"))
    out = t.tap(c("blue", "chamber"))
    assert "chest-open" in [e.kind for e in out.events]
    assert E.winners(t.state) == ["red"]


def test_journal_replay_resumes_the_same_game(tmp_path):
    """docs/CONTRACTS.md, "The journal": accepted plays are journaled as action_to_json and
    replay to the same state (a power cut mid-siege loses nothing)."""
    from tabletap.controller.state.journal import GameHeader, Journal

    journal = Journal.in_dir(tmp_path)
    journal.start(GameHeader("oversiege", ["red", "blue", "green"], 0,
                             {}, {"destroyed": {"blue": ["tower/1"]}}))
    t = Table(("red", "blue", "green"), setup={"destroyed": {"blue": ["tower/1"]}})
    count = 0
    taps = [c("red", "catapult/1"), c("red", "double-stone/1"), c("blue", "tower/2"),
            c("green", "tower/1"), c("red", "blockade/1")]
    for piece in taps:
        out = t.tap(piece)
        if not isinstance(out, Pending):
            count += 1
            journal.append(count, E.action_to_json(out.action))
    out = t.press()
    journal.append(count + 1, E.action_to_json(out.action))
    replayed = journal.replay()
    assert replayed.actions == count + 1
    assert E.state_to_json(replayed.state) == E.state_to_json(t.state)
    assert t.state.current == "blue"
