"""Oversiege rules, one test per rule (rulebook "Official Rules, last updated 12.16.2020"), plus
the decisions written in docs/games/oversiege.md. Each test names the rulebook section it checks.
"""

from __future__ import annotations

import pytest

from tabletap.controller.rules import engine_for
from tabletap.controller.rules.base import Rejection
from tabletap.games.oversiege.rules.state import draw_count
from tests.rules.oversiege_helpers import (
    E,
    armed,
    card,
    end_turn,
    game,
    outcome,
    play,
    refused,
    with_hand,
)

ALL_TOWERS = ["tower/1", "tower/2", "tower/3", "tower/4"]


def total_cards(state, player: str) -> int:
    side = state.sides[player]
    return side.hand + side.deck + len(side.discard) + len(side.in_play())


# -- set up and turns --------------------------------------------------------------------------

def test_registry_finds_the_engine():
    assert engine_for("oversiege") is E


def test_start_with_two_cards_then_draw_from_blue_icons():
    """TURNS: "Draw two cards to start" and "On each turn, draw the number of cards specified by
    the full and half blue icons on your castle" (placeholder: intact castle draws 3)."""
    s = game()
    assert s.current == "red"
    assert s.sides["red"].hand == 2 + 3 and s.drawn == 3
    assert s.sides["blue"].hand == 2
    assert total_cards(s, "red") == total_cards(s, "blue") == E.cards.deck_size


def test_draw_count_follows_the_castle():
    """TURNS: blue icons; placeholder data: towers a half icon, entrance a full, halves round
    down, destroyed sides none."""
    s = game(setup={"destroyed": {"blue": ["tower/1"]}})
    assert draw_count(s.sides["blue"], E.cards) == 2
    s = game(setup={"destroyed": {"blue": ["tower/1", "tower/2", "tower/3"]}})
    assert draw_count(s.sides["blue"], E.cards) == 1
    s = game(setup={"destroyed": {"blue": [*ALL_TOWERS, "entrance"]}})
    assert draw_count(s.sides["blue"], E.cards) == 0  # no blue icon left: no card


def test_a_castle_all_down_draws_what_it_shows_nothing():
    """TURNS: "On each turn, draw the number of cards specified by the full and half blue icons
    on your castle." With the placeholder icons an all-down castle shows none, so its owner
    draws 0 (cards.yaml `draw.minimum` defaults to 0: the rulebook sets no minimum)."""
    s = game(("red", "blue"), setup={"destroyed": {"blue": [*ALL_TOWERS, "entrance"]}})
    s = end_turn(s)
    assert s.current == "blue" and s.drawn == 0 and s.sides["blue"].hand == 2
    assert E.cards.min_draw == 0 and E.cards.status["draw.minimum"] == "confirmed"


def test_draw_minimum_stays_a_makers_option():
    """cards.yaml `draw.minimum`: a copy whose destroyed sides print blue icons may set how
    many cards an all-down castle gives; the engine draws that many."""
    from tabletap.games.oversiege.rules.data import parse_cards
    from tabletap.games.oversiege.rules.engine import OversiegeEngine
    from tests.rules.test_oversiege_data import TEXT

    old = "minimum: {status: confirmed, cards: 0}"
    assert old in TEXT
    maker = OversiegeEngine(parse_cards(TEXT.replace(old, old.replace("0}", "1}"))))
    s = maker.new_game(["blue", "red"], 0, {}, {"destroyed": {"blue": [*ALL_TOWERS, "entrance"]}})
    assert s.drawn == 1 and s.sides["blue"].hand == 3


def test_key_kept_at_the_end_of_a_turn_is_played_on_the_following_turn_whatever_was_drawn():
    """TURNS: "If you end your turn with two cards and one of them is the key (and you are
    ready to open the chamber) you must wait till your following turn to open the chamber."
    KEY: "Play the key from your hand to open the chamber and win the game." Blue's castle is
    all down, so blue draws nothing: the two cards in hand are the two kept at the end of the
    last turn, and on this, the following turn, the key among them opens a ready chamber."""
    s = game(("red", "blue"), setup={"destroyed": {"blue": [*ALL_TOWERS, "entrance"],
                                                    "red": [*ALL_TOWERS, "entrance"]}})
    s = end_turn(s)  # red keeps two; blue draws 0 and holds two, one of them the key
    assert s.current == "blue" and s.drawn == 0 and s.sides["blue"].hand == 2
    out = outcome(s, action="key", card=card("blue", "key/1"), target=card("red", "chamber"))
    assert [e.kind for e in out.events] == ["chest-open", "win"]
    assert E.winners(out.state) == ["blue"]


