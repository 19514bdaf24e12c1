"""The Key to the Kingdom table layer: taps, the two buttons and `do:` made into engine actions.

Issue 11, "At the table": rolls from the roll button or entered; items used by tapping their
token (tap again to subtract); every tap checked; the landing space taken when there is one
choice and cycled with the buttons, each choice named, when there are several; event cards,
key pieces, the Demon die then the receiving figure tapped. The tests drive the table as the
session does (interpret, then apply every action it returns).
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
from tabletap.games.key_to_the_kingdom.rules import ENGINE as E
from tabletap.games.key_to_the_kingdom.table import KttkTable


class Table:
    """The session's loop in miniature: interpret an input, apply what it returns."""

    def __init__(self, players=("knight", "wizard"), options=None, **setup) -> None:
        self.table = table_for("key-to-the-kingdom")
        assert isinstance(self.table, KttkTable)
        setup.setdefault("first", players[0])
        self.state = E.new_game(list(players), 0, options or {}, setup)

    def send(self, event):
        result = self.table.interpret(self.state, event, 0.0)
        if result is None or isinstance(result, Pending):
            return result
        for action in result if isinstance(result, tuple) else (result,):
            out = E.apply(self.state, action)
            self.state = out.state
            self.table.accepted(out.action)
        return result

    def tap(self, piece: str):
        result = self.send(PiecePlaced("table", piece))
        assert self.send(PieceLifted("table", piece)) is None
        return result

    def press(self, name: str = "end-turn", long: bool = False):
        return self.send(ButtonPressed(name, long))

    def roll(self, value: int):
        self.table.force("roll", [value])
        return self.press("roll")

    def refused(self, code: str, event) -> Rejection:
        before = E.state_to_json(self.state)
        with pytest.raises(Rejection) as info:
            self.send(event)
        assert info.value.code == code, info.value
        assert E.state_to_json(self.state) == before
        return info.value


def test_roll_button_item_taps_add_then_subtract():
    t = Table()
    t.roll(5)
    t.tap("kttk/item/knight/sword")
    assert t.state.roll.result == 9
    t.tap("kttk/item/knight/sword")  # a second tap: subtract instead
    assert t.state.roll.result == 1
    assert "knight/sword" in t.state.exhausted("knight")


def test_every_tap_is_checked():
    t = Table()
    t.roll(5)
    t.tap("kttk/item/knight/sword")
    t.refused("one-item", PiecePlaced("table", "kttk/item/knight/axe"))
    t.refused("not-yours", PiecePlaced("table", "kttk/item/wizard/axe"))
    t.refused("not-yours", PiecePlaced("table", "kttk/magic/bee-cannon"))
    t.refused("unknown-piece", PiecePlaced("table", "kttk/item/knight/laser"))
    t.refused("unknown-piece", PiecePlaced("table", "kttk/weird"))
    t.refused("wrong-game", PiecePlaced("table", "magic-keys/key/blue/1"))


def test_mood_ring_taps_cycle_its_four_changes():
    t = Table(magic={"knight": ["mood-ring"]})
    t.roll(4)
    results = []
    for _ in range(5):
        t.tap("kttk/magic/mood-ring")
        results.append(t.state.roll.result)
    assert results == [6, 2, 5, 3, 6]


def test_one_landing_space_is_taken_at_once():
    """A result of 0 (here 1 minus the cloak) reaches only the space the hero is on: one
    press of end-turn takes it, and it activates."""
    t = Table(positions={"knight": "v5"})
    t.roll(1)
    t.tap("kttk/item/knight/cloak")
    t.tap("kttk/item/knight/cloak")
    assert t.state.roll.result == 0 and E.destinations(t.state) == ["v5"]
    t.press()
    assert t.state.positions["knight"] == "v5" and t.state.phase == "event"


def test_several_landing_spaces_are_cycled_and_named():
    t = Table()
    t.roll(2)
    assert E.destinations(t.state) == ["v3", "v11", "h12"]
    first = t.press()
    assert isinstance(first, Pending)
    assert "1 of 3: village space 3, refresh 2." in english(first.message)
    second = t.press()
    assert "2 of 3: village space 11, event." in english(second.message)
    third = t.press()
    assert "3 of 3: hills space 12, event." in english(third.message)
    assert "1 of 3" in english(t.press().message)  # round again
    t.press()
    t.press(long=True)  # take the one just named: v11
    assert t.state.positions["knight"] == "v11" and t.state.phase == "event"


def test_do_move_names_the_space():
    t = Table()
    t.roll(2)
    t.send(ManualAction({"action": "move", "to": "h12"}))
    assert t.state.positions["knight"] == "h12"


