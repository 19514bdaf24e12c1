"""Key to the Kingdom rules, each test citing the rulebook sentence it checks.

Games are built on the stand-in pack with `setup:` overrides (positions, keys, items) so a test
starts right where the rule applies; dice are given (`Roll(value)`), as the table enters them.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tabletap.controller.rules.base import Rejection
from tabletap.games.key_to_the_kingdom.rules import ENGINE as E
from tabletap.games.key_to_the_kingdom.rules.actions import (
    Assign,
    Castle,
    Courtyard,
    Draw,
    Exhaust,
    Move,
    Nap,
    Refresh,
    Resolve,
    Roll,
    Shortcut,
    Steal,
    Sweep,
    TakeKey,
    TakeMagic,
    Use,
)
from tabletap.games.key_to_the_kingdom.rules.state import (
    ChallengeAsk,
    GotoTask,
    KttkState,
    Phase,
    ask_from_json,
    task_from_json,
    task_to_json,
)


def game(players: list[str] | None = None, options: dict | None = None, **setup) -> KttkState:
    setup.setdefault("first", (players or ["knight", "wizard"])[0])
    return E.new_game(players or ["knight", "wizard"], 1, options or {}, setup)


def play(state: KttkState, *actions) -> KttkState:
    for action in actions:
        state = E.apply(state, action).state
    return state


def refused(state: KttkState, action, code: str) -> Rejection:
    with pytest.raises(Rejection) as info:
        E.apply(state, action)
    assert info.value.code == code, info.value.message
    return info.value


# -- set-up -------------------------------------------------------------------------------------


def test_set_up_for_two_to_five_heroes_with_eight_items_each():
    """'Each player chooses a hero and takes the matching figure, die, card, and set of eight
    item tokens. Place your figure on the starting space'"""
    for n in (2, 3, 4, 5):
        heroes = ["knight", "wizard", "ranger", "rogue", "paladin"][:n]
        s = E.new_game(heroes, 0, {}, {})
        assert all(len(s.available(h)) == 8 and s.positions[h] == "v1" for h in heroes)
        assert s.demon is None  # "Place the Demon die on the throne."
        assert all(owner is None for i, (owner, _) in s.items.items() if i.startswith("magic/"))
    for bad in (["knight"], ["knight", "wizard", "ranger", "rogue", "paladin", "knight"],
                ["knight", "knight"], ["knight", "gandalf"]):
        with pytest.raises(Rejection) as info:
            E.new_game(bad, 0, {}, {})
        assert info.value.code == "bad-setup"


def test_set_up_shuffles_the_deck_and_the_tokens_and_piles_the_key_pieces():
    """'Shuffle the event cards and place them face down in a deck next to the board.' 'Place
    the key pieces in piles next to the board.' 'Shuffle the Demon King board tokens for each
    section and randomly place them face down in their respective spaces'"""
    games = [E.new_game(["knight", "wizard"], seed, {"digital_events": True}, {})
             for seed in range(6)]
    for s in games:
        assert sorted(s.deck) == list(range(1, 37)) and s.discard == ()
        assert all(who is None for who in s.keys.values())
        assert {c: sum(k.startswith(c + "/") for k in s.keys) for c in ("red", "green", "blue")
                } == {"red": 5, "green": 5, "blue": 5}
        for section, (_, tokens) in zip(s.castle, s.pack.sections, strict=True):
            assert sorted(section) == sorted(t.name for t in tokens)  # each in its own section
        assert s.revealed == ()  # face down
    assert len({s.deck for s in games}) > 1 and len({s.castle for s in games}) > 1


def test_minor_adventures_move_the_demon_die_and_refresh_items():
    """'Minor adventures allow you to flip the board, move the Demon die, refresh or exhaust
    items, steal an item, and even enter the Demon King's domain!' (the flip, the exhausting,
    the stealing and the domain are tested above and below)"""
    s = play(game(positions={"knight": "h9"}), Roll(1), Move("h10"), Roll(5), Resolve())
    assert s.phase == "demon-die"  # the demon shrine
    s = play(s, Assign("knight"))
    assert s.demon == "knight" and s.positions["knight"] == "h9"
    s = play(game(positions={"knight": "m2"}, exhausted={"knight": ["sword", "axe"]}),
             Roll(1), Move("m3"), Roll(6), Resolve())  # the fairy ring: refresh 4
    assert s.exhausted("knight") == [] and s.positions["knight"] == "m4"