def test_in_group_play_the_kept_key_does_not_shrink_the_hand():
    """KEY: "In group play, the key may remain in your hand after use": played from the two
    kept cards on the following turn, it leaves the hand at two, and the turn can end."""
    down = [*ALL_TOWERS, "entrance"]
    s = game(("red", "blue", "green"),
             setup={"first": "blue", "destroyed": {"blue": down, "red": down, "green": down}})
    assert s.current == "blue" and s.drawn == 0 and s.sides["blue"].hand == 2
    s = play(s, action="key", card=card("blue", "key/1"), target=card("red", "chamber"))
    assert s.sides["red"].chamber_open and s.sides["blue"].hand == 2 and not E.is_over(s)
    s = play(s, action="key", card=card("blue", "key/1"), target=card("green", "chamber"))
    assert E.winners(s) == ["blue"]


def test_the_kept_key_is_still_a_card_that_cannot_be_discarded_below_two():
    """TURNS: "You must ALWAYS end your turn with two cards in your hand": with nothing drawn
    the key may be played (it stays in hand), never discarded."""
    s = game(("blue", "red"), setup={"destroyed": {"blue": [*ALL_TOWERS, "entrance"]}})
    assert s.drawn == 0
    refused(s, "keep-two", action="discard", card=card("blue", "key/1"))
    refused(s, "keep-two", action="discard", card=card("blue", "stone/1"))


def test_key_kept_at_the_end_of_a_turn_waits_for_the_following_turn():
    """TURNS: "If you end your turn with two cards and one of them is the key (and you are
    ready to open the chamber) you must wait till your following turn to open the chamber."
    Red drew this turn and played down to the two cards kept: the key among them waits (while
    the draw is in hand it counts like any card); on the following turn it may be played, and
    it stays in hand (GROUP PLAY: hand size unchanged)."""
    s = game(("red", "blue", "green"), setup={"destroyed": {"blue": [*ALL_TOWERS, "entrance"]}})
    s = end_turn(s)  # red ends with two cards, one of them the key (nothing tells which)
    s = end_turn(s)
    s = end_turn(s)  # blue and green play; back to red, who drew 3 and holds 5
    assert s.current == "red" and s.sides["red"].hand == 5
    for n in (1, 2, 3):
        s = play(s, action="discard", card=card("red", f"stone/{n}"))
    assert s.sides["red"].hand == 2
    err = refused(s, "keep-two", action="key", card=card("red", "key/1"),
                  target=card("blue", "chamber"))
    assert "following turn" in err.message
    s = end_turn(end_turn(play(s, action="end-turn")))
    assert s.current == "red" and s.sides["red"].hand == 5
    s = play(s, action="key", card=card("red", "key/1"), target=card("blue", "chamber"))
    assert s.sides["blue"].chamber_open and s.sides["red"].hand == 5


def test_end_turn_needs_exactly_two_cards():
    """TURNS: "You must ALWAYS end your turn with two cards in your hand"."""
    s = game()
    refused(s, "hand-too-full", action="end-turn")
    s = end_turn(s)
    assert s.current == "blue" and s.sides["red"].hand == 2
    assert s.sides["blue"].hand == 5 and s.drawn == 3


def test_turn_event_tells_the_next_draw():
    """TURNS: the lights show how many cards the next player draws (the `turn` event)."""
    s = game(setup={"destroyed": {"blue": ["tower/1", "tower/3"]}})
    s = with_hand(s, "red", 2)
    out = outcome(s, action="end-turn")
    turn = [e for e in out.events if e.kind == "turn"]
    assert turn and turn[0].data == {"player": "blue", "draw": 2}


def test_no_play_beyond_what_the_hand_holds():
    """TURNS: "Play the cards in your hand or discard until there are two remaining": with two
    cards left, no card may be played or discarded."""
    s = with_hand(game(), "red", 2)
    refused(s, "keep-two", action="discard", card=card("red", "stone/1"))
    refused(s, "keep-two", action="armament", card=card("red", "catapult/1"))
    refused(s, "keep-two", action="blockade", card=card("red", "blockade/1"))


def test_any_card_can_be_discarded():
    """TURNS: "Any card can be played or discarded on a turn" (a stone without its catapult
    too)."""
    s = play(game(), action="discard", card=card("red", "stone/1"))
    assert s.sides["red"].discard == [card("red", "stone/1")] and s.sides["red"].hand == 4


def test_discarded_card_cannot_be_played_until_the_pile_is_turned_over():
    """TURNS: discarded cards come back only when the discard pile becomes the deck."""
    s = play(game(), action="discard", card=card("red", "catapult/1"))
    refused(s, "card-discarded", action="armament", card=card("red", "catapult/1"))