def test_event_card_tapped_and_key_piece_tapped():
    t = Table(positions={"knight": "h5"})
    t.roll(1)
    t.send(ManualAction({"action": "move", "to": "h6"}))  # fire mountain
    assert t.state.phase == "adventure"
    for _ in range(5):
        t.roll(8)
        t.press()  # take the roll as it stands
    assert t.state.phase == "key"
    t.refused("wrong-colour", PiecePlaced("table", "kttk/key/blue/1"))
    t.tap("kttk/key/red/4")
    assert t.state.keys["red/4"] == "knight"
    t.roll(2)  # wizard from v1 to v3/v11/h12
    t.send(ManualAction({"action": "move", "to": "v11"}))
    t.tap("kttk/event/32")
    assert 32 in t.state.discard


def test_demon_die_then_figure():
    t = Table(("knight", "wizard", "ranger"), positions={"knight": "v7"})
    t.roll(1)
    t.send(ManualAction({"action": "move", "to": "v8"}))
    assert t.state.phase == "demon-die"
    t.refused("tap-demon-die-first", PiecePlaced("table", "kttk/hero/wizard"))
    assert isinstance(t.tap("kttk/demon-die"), Pending)
    t.tap("kttk/hero/ranger")
    assert t.state.demon == "ranger"


def test_knife_waits_for_the_other_heros_item():
    t = Table(magic={"knight": ["kind-of-evil-knife"]})
    t.roll(3)
    assert isinstance(t.tap("kttk/magic/kind-of-evil-knife"), Pending)
    t.tap("kttk/item/wizard/sword")
    assert "wizard/sword" in t.state.exhausted("wizard") and t.state.roll.result == 5


def test_nap_by_holding_end_turn():
    t = Table(exhausted={"knight": ["sword", "axe"]})
    t.refused("roll-or-nap", ButtonPressed("end-turn"))
    t.press(long=True)
    assert t.state.available("knight") and not t.state.exhausted("knight")
    assert t.state.current == "wizard"


def test_nap_with_many_exhausted_items_chooses_by_taps():
    tired = ["sword", "axe", "bow", "boots", "rope", "lantern", "shield"]
    t = Table(exhausted={"knight": tired})
    assert isinstance(t.press(long=True), Pending)
    t.tap("kttk/item/knight/sword")
    t.tap("kttk/item/knight/axe")
    t.press()  # done choosing: two refreshed
    assert len(t.state.exhausted("knight")) == 5 and t.state.current == "wizard"


def test_physical_dice_refuse_the_roll_button_and_take_the_entered_roll():
    t = Table(options={"dice": "physical"})
    t.refused("enter-the-roll", ButtonPressed("roll"))
    t.send(ManualAction({"action": "roll", "value": 6}))
    assert t.state.roll.value == 6


def test_courtyard_hero_enters_the_castle_with_the_roll_button():
    t = Table(positions={"knight": "court1"})
    t.roll(8)
    assert t.state.phase == "roll" and t.state.roll.purpose == "castle"


def test_every_piece_of_the_set_is_understood():
    """docs/CONTRACTS.md's kttk/... piece ids: every one the set has reads as a Key to the
    Kingdom piece (an answer or a clear "not now"), never as an unknown piece."""
    from tabletap.controller.table.pieces import pieces_of

    ids = pieces_of("key-to-the-kingdom")
    assert len(ids) == 5 + 5 * 8 + 5 + 15 + 36 + 8 + 1 and len(set(ids)) == len(ids)
    t = Table(("knight", "wizard", "ranger", "rogue", "paladin"))
    for piece in ids:
        try:
            t.table.interpret(t.state, PiecePlaced("table", piece), 0.0)
        except Rejection as exc:
            assert exc.code != "unknown-piece", piece
        t.table._forget()


def test_a_half_made_gesture_times_out():
    t = Table(magic={"knight": ["kind-of-evil-knife"]})
    t.roll(3)
    assert isinstance(t.tap("kttk/magic/kind-of-evil-knife"), Pending)
    assert t.table.expire(5.0) is None
    timeout = t.table.expire(60.0)
    assert timeout is not None and timeout.code == "gesture-timeout"
    t.refused("not-yours", PiecePlaced("table", "kttk/item/wizard/sword"))  # a use of its own


def test_courtyard_hero_naps_choosing_items_by_taps():
    """'Instead of moving, you can take a heroic nap. Refresh up to five of your items.' A hero
    in the courtyard (thrown back from the castle with most items spent) naps like any other:
    the taps after holding end-turn choose the items, they do not enter the castle."""
    tired = ["sword", "axe", "bow", "boots", "rope", "lantern", "shield"]
    t = Table(positions={"knight": "court1"}, exhausted={"knight": tired})
    assert isinstance(t.press(long=True), Pending)
    t.tap("kttk/item/knight/sword")
    t.tap("kttk/item/knight/axe")
    t.press()
    assert len(t.state.exhausted("knight")) == 5 and t.state.current == "wizard"
    assert t.state.in_courtyard("knight")