def test_a_scenario_cannot_set_a_hero_on_a_folded_land():
    """'The board can be Closed, showing the starting lands, or Open (unfolded), revealing
    hidden lands beneath': a figure stands only on a land that shows."""
    with pytest.raises(Rejection) as info:
        E.new_game(["knight", "wizard"], 0, {}, {"positions": {"knight": "s2"}})
    assert info.value.code == "bad-setup" and "marsh is folded away" in info.value.message
    s = E.new_game(["knight", "wizard"], 0, {}, {"positions": {"knight": "s2"},
                                                 "flaps": {"west": "open"}})
    assert s.positions["knight"] == "s2"


def test_highest_first_roll_goes_first_and_ties_roll_again():
    """'Each player rolls their die. The player with the highest roll takes the first turn.'
    Ties for the highest roll roll again among themselves (decision)."""
    s = E.new_game(["knight", "wizard", "ranger"], 0, {}, {})
    assert s.phase == "first-roll"
    s = play(s, Roll(7), Roll(7), Roll(2))
    assert s.phase == "first-roll" and s.first_due == ("knight", "wizard")
    s = play(s, Roll(3), Roll(5))
    assert s.phase == "turn" and s.current == "wizard"
    refused(E.new_game(["knight", "wizard"], 0, {}, {}), Roll(9), "not-a-face")


def test_physical_dice_are_entered_digital_dice_are_drawn():
    """'Roll your hero die. If you have the Demon die, roll that instead.' With physical dice
    the table enters the face; the roll button (no value) is refused."""
    s = game(options={"dice": "physical"})
    refused(s, Roll(), "enter-the-roll")
    assert {a.value for a in E.legal_actions(s) if isinstance(a, Roll)} == set(range(1, 9))
    drawn = E.apply(game(), Roll())
    assert drawn.action.value in range(1, 9)  # the journal keeps the drawn face


# -- rolls and items ---------------------------------------------------------------------------


def test_one_item_changes_a_roll_by_its_exact_value_and_is_exhausted():
    """'Exhaust the item you want to use and modify your result by adding or subtracting the
    exact number on the item.' 'you may not use more than one item to modify a single roll'"""
    s = play(game(), Roll(5), Use("knight/sword"))
    assert s.roll.result == 9 and "knight/sword" in s.exhausted("knight")
    s2 = play(s, Use("knight/sword", -1))  # a second tap changes the sign only
    assert s2.roll.result == 1
    refused(s, Use("knight/axe"), "one-item")
    refused(s, Use("wizard/axe"), "not-yours")
    tired = play(game(exhausted={"knight": ["sword"]}), Roll(5))
    refused(tired, Use("knight/sword"), "exhausted")


def test_result_below_zero_counts_as_zero_and_has_no_cap():
    """'The result can be as high as you like. If you modify your result below 0, it is
    treated as a 0.' A result of 0 activates the space you are on."""
    s = play(game(magic={"knight": ["bee-cannon"]}), Roll(2), Use("magic/bee-cannon", -1))
    assert s.roll.result == 0 and E.destinations(s) == ["v1"]
    s = play(game(magic={"knight": ["bee-cannon"]}), Roll(8), Use("magic/bee-cannon"))
    assert s.roll.result == 13


def test_sticky_stick_joins_another_item():
    """'Sticky Stick (+/-2) - You can exhaust this in addition to another item on the same
    roll.'"""
    s = play(game(magic={"knight": ["sticky-stick"]}), Roll(1), Use("knight/sword"),
             Use("magic/sticky-stick"))
    assert s.roll.result == 7
    refused(s, Use("knight/axe"), "one-item")


def test_mood_ring_one_or_two():
    """'Mood Ring (+/-1 or 2)'"""
    s = play(game(magic={"knight": ["mood-ring"]}), Roll(4), Use("magic/mood-ring", -1, 1))
    assert s.roll.result == 3
    refused(play(game(magic={"knight": ["mood-ring"]}), Roll(4)),
            Use("magic/mood-ring", 1, 3), "bad-amount")