def test_empty_deck_turns_the_discard_pile_over():
    """TURNS: "Once all cards have been discarded, flip your discard pile over to become your
    new draw deck"."""
    s = with_hand(game(), "red", 2)
    blue = s.sides["blue"]
    blue.discard = E.cards.deck_cards("blue")[:22]  # 2 in hand + 1 on the deck + 22 = 25
    blue.deck = 1
    assert total_cards(s, "blue") == E.cards.deck_size
    out = outcome(s, action="end-turn")
    blue = out.state.sides["blue"]
    assert out.state.drawn == 3
    assert blue.discard == [] and blue.deck == 20 and blue.hand == 5
    assert [e.kind for e in out.events] == ["turnover", "turn"]
    # the turned-over cards may be played again
    s2 = play(out.state, action="discard", card=card("blue", "catapult/1"))
    assert s2.sides["blue"].discard == [card("blue", "catapult/1")]


def test_cards_of_another_deck_are_not_yours_to_play():
    """TURNS: each player plays from their own hand; a key kept at the end of a turn waits
    for its owner's next turn."""
    s = game()
    refused(s, "not-your-turn", action="discard", card=card("blue", "stone/1"))
    refused(s, "not-your-turn", action="key", card=card("blue", "key/1"),
            target=card("red", "chamber"))


def test_castle_cards_are_not_played_from_hand():
    """SET UP: the castle is laid out, not held; tapping it first is not a play."""
    refused(game(), "not-a-play", action="discard", card=card("red", "tower/1"))


# -- armaments ---------------------------------------------------------------------------------

def test_at_most_two_armaments_in_play():
    """ARMAMENTS: "You can only have two armaments in play at any given time"."""
    s = with_hand(armed(game(), "catapult/1", "crossbow/1"), "red", 5)
    assert s.sides["red"].armaments == [card("red", "catapult/1"), card("red", "crossbow/1")]
    refused(s, "armaments-full", action="armament", card=card("red", "battering-ram/1"))
    refused(s, "card-in-play", action="armament", card=card("red", "catapult/1"))


def test_replace_an_armament_from_hand():
    """ARMAMENTS: "You may discard an armament in play and replace it with one from your
    hand"."""
    s = armed(game(), "catapult/1", "crossbow/1")
    s = play(s, action="armament", card=card("red", "battering-ram/1"),
             replaces=card("red", "crossbow/1"))
    side = s.sides["red"]
    assert side.armaments == [card("red", "catapult/1"), card("red", "battering-ram/1")]
    assert side.discard == [card("red", "crossbow/1")] and side.hand == 2


def test_replace_only_your_own_armament_in_play():
    """ARMAMENTS: the replaced armament is the player's own, in play."""
    s = armed(game(), "catapult/1", "crossbow/1")
    refused(s, "not-your-armament", action="armament", card=card("red", "battering-ram/1"),
            replaces=card("red", "crossbow/2"))


# -- projectiles -------------------------------------------------------------------------------

def test_projectile_needs_its_armament():
    """PROJECTILES: "If an armament is placed, you can fire its projectile"."""
    s = armed(game(), "crossbow/1")
    refused(s, "no-armament", action="attack", card=card("red", "stone/1"),
            targets=[card("blue", "tower/1")])


def test_projectile_destroys_a_card_with_its_red_icon_and_is_discarded():
    """PROJECTILES: "Projectiles destroy parts of the castle with a matching red icon. Discard
    projectiles after firing." (placeholder: towers 1-2 stone, 3-4 bolt)."""
    s = armed(game(), "catapult/1", "crossbow/1")
    out = outcome(s, action="attack", card=card("red", "stone/1"),
                  targets=[card("blue", "tower/2")])
    assert out.state.sides["blue"].destroyed == ["tower/2"]
    assert out.state.sides["red"].discard == [card("red", "stone/1")]
    assert out.state.sides["red"].hand == 2
    refused(s, "wrong-icon", action="attack", card=card("red", "stone/1"),
            targets=[card("blue", "tower/3")])
    refused(s, "wrong-icon", action="attack", card=card("red", "bolt/1"),
            targets=[card("blue", "tower/1")])


def test_a_destroyed_card_cannot_be_destroyed_again():
    """PROJECTILES: a destroyed (flipped) card shows no red icon to hit."""
    s = with_hand(armed(game(setup={"destroyed": {"blue": ["tower/1"]}}), "catapult/1"),
                  "red", 5)
    refused(s, "already-destroyed", action="attack", card=card("red", "stone/1"),
            targets=[card("blue", "tower/1")])