def test_every_sentence_is_fit_to_be_spoken():
    """The play-by-play is also the voice: random games on the stand-in pack say no "item(s)",
    no "1 items", no "(decision)", no action class names, and companions by their names."""
    import random
    import re

    from tabletap.controller.spoken.words import spoken
    from tabletap.games.key_to_the_kingdom.rules.actions import Roll, TakeKey
    from tabletap.games.key_to_the_kingdom.rules.selfplay import purposeful_action

    said: list[str] = []
    for seed in range(4):
        rng = random.Random(seed)
        state = E.new_game(["knight", "wizard", "ranger"][: 2 + seed % 2], seed,
                           {"digital_events": True}, {"companions": {
                               "knight": ["wandering-bard"]}} if seed == 0 else {})
        for _ in range(3000):
            if E.is_over(state):
                break
            for stray in (TakeKey("red/1"), Roll(3)):
                try:
                    E.apply(state, stray)
                except Rejection as exc:
                    said.append(exc.message)
            out = E.apply(state, purposeful_action(state, rng))
            state = out.state
            said += [e.text for e in out.events]
    bad = re.compile(r"\(s\)|\b1 items?: tap them|\b1 items\b|\(decision\)|takekey"
                     r"|companion card \d|No \w+ beans is")
    assert not [s for s in said if bad.search(spoken(s))][:5]
    assert any("cannot be done now" in s for s in said)


def test_end_turn_before_an_adventure_roll_says_what_is_awaited():
    """'You keep rolling and advancing until you either fail or reach the end.' end-turn pressed
    at a step not rolled yet is refused with what the game waits for, never silently dropped."""
    t = Table(positions={"knight": "h5"})
    t.roll(1)
    t.send(ManualAction({"action": "move", "to": "h6"}))
    assert t.state.phase == "adventure"
    refusal = t.refused("not-now", ButtonPressed("end-turn"))
    assert "rolls for the next step" in refusal.message


def test_a_shortcut_tap_must_be_the_item_or_companion_shown():
    """'If the next space on the board shows an item that you have available, you may enter
    that space without rolling!' Every tap is checked: on Fire Mountain's third step (the
    boots) the knight's sword, the wizard's boots or exhausted boots do not let the knight in;
    the knight's own boots do. On the second step (the novice knight) only that companion."""
    t = Table(positions={"knight": "h5"}, companions={"knight": ["novice-knight", "gnome"]},
              exhausted={"knight": ["bow"]})
    t.roll(1)
    t.send(ManualAction({"action": "move", "to": "h6"}))
    t.roll(8)
    t.press()  # step 1 taken: step 2 shows the novice knight
    gnome, novice = (t.state.pack.companions[n] for n in ("gnome", "novice-knight"))
    assert "novice knight" in t.refused("no-shortcut",
                                        PiecePlaced("table", f"kttk/event/{gnome}")).message
    t.refused("no-shortcut", PiecePlaced("table", "kttk/item/knight/sword"))
    t.tap(f"kttk/event/{novice}")
    assert t.state.ask.step == 2  # step 3 shows the boots
    t.refused("no-shortcut", PiecePlaced("table", "kttk/item/knight/sword"))
    t.refused("not-yours", PiecePlaced("table", "kttk/item/wizard/boots"))
    t.refused("exhausted", PiecePlaced("table", "kttk/item/knight/bow"))
    t.tap("kttk/item/knight/boots")
    assert t.state.ask.step == 3 and "knight/boots" in t.state.available("knight")


def test_in_the_courtyard_only_the_first_tokens_item_enters_the_castle_at_once():
    """Every tap is checked: in the courtyard an item tap enters the castle only if it is the
    hero's available item shown on the first token met (the gate troll shows the sword)."""
    order = [["gate-troll", "iron-portcullis", "bat-swarm"],
             ["shadow-hound", "skeleton-guard", "fire-trap"],
             ["demon-king-scorn", "demon-king-wrath", "demon-king-fury"]]
    t = Table(positions={"knight": "court1"}, castle=order)
    t.refused("no-shortcut", PiecePlaced("table", "kttk/item/knight/axe"))
    t.refused("no-shortcut", PiecePlaced("table", "kttk/item/wizard/sword"))
    t.tap("kttk/item/knight/sword")
    assert t.state.phase == "castle" and t.state.castle[0] == ("iron-portcullis", "bat-swarm")


def test_the_voice_says_a_space_by_its_land_not_its_id():
    """Issue 11 and 20: "the voice and lights name each choice": a landing choice or a move
    said as "v eleven" names nothing a child can find on the board, so every sentence says the
    land and the space's place in it (rules/named.space), in every language."""
    from tabletap.controller.language.words import Words
    from tabletap.games.key_to_the_kingdom.rules import named

    t = Table()
    assert english(named.space(t.state.pack, "h6")) == "hills space 6"
    assert english(named.space(t.state.pack, "court3")) == "courtyard space 3"
    assert Words("de")(named.space(t.state.pack, "v11")) != "village space 11"
    t.roll(2)
    first = english(t.press().message)
    assert "village space 3" in first and "v3" not in first.split()