def test_knife_exhausts_another_heros_item():
    """'Kind of Evil Knife (+/-2) - When you exhaust this, also exhaust another hero's item.'"""
    s = play(game(magic={"knight": ["kind-of-evil-knife"]}), Roll(4))
    refused(s, Use("magic/kind-of-evil-knife"), "needs-target")
    refused(s, Use("magic/kind-of-evil-knife", target="knight/axe"), "bad-target")
    s = play(s, Use("magic/kind-of-evil-knife", target="wizard/sword"))
    assert "wizard/sword" in s.exhausted("wizard") and s.roll.result == 6


def test_coffee_beans_refresh_another_item():
    """'Magic Coffee Beans (+/-2) - When you exhaust this, refresh one of your other items.'"""
    s = play(game(magic={"knight": ["coffee-beans"]}, exhausted={"knight": ["bow"]}), Roll(4))
    refused(s, Use("magic/coffee-beans"), "needs-target")
    s = play(s, Use("magic/coffee-beans", refresh="knight/bow"))
    assert "knight/bow" in s.available("knight") and "magic/coffee-beans" in s.exhausted("knight")


def test_companion_bonus_on_top_of_an_item():
    """'Other cards, like companions, might allow you to further adjust your result.'"""
    s = game(companions={"knight": ["wandering-bard"]})
    n = s.pack.companions["wandering-bard"]
    s = play(s, Roll(3), Use("knight/sword"), Use(f"event/{n}"))
    assert s.roll.result == 8


# -- moving -------------------------------------------------------------------------------------


def test_move_exact_count_any_direction_no_backtracking():
    """'Move your figure the exact number of spaces as your result ... You can choose any
    direction when you start moving, but you may not backtrack once you start.'"""
    s = play(game(), Roll(2))
    assert E.destinations(s) == ["v3", "v11", "h12"]
    refused(s, Move("v2"), "cannot-reach")
    s = play(s, Move("v11"))
    assert s.positions["knight"] == "v11"


def test_occupied_spaces_are_skipped():
    """'Only count open spaces (those without other figures), skipping over spaces with other
    figures.'"""
    s = play(game(positions={"wizard": "v2"}), Roll(2))
    assert "v4" in E.destinations(s) and "v3" not in E.destinations(s)


def test_adventure_and_whirlpool_stop_without_exact_count():
    """'Whenever you enter an adventure's starting space, immediately stop moving ... You do
    not need to land by exact count.' Same for whirlpools."""
    s = play(game(positions={"knight": "v5"}), Roll(6))
    assert "v7" in E.destinations(s)  # the old well stops the move two spaces on
    s = play(game(positions={"knight": "m3"}), Roll(5))
    assert "m5" in E.destinations(s)


def test_an_occupied_whirlpool_is_skipped_not_entered():
    """'Only count open spaces (those without other figures), skipping over spaces with other
    figures.' Decision: a whirlpool with a figure on it is skipped like any other, so it does
    not stop the move."""
    s = play(game(positions={"knight": "m4", "wizard": "m5"}), Roll(1))
    assert E.destinations(s) == ["m3", "m6"]
    s = play(s, Move("m6"))
    assert s.flaps["west"] == "closed" and s.phase == "magic"  # the genie, no flip


def test_key_adventure_of_a_held_colour_does_not_stop():
    """'You may not start a key adventure if you already have a key piece of that color.'"""
    s = play(game(positions={"knight": "h4"}, keys={"knight": ["red"]}), Roll(3))
    assert "h6" not in E.destinations(s) and "h7" in E.destinations(s)


def test_voids_cannot_be_moved_onto():
    """'Otherwise, you cannot normally move onto a void space.'"""
    s = play(game(positions={"knight": "s3"}, flaps={"west": "open"}), Roll(1))
    assert E.destinations(s) == ["s2", "s5"]  # s4 is a void, skipped; s5 the whirlpool


def test_heroic_nap_refreshes_up_to_five():
    """'Refresh up to five of your items (including magic items) and then end your turn.'"""
    tired = ["sword", "axe", "bow", "boots", "rope", "lantern"]
    s = game(exhausted={"knight": tired})
    refused(s, Nap(tuple(f"knight/{i}" for i in tired)), "too-many")
    s = play(s, Nap(tuple(f"knight/{i}" for i in tired[:5])))
    assert s.exhausted("knight") == ["knight/lantern"] and s.current == "wizard"