def test_projectile_destroys_an_opponent_armament_of_the_same_type():
    """PROJECTILES: "You can destroy an opponent's armament using the same type of
    projectile"; the armament goes to its owner's discard pile."""
    s = armed(game(), "crossbow/1")
    s = end_turn(s)
    s = armed(s, "catapult/1", "crossbow/1")
    s = end_turn(s)
    refused(s, "wrong-icon", action="attack", card=card("red", "bolt/1"),
            targets=[card("blue", "catapult/1")])
    s = play(s, action="attack", card=card("red", "bolt/1"),
             targets=[card("blue", "crossbow/1")])
    assert s.sides["blue"].armaments == [card("blue", "catapult/1")]
    assert s.sides["blue"].discard[-1] == card("blue", "crossbow/1")


def test_projectiles_hit_only_opponents_cards_in_play():
    """PROJECTILES: targets are the opponent's castle and armaments."""
    s = armed(game(), "catapult/1")
    refused(s, "not-opponent", action="attack", card=card("red", "stone/1"),
            targets=[card("red", "tower/1")])
    refused(s, "not-opponent", action="attack", card=card("red", "stone/1"),
            targets=[card("red", "catapult/1")])
    refused(s, "not-a-target", action="attack", card=card("red", "stone/1"),
            targets=[card("blue", "catapult/1")])
    refused(s, "unknown-deck", action="attack", card=card("red", "stone/1"),
            targets=[card("green", "tower/1")])


def test_double_projectile_destroys_two_cards():
    """PROJECTILES: "Double projectiles can destroy two cards at once"."""
    s = armed(game(), "catapult/1")
    s = play(s, action="attack", card=card("red", "double-stone/1"),
             targets=[card("blue", "tower/1"), card("blue", "tower/2")])
    assert sorted(s.sides["blue"].destroyed) == ["tower/1", "tower/2"]


def test_double_projectile_needs_two_different_targets():
    """PROJECTILES: a double destroys two cards (decision: two different ones while a second
    card is in its reach)."""
    s = armed(game(), "catapult/1")
    err = refused(s, "target-count", action="attack", card=card("red", "double-stone/1"),
                  targets=[card("blue", "tower/1")])
    assert "blue's tower 2" in err.message
    refused(s, "same-target", action="attack", card=card("red", "double-stone/1"),
            targets=[card("blue", "tower/1"), card("blue", "tower/1")])
    refused(s, "target-count", action="attack", card=card("red", "stone/1"),
            targets=[card("blue", "tower/1"), card("blue", "tower/2")])


def test_double_projectile_fires_at_the_one_card_in_its_reach():
    """PROJECTILES: "Double projectiles can destroy two cards at once": a power, not a duty.
    With the last stone tower standing and nothing else a stone can hit, the double is fired
    at that one card (decision)."""
    s = armed(game(setup={"destroyed": {"blue": ["tower/1"]}}), "catapult/1")
    out = outcome(s, action="attack", card=card("red", "double-stone/1"),
                  targets=[card("blue", "tower/2")])
    assert out.state.sides["blue"].destroyed == ["tower/1", "tower/2"]
    assert card("red", "double-stone/1") in out.state.sides["red"].discard
    assert [e.kind for e in out.events] == ["attack", "destroyed"]
    # an illegal lone aim is refused for its own reason, not for the count
    refused(s, "already-destroyed", action="attack", card=card("red", "double-stone/1"),
            targets=[card("blue", "tower/1")])


def test_double_with_a_second_card_in_reach_names_both():
    """PROJECTILES: "Those two cards can pertain to different players in a multiplayer game"
    and BLOCKADE (a double takes the blockade and another element): a second card in reach
    anywhere, another player's tower or the blockade itself, means two targets."""
    s = armed(game(("red", "blue", "green"), setup={"destroyed": {"blue": ["tower/1"]}}),
              "catapult/1")
    err = refused(s, "target-count", action="attack", card=card("red", "double-stone/1"),
                  targets=[card("blue", "tower/2")])
    assert "green" in err.message
    s = game(("blue", "red"), setup={"destroyed": {"blue": ["tower/1"]}})
    s = end_turn(play(s, action="blockade", card=card("blue", "blockade/1")))
    s = armed(s, "catapult/1")
    refused(s, "target-count", action="attack", card=card("red", "double-stone/1"),
            targets=[card("blue", "tower/2")])
    s = play(s, action="attack", card=card("red", "double-stone/1"),
             targets=[card("blue", "tower/2"), card("blue", "blockade/1")])
    assert s.sides["blue"].blockade is None and s.sides["blue"].destroyed == ["tower/1", "tower/2"]