# -- spaces -------------------------------------------------------------------------------------


def test_refresh_space_refreshes_up_to_its_number():
    """'REFRESH: Refresh up to the number of items shown.'"""
    s = play(game(positions={"knight": "v2"}, exhausted={"knight": ["sword", "axe", "bow"]}),
             Roll(1), Move("v3"))
    assert s.phase == "refresh" and s.ask.count == 2
    refused(s, Refresh(("knight/sword", "knight/axe", "knight/bow")), "too-many")
    s = play(s, Refresh(("knight/sword", "knight/axe")))
    assert s.exhausted("knight") == ["knight/bow"] and s.current == "wizard"


def test_event_space_draws_and_reshuffles_an_empty_deck():
    """'EVENT: Draw the top card of the event deck and follow its instructions. (If the event
    deck is empty, first shuffle the discard pile.)'"""
    s = play(game(positions={"knight": "v4"}), Roll(1), Move("v5"))
    assert s.phase == "event"
    refused(s, Draw(None), "tap-the-card")
    refused(s, Draw(99), "unknown-card")
    s2 = play(s, Draw(32))  # the lost traveller: nothing happens
    assert 32 in s2.discard and s2.current == "wizard"
    refused(replace(s, deck=s2.deck, discard=s2.discard), Draw(32), "not-in-deck")
    empty = E.new_game(["knight", "wizard"], 1, {"digital_events": True},
                       {"first": "knight", "positions": {"knight": "v4"}})
    empty = replace(empty, deck=(), discard=(32,))
    s3 = play(empty, Roll(1), Move("v5"))
    assert s3.discard == (32,) and s3.deck == ()


def test_companion_card_is_kept_and_opens_its_adventure_space():
    """'If the next space on the board shows a companion that you have, you may enter that
    space instead of rolling!'"""
    s = play(game(positions={"knight": "v4"}), Roll(1), Move("v5"), Draw(1))
    assert s.companions["knight"] == (1,)


def test_demon_die_space_assigns_it_and_its_holder_rolls_it():
    """'DEMON DIE: You must assign the Demon die to a hero who does not currently have it (this
    can be yourself). ... Whenever a hero has the Demon die, they must use it for all of their
    die rolls.'"""
    s = play(game(positions={"knight": "v7"}), Roll(1), Move("v8"))
    assert s.phase == "demon-die"
    s = play(s, Assign("wizard"))
    assert s.demon == "wizard"
    refused(s, Roll(3), "not-a-face")  # the Demon die has no 3 in the stand-in pack
    s = play(s, Roll(12))
    assert s.roll.die == "demon"
    s2 = play(game(["knight", "wizard", "ranger"], demon="wizard", positions={"knight": "v7"}),
              Roll(1), Move("v8"))
    refused(s2, Assign("wizard"), "already-has-demon-die")
    assert play(s2, Assign("knight")).demon == "knight"
    # with two heroes only one can receive it: it goes there at once
    s3 = play(game(demon="wizard", positions={"knight": "v7"}), Roll(1), Move("v8"))
    assert s3.demon == "knight" and s3.current == "wizard"


def test_genie_gives_a_magic_item():
    """'You get a magic item by visiting the genie in one of the lands'"""
    s = play(game(positions={"knight": "m5"}), Roll(1), Move("m6"))
    assert s.phase == "magic"
    s = play(s, TakeMagic("bee-cannon"))
    assert s.items["magic/bee-cannon"] == ("knight", False)


def test_boring_space_does_nothing():
    """'BORING: Spaces with no symbols on them have no effect. Really. Nothing happens.'"""
    s0 = game(positions={"knight": "v1"})
    s = play(s0, Roll(1), Move("v2"))
    assert s.items == s0.items and s.current == "wizard"


# -- whirlpools and flips -------------------------------------------------------------------------


def test_whirlpool_flips_the_land_and_sends_heroes_to_voids():
    """'A whirlpool will typically flip the land you are in by folding or unfolding the board.'
    'Heroes affected when a land flips place their figure on a void space.'"""
    s = game(["knight", "wizard", "ranger"], positions={"knight": "m4", "wizard": "m1",
                                                        "ranger": "m7"})
    s = play(s, Roll(1), Move("m5"))
    assert s.flaps["west"] == "open"
    assert s.positions["knight"] == "s5"  # out through the whirlpool
    assert {s.positions["wizard"], s.positions["ranger"]} == {"s4", "s6"}


def test_no_free_void_goes_to_the_first_free_space():
    """Decision (the rulebook is silent): with no free void, a hero whose land folds away goes
    to the first free space of the land now showing."""
    s = game(["knight", "wizard", "ranger", "rogue"],
             positions={"knight": "m4", "wizard": "m1", "ranger": "m7", "rogue": "m2"})
    s = play(s, Roll(1), Move("m5"))
    assert sorted(s.positions[h] for h in ("wizard", "ranger", "rogue")) == ["s1", "s4", "s6"]


# -- adventures ---------------------------------------------------------------------------------


def test_key_adventure_one_step_per_success_then_the_key():
    """'You only move forward one space for each success on a key adventure.' 'You complete a
    key adventure when your figure reaches the end space ... Take the piece from the supply
    that matches the color of the adventure.'"""
    s = play(game(positions={"knight": "h5"}), Roll(1), Move("h6"))
    assert s.phase == "adventure" and s.ask.step == 0
    for _ in range(5):
        s = play(s, Roll(8), Resolve())
    assert s.phase == "key"
    # the typed ask and task go out as the dicts the journal and the page have always read
    assert E.public_view(s)["ask"] == {"hero": "knight", "colour": "red"}
    assert E.state_to_json(s)["todo"] == [{"t": "goto", "hero": "knight", "space": "h7"}]
    refused(s, TakeKey("blue/1"), "wrong-colour")
    s = play(s, TakeKey("red/2"))
    assert s.key_colours("knight") == {"red"} and s.positions["knight"] == "h7"


def test_key_adventure_failure_leaves_as_the_atlas_says():
    """'At the end of every adventure, whether you succeed or fail, you will leave the
    adventure. The adventure description will tell you where to move. If you move on a space
    where you can do something ... immediately do so!'"""
    s = play(game(positions={"knight": "h5"}), Roll(1), Move("h6"), Roll(1), Resolve())
    assert s.positions["knight"] == "h5" and s.phase == "demon-die"


def test_no_stopping_midway():
    """'You may not stop in the middle of a key adventure!'"""
    s = play(game(positions={"knight": "h5"}), Roll(1), Move("h6"))
    refused(s, Nap(()), "not-now")


def test_item_and_companion_shortcuts():
    """'If the next space on the board shows an item that you have available, you may enter
    that space without rolling! (You do not need to exhaust that item.)'"""
    s = play(game(positions={"knight": "h5"}, companions={"knight": ["novice-knight"]}),
             Roll(1), Move("h6"))
    refused(s, Shortcut(), "no-shortcut")
    s = play(s, Roll(8), Resolve(), Shortcut(), Shortcut())  # companion, then the boots
    assert s.ask.step == 3 and "knight/boots" in s.available("knight")


def test_knight_power_adds_to_adventure_rolls():
    s = play(game(positions={"knight": "h5"}), Roll(1), Move("h6"), Roll(2))
    assert s.roll.result == 3


def test_minor_adventure_one_roll_then_leave():
    """'Minor adventures only have one step.'"""
    s = play(game(positions={"knight": "v6"}), Roll(1), Move("v7"))
    assert s.phase == "challenge"
    s = play(s, Roll(6), Resolve())  # old well: flips the west board, then leave to v8
    assert s.flaps["west"] == "open" and s.positions["knight"] == "v8"
    assert s.phase == "demon-die"


def test_minor_adventure_steal():
    """'Minor adventures allow you to ... steal an item'"""
    s = play(game(positions={"knight": "h1"}), Roll(1), Move("h2"), Roll(8), Resolve())
    assert s.phase == "steal"
    s = play(s, Steal("wizard/sword"))
    assert s.items["wizard/sword"] == ("knight", False)