def test_double_projectile_may_hit_two_players():
    """PROJECTILES: "Those two cards can pertain to different players in a multiplayer
    game"."""
    s = armed(game(("red", "blue", "green")), "crossbow/1")
    s = play(s, action="attack", card=card("red", "double-bolt/1"),
             targets=[card("blue", "tower/3"), card("green", "tower/4")])
    assert s.sides["blue"].destroyed == ["tower/3"]
    assert s.sides["green"].destroyed == ["tower/4"]


# -- order -------------------------------------------------------------------------------------

def test_entrance_falls_only_after_the_four_towers_and_only_to_a_ram():
    """ORDER 1-2: "First destroy all four towers" then "Knock down your opponent's entrance
    with a battering ram"."""
    s = armed(game(setup={"destroyed": {"blue": ["tower/1", "tower/2", "tower/3"]}}),
              "battering-ram/1", "catapult/1")
    refused(s, "towers-standing", action="attack", card=card("red", "ram/1"),
            targets=[card("blue", "entrance")])
    s = armed(game(setup={"destroyed": {"blue": ALL_TOWERS}}), "battering-ram/1", "catapult/1")
    refused(s, "wrong-icon", action="attack", card=card("red", "stone/1"),
            targets=[card("blue", "entrance")])
    s = play(s, action="attack", card=card("red", "ram/1"), targets=[card("blue", "entrance")])
    assert not s.sides["blue"].standing("entrance")


def test_the_chamber_is_never_attacked():
    """ORDER 3: the chamber is opened with the key, not destroyed."""
    s = armed(game(setup={"destroyed": {"blue": [*ALL_TOWERS, "entrance"]}}), "battering-ram/1")
    refused(s, "chamber-not-attackable", action="attack", card=card("red", "ram/1"),
            targets=[card("blue", "chamber")])


def test_key_opens_the_chamber_only_when_towers_and_entrance_are_down():
    """ORDER 3 and KEY: "Open the chamber with your key to capture the crown. Victory!"."""
    s = game(setup={"destroyed": {"blue": ALL_TOWERS}})
    err = refused(s, "castle-standing", action="key", card=card("red", "key/1"),
                  target=card("blue", "chamber"))
    assert "entrance still stands" in err.message
    s = game(setup={"destroyed": {"blue": [*ALL_TOWERS, "entrance"]}})
    refused(s, "not-a-chamber", action="key", card=card("red", "key/1"),
            target=card("blue", "entrance"))
    out = outcome(s, action="key", card=card("red", "key/1"), target=card("blue", "chamber"))
    kinds = [e.kind for e in out.events]
    assert kinds == ["chest-open", "win"]
    assert out.state.sides["blue"].chamber_open
    assert E.winners(out.state) == ["red"] and E.is_over(out.state)
    assert E.scores(out.state) == {"red": 1, "blue": 0}
    assert E.current_player(out.state) is None
    refused(out.state, "game-over", action="end-turn")


def test_rebuilt_parts_must_be_destroyed_again():
    """ORDER: "Any cards that have been rebuilt must be destroyed before moving on to the next
    step" (the rulebook's example: entrance down, a tower rebuilt, no key yet)."""
    s = game(("blue", "red"), setup={"destroyed": {"blue": [*ALL_TOWERS, "entrance"]}})
    s = with_hand(s, "blue", 3)  # a castle that is all down draws nothing (placeholder data)
    s = play(s, action="rebuild", card=card("blue", "rebuild/1"), target=card("blue", "tower/2"))
    s = end_turn(s)
    s = with_hand(s, "red", 6)
    refused(s, "castle-standing", action="key", card=card("red", "key/1"),
            target=card("blue", "chamber"))
    s = armed(s, "catapult/1")
    s = play(s, action="attack", card=card("red", "stone/1"), targets=[card("blue", "tower/2")])
    s = play(s, action="key", card=card("red", "key/1"), target=card("blue", "chamber"))
    assert E.winners(s) == ["red"]


def test_a_rebuilt_tower_blocks_the_entrance_again():
    """ORDER: a rebuilt tower must fall again before the entrance can be attacked."""
    s = game(("blue", "red"), setup={"destroyed": {"blue": ALL_TOWERS}})
    assert s.drawn == 1
    s = play(s, action="rebuild", card=card("blue", "rebuild/1"), target=card("blue", "tower/4"))
    s = end_turn(s)
    s = armed(s, "battering-ram/1")
    refused(s, "towers-standing", action="attack", card=card("red", "ram/1"),
            targets=[card("blue", "entrance")])


# -- rebuild -----------------------------------------------------------------------------------

def test_rebuild_flips_a_tower_or_the_entrance_back():
    """REBUILD: "flip one tower or entrance card of your choice back to its undamaged side.
    Discard the rebuild card upon use"."""
    s = game(setup={"destroyed": {"red": ["tower/3", "entrance"]}})
    s = play(s, action="rebuild", card=card("red", "rebuild/1"), target=card("red", "entrance"))
    assert s.sides["red"].destroyed == ["tower/3"]
    assert s.sides["red"].discard == [card("red", "rebuild/1")]