def test_minor_adventure_exhaust():
    s = play(game(positions={"knight": "m2"}), Roll(1), Move("m3"), Roll(1), Resolve())
    assert s.phase == "exhaust"
    refused(s, Exhaust(()), "exhaust-count")
    s = play(s, Exhaust(("knight/cloak",)))
    assert s.exhausted("knight") == ["knight/cloak"]


def test_domain_adventure_needs_the_whole_key():
    """Minor adventures '... and even enter the Demon King's domain!'"""
    s = play(game(positions={"knight": "c7"}, flaps={"east": "open"},
                  keys={"knight": ["red", "green", "blue"]}), Roll(1), Move("c8"), Roll(8),
             Resolve())
    assert s.phase == "courtyard"
    s = play(s, Courtyard("court2"))
    assert s.positions["knight"] == "court2" and s.current == "wizard"


# -- the whole key, the courtyard, the castle ---------------------------------------------------


def test_whole_key_whirlpool_leads_to_the_courtyard_and_ends_the_turn():
    """'The next time you enter a whirlpool space ..., instead of flipping the board, place your
    figure on any open space in the courtyard ..., activate that space, and end your turn.'"""
    s = play(game(positions={"knight": "m4"}, keys={"knight": ["red", "green", "blue"]},
                  exhausted={"knight": ["sword"]}), Roll(1), Move("m5"), Courtyard("court1"))
    assert s.flaps["west"] == "closed" and s.positions["knight"] == "court1"
    assert "knight/sword" in s.available("knight") and s.current == "wizard"


def test_courtyard_on_another_heros_turn():
    """'(even on someone else's turn)': the rapids sweep another hero into a whirlpool."""
    s = play(game(["knight", "wizard"], positions={"knight": "h10"},
                  keys={"wizard": ["red", "green", "blue"]}), Roll(1), Move("h11"), Roll(8),
             Resolve())
    assert s.phase == "sweep"
    s = play(s, Sweep("wizard"))
    assert s.phase == "courtyard" and s.ask.hero == "wizard"
    s = play(s, Courtyard("court3"))
    assert s.positions["wizard"] == "court3" and s.positions["knight"] == "h12"


def test_castle_adventure_wins_the_game():
    """'If you complete the Demon King's Domain adventure by defeating the Demon King, you win
    the game!'"""
    order = [["bat-swarm", "gate-troll", "iron-portcullis"],
             ["shadow-hound", "skeleton-guard", "fire-trap"],
             ["demon-king-scorn", "demon-king-wrath", "demon-king-fury"]]
    s = game(positions={"knight": "court1"}, castle=order)
    refused(s, Roll(5), "in-courtyard")
    s = play(s, Castle(), Roll(8), Resolve(), Roll(1), Resolve())
    assert s.current == "wizard" and s.castle[0] == ("gate-troll", "iron-portcullis")
    s = play(s, Nap(()), Castle(), Shortcut(), Roll(8), Resolve())  # the sword passes the troll
    assert s.phase == "castle"
    s = play(s, Roll(8), Resolve())
    assert s.winner == "knight" and E.winners(s) == ["knight"]
    refused(s, Roll(3), "game-over")


def test_rejections_leave_the_state_untouched():
    s = play(game(), Roll(5), Use("knight/sword"))
    before = E.state_to_json(s)
    for bad in (Use("knight/axe"), Move("h12"), Resolve(), Draw(3)):
        with pytest.raises(Rejection):
            E.apply(s, bad)
    assert E.state_to_json(s) == before


def test_empty_key_pile_completes_without_a_piece():
    """Decision: with no piece of the colour left, the adventure completes and the hero is
    told there is none (impossible with 5 pieces a colour and at most 5 heroes)."""
    s = game(positions={"knight": "h5"})
    s = replace(s, keys={k: ("wizard" if k.startswith("red/") else None) for k in s.keys})
    s = play(s, Roll(1), Move("h6"))
    for _ in range(5):
        s = play(s, Roll(8), Resolve())
    assert s.key_colours("knight") == set() and s.positions["knight"] == "h7"
    assert s.current == "wizard"


def test_exhaust_others_takes_each_other_heros_lowest_item():
    """Minor adventures '... refresh or exhaust items': the bog witch makes every other hero
    exhaust an item, their lowest-valued first (decision: nobody else is asked mid-turn)."""
    s = play(game(["knight", "wizard", "ranger"], positions={"knight": "s2"},
                  flaps={"west": "open"}), Roll(1), Move("s3"), Roll(8), Resolve())
    assert s.exhausted("wizard") == ["wizard/shield"] and s.exhausted("ranger") == [
        "ranger/shield"] and s.exhausted("knight") == []


def test_domain_without_the_whole_key_does_nothing():
    s = play(game(positions={"knight": "c7"}, flaps={"east": "open"}, keys={"knight": ["red"]}),
             Roll(1), Move("c8"), Roll(8), Resolve())
    assert not s.in_courtyard("knight") and s.positions["knight"] == "h9"


def test_one_companion_per_roll():
    s = game(companions={"knight": ["wandering-bard", "loyal-hound"]})
    bard, hound = s.pack.companions["wandering-bard"], s.pack.companions["loyal-hound"]
    s = play(s, Roll(3), Use(f"event/{bard}"))
    refused(s, Use(f"event/{hound}"), "one-companion")
    refused(s, Use("event/1"), "not-yours")


def test_a_result_of_zero_activates_the_space_the_hero_is_on():
    """'If your result was 0, do not move and activate the space you are on.' The Demon die's
    0 on a refresh space refreshes again; the family is told so."""
    s = game(positions={"knight": "v10"}, demon="knight", exhausted={"knight": ["sword"]})
    out = E.apply(s, Roll(0))
    assert E.destinations(out.state) == ["v10"]
    assert any("stays on village space 10, which takes effect" in e.text for e in out.events)
    s = play(out.state, Move("v10"))
    assert s.exhausted("knight") == [] and s.positions["knight"] == "v10"
    # 1 minus the cloak is 0 too: an item may bring the result to 0
    s = play(game(positions={"knight": "v10"}, exhausted={"knight": ["sword"]}), Roll(1),
             Use("knight/cloak", -1))
    assert E.destinations(s) == ["v10"]


def test_every_roll_tells_the_family_what_it_meets_and_which_button_takes_it():
    """'You keep rolling and advancing until you either fail or reach the end.' After each
    adventure roll the voice says the result against the step's target and how to take it."""
    s = play(game(positions={"knight": "h5"}), Roll(1), Move("h6"))
    out = E.apply(s, Roll(2))  # 2 and the knight's power 1, against the first step's 3
    assert any(e.text == "3 against 3: press end-turn to take it, or tap an item to change "
               "it." for e in out.events)
    out = E.apply(game(), Roll(6))
    assert any("Press end-turn to hear each one, hold it to go." in e.text
               for e in out.events)


# -- the state's typed values -------------------------------------------------------------------


def test_phases_asks_and_tasks_are_typed_and_keep_their_json_forms():
    """A misspelt phase, ask field or task kind fails where it is written; the JSON forms are
    the strings and dicts of before, key for key and in order (journals, the page read them)."""
    with pytest.raises(AttributeError):
        Phase.TRUN  # noqa: B018
    with pytest.raises(ValueError):
        Phase("trun")
    assert Phase.DEMON_DIE == "demon-die"
    effect = ChallengeAsk("knight", "wolves", 5, ({"refresh": 1},), ())
    assert effect.to_json() == {"hero": "knight", "source": "wolves", "target": 5,
                                "success": [{"refresh": 1}], "fail": []}
    minor = replace(effect, leave_success="", leave_fail="h3")  # a minor adventure leaves
    assert list(minor.to_json(effects=False)) == ["hero", "source", "target", "leave_success",
                                                  "leave_fail"]
    assert ask_from_json(minor.to_json()) == minor and ask_from_json({}) is None
    with pytest.raises(TypeError):
        ask_from_json({"hero": "knight", "colour": "red", "colur": "red"})
    goto = GotoTask("knight", "h7")
    assert task_to_json(goto) == {"t": "goto", "hero": "knight", "space": "h7"}
    assert task_from_json(task_to_json(goto)) == goto
    with pytest.raises(KeyError):
        task_from_json({"t": "activate", "hero": "knight", "space": "h7"})
    with pytest.raises(TypeError):
        GotoTask("knight", spcae="h7")  # type: ignore[call-arg]