def test_rebuild_refuses_intact_cards_and_the_chamber():
    """REBUILD, decided: rebuilding an intact card is refused; only towers and the entrance."""
    s = game(setup={"destroyed": {"red": ["tower/3"]}})
    refused(s, "not-destroyed", action="rebuild", card=card("red", "rebuild/1"),
            target=card("red", "tower/1"))
    refused(s, "not-rebuildable", action="rebuild", card=card("red", "rebuild/1"),
            target=card("red", "chamber"))
    refused(s, "wrong-card", action="rebuild", card=card("red", "stone/1"),
            target=card("red", "tower/3"))


def test_rebuild_only_your_own_castle_in_free_for_all():
    """REBUILD and GROUP PLAY: only bridge-style partners repair each other's castles."""
    s = game(("red", "blue", "green"), setup={"destroyed": {"blue": ["tower/1"]}})
    refused(s, "not-partner", action="rebuild", card=card("red", "rebuild/1"),
            target=card("blue", "tower/1"))


def test_partners_rebuild_each_other():
    """GROUP PLAY: "In Bridge-Style, players ... can help their partners by ... repairing each
    other's castles with rebuild cards"."""
    teams = {"teams": [["red", "green"], ["blue", "yellow"]]}
    s = game(("red", "blue", "green", "yellow"), teams,
             {"destroyed": {"green": ["tower/2"], "blue": ["tower/1"]}})
    s2 = play(s, action="rebuild", card=card("red", "rebuild/1"), target=card("green", "tower/2"))
    assert s2.sides["green"].destroyed == []
    assert s2.sides["red"].discard == [card("red", "rebuild/1")]
    refused(s, "not-partner", action="rebuild", card=card("red", "rebuild/1"),
            target=card("blue", "tower/1"))


# -- blockade ----------------------------------------------------------------------------------

def blockaded_blue():
    s = play(end_turn(game()), action="blockade", card=card("blue", "blockade/1"))
    s = armed(s, "catapult/1")
    return armed(end_turn(s), "catapult/1", "crossbow/1")


def test_blockade_takes_a_hit_and_goes_to_the_discard_pile():
    """BLOCKADE: it shields the castle "from one attack from a bolt, stone, or ram. When a
    blockade is hit, it is moved to your discard pile"."""
    s = blockaded_blue()
    s = with_hand(s, "red", 5)
    out = outcome(s, action="attack", card=card("red", "stone/1"),
                  targets=[card("blue", "tower/1")])
    blue = out.state.sides["blue"]
    assert blue.blockade is None and blue.destroyed == []
    assert blue.discard[-1] == card("blue", "blockade/1")
    assert [e.kind for e in out.events] == ["attack", "blockade-hit"]
    s = play(out.state, action="attack", card=card("red", "stone/2"),
             targets=[card("blue", "tower/1")])
    assert s.sides["blue"].destroyed == ["tower/1"]


def test_blockade_shields_the_armaments_too():
    """BLOCKADE: "to shield it and your armaments"."""
    s = with_hand(blockaded_blue(), "red", 5)
    s = play(s, action="attack", card=card("red", "stone/1"),
             targets=[card("blue", "catapult/1")])
    assert s.sides["blue"].armaments == [card("blue", "catapult/1")]
    assert s.sides["blue"].blockade is None


def test_blockade_can_be_aimed_at_directly():
    """BLOCKADE: any bolt, stone or ram may hit the blockade itself."""
    s = play(blockaded_blue(), action="attack", card=card("red", "bolt/1"),
             targets=[card("blue", "blockade/1")])
    assert s.sides["blue"].blockade is None


def test_aims_behind_a_blockade_must_still_be_legal():
    """BLOCKADE, decided: the aim is judged as if the blockade were not there."""
    s = blockaded_blue()
    refused(s, "wrong-icon", action="attack", card=card("red", "stone/1"),
            targets=[card("blue", "tower/3")])


def test_double_takes_the_blockade_and_one_more_card():
    """BLOCKADE: "Your opponent can use a double stone or double-bolt to simultaneously destroy
    the blockade and another element of your castle/armament"."""
    s = play(blockaded_blue(), action="attack", card=card("red", "double-stone/1"),
             targets=[card("blue", "tower/1"), card("blue", "tower/2")])
    assert s.sides["blue"].blockade is None and s.sides["blue"].destroyed == ["tower/2"]
    s = play(blockaded_blue(), action="attack", card=card("red", "double-stone/1"),
             targets=[card("blue", "blockade/1"), card("blue", "catapult/1")])
    assert s.sides["blue"].blockade is None and s.sides["blue"].armaments == []


def test_double_at_a_card_and_its_blockade_hits_the_blockade_first():
    """BLOCKADE: "simultaneously destroy the blockade and another element": the order the two
    targets are tapped in does not matter (decision)."""
    s = play(blockaded_blue(), action="attack", card=card("red", "double-stone/1"),
             targets=[card("blue", "tower/1"), card("blue", "blockade/1")])
    assert s.sides["blue"].blockade is None and s.sides["blue"].destroyed == ["tower/1"]


def test_key_cannot_open_a_blockaded_chamber():
    """BLOCKADE: "they cannot use the key to open the chamber" while it is placed."""
    s = game(("blue", "red"), setup={"destroyed": {"blue": [*ALL_TOWERS, "entrance"]}})
    s = with_hand(s, "blue", 3)
    s = end_turn(play(s, action="blockade", card=card("blue", "blockade/1")))
    refused(s, "blockaded", action="key", card=card("red", "key/1"),
            target=card("blue", "chamber"))


def test_second_blockade_is_refused():
    """BLOCKADE, decided: one blockade at a time."""
    s = play(game(), action="blockade", card=card("red", "blockade/1"))
    refused(s, "blockade-standing", action="blockade", card=card("red", "blockade/2"))


# -- group play --------------------------------------------------------------------------------

def test_up_to_ten_players_one_deck_each():
    """GROUP PLAY: "Multiple decks can be utilized to play games with up to ten players"."""
    names = [f"p{i}" for i in range(10)]
    s = E.new_game(names, 0, {}, {})
    assert set(s.sides) == set(names)
    for bad_players in (["solo"], [f"p{i}" for i in range(11)], ["red", "red"], ["Red!", "x"]):
        with pytest.raises(Rejection) as info:
            E.new_game(bad_players, 0, {}, {})
        assert info.value.code == "bad-setup"


@pytest.mark.parametrize("options, setup", [
    ({"teams": [["red", "blue"]]}, {}),
    ({"teams": [["red"], ["blue", "green"]]}, {}),
    ({"teams": [["red"], ["blue"], ["blue"]]}, {}),
    ({"teams": "red,blue"}, {}),
    ({"colours": 1}, {}),
    ({}, {"first": "pink"}),
    ({}, {"hands": 3}),
    ({}, {"destroyed": {"red": ["chamber"]}}),
])
def test_impossible_options_are_refused(options, setup):
    """GROUP PLAY: teams name every player once; setup names real players and parts."""
    with pytest.raises(Rejection) as info:
        E.new_game(["red", "blue"], 0, options, setup)
    assert info.value.code == "bad-setup" and info.value.message


def test_turns_go_round_in_seat_order():
    """GROUP PLAY: "Turns are taken one player at a time moving clockwise"."""
    s = game(("red", "blue", "green"), setup={"first": "blue"})
    seen = []
    for _ in range(4):
        seen.append(s.current)
        s = end_turn(s)
    assert seen == ["blue", "green", "red", "blue"]


def four_ffa_with_blue_open():
    s = game(("red", "blue", "green", "yellow"),
             setup={"destroyed": {"blue": [*ALL_TOWERS, "entrance"],
                                  "green": [*ALL_TOWERS, "entrance"]}})
    return outcome(s, action="key", card=card("red", "key/1"), target=card("blue", "chamber"))


def test_free_for_all_key_stays_in_hand_and_opened_players_are_out():
    """GROUP PLAY and KEY: "In group play, the key may remain in your hand after use"; a player
    whose crown is taken is out (decision)."""
    out = four_ffa_with_blue_open()
    s = out.state
    assert [e.kind for e in out.events] == ["chest-open", "out"]
    assert not E.is_over(s) and s.sides["red"].hand == 5
    assert card("red", "key/1") not in s.sides["red"].discard
    refused(armed(s, "catapult/1"), "player-out", action="attack", card=card("red", "stone/1"),
            targets=[card("blue", "catapult/1")])
    s = play(s, action="key", card=card("red", "key/1"), target=card("green", "chamber"))
    assert not E.is_over(s)
    s = end_turn(s)
    assert s.current == "yellow"  # blue and green are skipped
    s = end_turn(s)
    assert s.current == "red"


def test_free_for_all_last_crown_wins():
    """GOAL: capture the crowns; the last knight with a closed chamber wins (decision)."""
    s = game(("red", "blue", "green"),
             setup={"destroyed": {p: [*ALL_TOWERS, "entrance"] for p in ("blue", "green")}})
    s = play(s, action="key", card=card("red", "key/1"), target=card("blue", "chamber"))
    refused(s, "player-out", action="key", card=card("red", "key/1"),
            target=card("blue", "chamber"))
    s = play(s, action="key", card=card("red", "key/1"), target=card("green", "chamber"))
    assert E.winners(s) == ["red"]
    assert E.scores(s) == {"red": 1, "blue": 0, "green": 0}


def test_bridge_team_wins_when_both_opponents_are_out():
    """GROUP PLAY: bridge-style teams; the team whose chambers stay closed wins."""
    teams = {"teams": [["red", "green"], ["blue", "yellow"]]}
    s = game(("red", "blue", "green", "yellow"), teams,
             {"destroyed": {p: [*ALL_TOWERS, "entrance"] for p in ("blue", "yellow", "green")}})
    refused(s, "not-opponent", action="key", card=card("red", "key/1"),
            target=card("green", "chamber"))
    s = play(s, action="key", card=card("red", "key/1"), target=card("blue", "chamber"))
    assert not E.is_over(s)
    s = play(s, action="key", card=card("red", "key/1"), target=card("yellow", "chamber"))
    assert sorted(E.winners(s)) == ["green", "red"]
    assert E.scores(s) == {"red": 1, "blue": 0, "green": 1, "yellow": 0}


def test_option_first_crown_wins_ends_a_group_game_at_once():
    """KEY: "Play the key from your hand to open the chamber and win the game"; the option
    reads that literally in group play too (decision: off by default)."""
    teams = {"teams": [["red", "green"], ["blue", "yellow"]], "first_crown_wins": True}
    s = game(("red", "blue", "green", "yellow"), teams,
             {"destroyed": {"blue": [*ALL_TOWERS, "entrance"]}})
    s = play(s, action="key", card=card("red", "key/1"), target=card("blue", "chamber"))
    assert sorted(E.winners(s)) == ["green", "red"]
    s = game(("red", "blue", "green"), {"first_crown_wins": True},
             {"destroyed": {"green": [*ALL_TOWERS, "entrance"]}})
    s = play(s, action="key", card=card("red", "key/1"), target=card("green", "chamber"))
    assert E.winners(s) == ["red"] and E.scores(s) == {"red": 1, "blue": 0, "green": 0}
    with pytest.raises(Rejection):
        E.new_game(["red", "blue"], 0, {"first_crown_wins": "yes"}, {})


def test_partners_are_never_targets():
    """GROUP PLAY, decided: in bridge-style play projectiles hit opponents only."""
    teams = {"teams": [["red", "green"], ["blue", "yellow"]]}
    s = armed(game(("red", "blue", "green", "yellow"), teams), "catapult/1")
    refused(s, "not-opponent", action="attack", card=card("red", "stone/1"),
            targets=[card("green", "tower/1")])


# -- the engine contract -----------------------------------------------------------------------

def test_states_and_actions_round_trip_json():
    """docs/CONTRACTS.md: states and actions serialise to JSON and back."""
    s = armed(game(("red", "blue", "green")), "catapult/1")
    assert E.state_to_json(E.state_from_json(E.state_to_json(s))) == E.state_to_json(s)
    for action in E.legal_actions(s):
        data = E.action_to_json(action)
        assert E.action_from_json(data) == action


@pytest.mark.parametrize("data", [
    {},
    {"action": "fly"},
    {"action": "attack", "card": "oversiege/red/stone/1"},
    {"action": "attack", "card": "oversiege/red/stone/1", "targets": []},
    {"action": "discard"},
    {"action": "end-turn", "card": "x"},
])
def test_malformed_actions_are_refused(data):
    with pytest.raises(Rejection) as info:
        E.action_from_json(data)
    assert info.value.code == "bad-action"


@pytest.mark.parametrize("piece", [
    "oversiege/red/stone/9", "oversiege/red/stone/0", "oversiege/red/stone/01",
    "oversiege/red/tower/5", "oversiege/red/sword/1", "oversiege//stone/1", "kingdomino/x/1",
])
def test_unknown_piece_ids_are_refused(piece):
    refused(game(), "unknown-piece", action="discard", card=piece)


def test_public_view_shows_the_table():
    s = armed(game(setup={"destroyed": {"blue": ["tower/2"]}}), "catapult/1")
    view = E.public_view(s)
    assert view["turn"] == "red" and view["teams"] is None
    assert view["castles"]["blue"]["towers"] == {
        "1": "standing", "2": "destroyed", "3": "standing", "4": "standing"}
    assert view["castles"]["red"]["armaments"] == [card("red", "catapult/1")]
    assert view["castles"]["blue"]["draws"] == 2
    assert view["castles"]["red"]["hand"] == 4
