"""Memory's rules engine, rule by rule: each test's docstring quotes the rule it checks, as
examples/memory/README.md ("The rules") and rules/engine.py state them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabletap_memory.rules import ENGINE, Flip, MemoryEngine, MemoryState, parse_deck

from tabletap.controller.rules.base import Event, Rejection

TINY = parse_deck("ours: true\ntitle: three pictures\npictures:\n  owl: {name: owl}\n"
                  "  fox: {name: red fox}\n  cat: {name: cat}\n", "tiny.yaml", "tiny")
TINY_ENGINE = MemoryEngine({"tiny": TINY})


def _new(players: list[str], engine: MemoryEngine = ENGINE, **options: str) -> MemoryState:
    return engine.new_game(players, 0, dict(options), {})


def _tiny(players: list[str]) -> MemoryState:
    return TINY_ENGINE.new_game(players, 0, {"deck": "tiny"}, {})


def _play(state: MemoryState, *cards: str, engine: MemoryEngine = ENGINE
          ) -> tuple[MemoryState, list[Event]]:
    events: list[Event] = []
    for card in cards:
        outcome = engine.apply(state, Flip(card))
        assert outcome.action == Flip(card)  # no chance: the card is what was asked
        events.extend(outcome.events)
        state = outcome.state
    return state, events


def _refused(state: MemoryState, card: str, engine: MemoryEngine = ENGINE) -> Rejection:
    before = engine.state_to_json(state)
    with pytest.raises(Rejection) as err:
        engine.apply(state, Flip(card))
    assert engine.state_to_json(state) == before  # a refusal changes nothing
    return err.value


# -- a turn ------------------------------------------------------------------------------------


def test_the_first_card_is_said_and_stays_face_up() -> None:
    """"A player taps two cards at a reader; the table says what each one shows ("ana turns
    over the owl")." The first card is the turn's face-up card; the turn goes on."""
    state, events = _play(_new(["ana", "ben"]), "owl/a")
    assert [e.text for e in events] == ["ana turns over the owl."]
    assert events[0].kind == "flip" and events[0].data == {"player": "ana", "card": "owl/a"}
    assert state.turned == "owl/a" and ENGINE.current_player(state) == "ana"
    assert ENGINE.public_view(state)["face_up"] == "owl/a"


def test_a_pair_is_kept_and_the_same_player_goes_again() -> None:
    """"A matching pair is kept by that player (+1 pair) and the same player goes again.\""""
    state, events = _play(_new(["ana", "ben"]), "owl/a", "owl/b")
    assert ENGINE.scores(state) == {"ana": 1, "ben": 0}
    assert ENGINE.current_player(state) == "ana" and state.turned is None
    assert [e.kind for e in events] == ["flip", "flip", "pair"]
    assert events[-1].text == "A pair! ana keeps the owl pair (1 pair). ana goes again."
    assert "turn" not in [e.kind for e in events]  # the turn did not pass
    state, _ = _play(state, "fox/b", "fox/a")
    assert ENGINE.scores(state)["ana"] == 2 and ENGINE.current_player(state) == "ana"


def test_a_miss_turns_both_back_and_passes_the_turn() -> None:
    """"Otherwise the turn passes to the next player (the two cards are turned back face
    down)": a `turn` event {"player": name} says whose turn it is now."""
    state, events = _play(_new(["ana", "ben", "cleo"]), "owl/a", "fox/a")
    assert ENGINE.current_player(state) == "ben" and state.turned is None
    assert ENGINE.scores(state) == {"ana": 0, "ben": 0, "cleo": 0}
    assert [e.kind for e in events] == ["flip", "flip", "miss", "turn"]
    assert events[2].text == "No pair: turn the owl and the fox face down again."
    assert (events[3].kind, events[3].text, events[3].data) == (
        "turn", "It is ben's turn.", {"player": "ben"})
    state, _ = _play(state, "cat/a", "dog/a", "bear/a", "frog/a")
    assert ENGINE.current_player(state) == "ana"  # round the table, in seat order


def test_a_solo_miss_gives_the_turn_to_the_same_player() -> None:
    """"Players 1..6 (a solo game is allowed)": alone, a miss passes the turn to the next
    player, who is the same one."""
    state, events = _play(_new(["ana"]), "owl/a", "fox/a")
    assert ENGINE.current_player(state) == "ana"
    assert (events[-1].kind, events[-1].text) == ("turn", "Try again, ana.")


def test_the_cards_use_the_deck_s_names() -> None:
    """"Pairs and pictures come from a YAML data file ...; each with a `name` to say.\""""
    state, events = _play(_tiny(["ana", "ben"]), "fox/a", "owl/a", engine=TINY_ENGINE)
    assert events[0].text == "ana turns over the red fox."
    assert events[2].text == "No pair: turn the red fox and the owl face down again."


# -- the end -----------------------------------------------------------------------------------


def test_the_most_pairs_wins() -> None:
    """"When every pair is found the game is over and the most pairs wins.\""""
    state = _tiny(["ana", "ben"])
    state, _ = _play(state, "owl/a", "fox/a", "fox/b", "fox/a", "owl/a", "owl/b",
                     engine=TINY_ENGINE)
    assert not TINY_ENGINE.is_over(state) and TINY_ENGINE.winners(state) == []
    state, events = _play(state, "cat/b", "cat/a", engine=TINY_ENGINE)
    assert TINY_ENGINE.is_over(state) and TINY_ENGINE.scores(state) == {"ana": 0, "ben": 3}
    assert TINY_ENGINE.winners(state) == ["ben"]
    assert TINY_ENGINE.current_player(state) is None and TINY_ENGINE.legal_actions(state) == []
    assert (events[-1].kind, events[-1].text, events[-1].data) == (
        "win", "Every pair is found: ben wins with 3 pairs!",
        {"winners": ["ben"], "scores": {"ana": 0, "ben": 3}})
    assert "goes again" not in events[-2].text  # the last pair: there is no again


def test_a_tie_is_a_shared_win() -> None:
    """"Ties shared: `winners` returns every tied player.\""""
    state = _new(["ana", "ben", "cleo"], deck="small")
    state, _ = _play(state, "owl/a", "owl/b", "fox/a", "fox/b", "bear/a", "frog/a",  # ana 2
                     "bear/b", "bear/a", "frog/a", "frog/b", "cat/a", "dog/a",  # ben 2
                     "cat/b", "cat/a")  # cleo 1
    assert ENGINE.scores(state) == {"ana": 2, "ben": 2, "cleo": 1}
    state, events = _play(state, "dog/a", "dog/b")  # cleo 2
    assert ENGINE.winners(state) == ["ana", "ben", "cleo"]
    assert events[-1].kind == "win" and events[-1].data["winners"] == ["ana", "ben", "cleo"]
    # the names are joined the language's way (Babel's format_list: English's serial comma)
    assert events[-1].text == ("Every pair is found: ana, ben, and cleo share the win with "
                               "2 pairs each!")
    assert ENGINE.public_view(state)["winners"] == ["ana", "ben", "cleo"]


def test_alone_every_pair_found_is_a_win() -> None:
    """A solo game is allowed: when every pair is found the one player wins."""
    state = _tiny(["ana"])
    state, events = _play(state, "owl/a", "owl/b", "fox/a", "fox/b", "cat/a", "cat/b",
                          engine=TINY_ENGINE)
    assert TINY_ENGINE.winners(state) == ["ana"]
    assert events[-1].text == "Every pair is found: well done, ana!"


def test_a_finished_game_takes_no_more_cards() -> None:
    """"When every pair is found the game is over": nothing more is played."""
    state = _tiny(["ana"])
    state, _ = _play(state, "owl/a", "owl/b", "fox/a", "fox/b", "cat/a", "cat/b",
                     engine=TINY_ENGINE)
    assert _refused(state, "owl/a", TINY_ENGINE).code == "game-over"


# -- refusals ----------------------------------------------------------------------------------


def test_a_card_already_taken_is_refused() -> None:
    """"Tapping a card already taken ... is refused with a clear Rejection (`already-taken`)",
    naming who keeps the pair; the same player's turn goes on."""
    state, _ = _play(_new(["ana", "ben"]), "owl/a", "owl/b")
    for card in ("owl/a", "owl/b"):
        err = _refused(state, card)
        assert err.code == "already-taken"
        assert err.message.startswith("The owl pair is already taken: ana keeps it.")
    state, _ = _play(state, "fox/a")
    assert _refused(state, "owl/b").code == "already-taken"  # also as a turn's second card


def test_the_same_card_twice_in_a_turn_is_refused() -> None:
    """"Tapping ... the same card twice in one turn, is refused (`same-card`)"; the card it
    waits for is still the second."""
    state, _ = _play(_new(["ana", "ben"]), "owl/a")
    err = _refused(state, "owl/a")
    assert err.code == "same-card" and "already face up" in err.message
    state, _ = _play(state, "owl/b")
    assert ENGINE.scores(state)["ana"] == 1


def test_a_card_seen_in_an_earlier_turn_may_be_turned_again() -> None:
    """Only a card taken, or the one face up now, is refused: a card turned back face down
    after a miss is on the table again."""
    state, _ = _play(_new(["ana", "ben"]), "owl/a", "fox/a", "owl/a")
    assert state.turned == "owl/a" and ENGINE.current_player(state) == "ben"


def test_a_card_whose_picture_is_not_in_the_deck_is_refused() -> None:
    """"A card whose picture is not in the deck is refused (`unknown-card`)": a picture of no
    deck, one of another deck than the game's, and a card not shaped like one."""
    state = _new(["ana", "ben"], deck="small")
    zebra = _refused(state, "zebra/a")
    assert zebra.code == "unknown-card"
    # a picture of no deck is not named: its id is no word the family knows
    assert zebra.message == "That card is in none of the decks: put it back in the box."
    sun = _refused(state, "sun/a")  # the default deck's, not small's: it has a name
    assert sun.code == "unknown-card"
    assert sun.message.startswith("There is no sun card in this deck")
    for card in ("owl/c", "owl", "Owl/a", "", "owl/a/b"):
        assert _refused(state, card).code == "unknown-card", card


def test_only_a_flip_is_an_action() -> None:
    """Memory knows one action, a card turned over: anything else is `bad-action`."""
    with pytest.raises(Rejection) as err:
        ENGINE.apply(_new(["ana"]), "owl/a")  # type: ignore[arg-type]
    assert err.value.code == "bad-action"


# -- what may be played ------------------------------------------------------------------------


def test_the_legal_actions_are_the_cards_still_face_down() -> None:
    """"`legal_actions` listing every card still face down and not the one already turned
    this turn", in the deck's order."""
    state = _tiny(["ana", "ben"])
    every = [Flip(c) for c in TINY.cards]
    assert TINY_ENGINE.legal_actions(state) == every
    state, _ = _play(state, "fox/a", engine=TINY_ENGINE)
    assert TINY_ENGINE.legal_actions(state) == [a for a in every if a.card != "fox/a"]
    state, _ = _play(state, "fox/b", engine=TINY_ENGINE)
    assert TINY_ENGINE.legal_actions(state) == [Flip("owl/a"), Flip("owl/b"), Flip("cat/a"),
                                                Flip("cat/b")]


@settings(max_examples=60, deadline=None)
@given(players=st.integers(min_value=1, max_value=6), small=st.booleans(),
       picks=st.lists(st.integers(min_value=0, max_value=10_000), max_size=300))
def test_random_play_keeps_the_count_and_the_state_s_json(players: int, small: bool,
                                                          picks: list[int]) -> None:
    """Every legal card is accepted, and every card is face down, face up or kept: the pairs
    kept are the score, the JSON form gives back the same state, and a game that ends has
    winners with the most pairs."""
    names = [f"p{i}" for i in range(players)]
    state = _new(names, deck="small" if small else "default")
    cards = 12 if small else 24
    for pick in picks:
        legal = ENGINE.legal_actions(state)
        if not legal:
            break
        state = ENGINE.apply(state, legal[pick % len(legal)]).state
        view = ENGINE.public_view(state, reveal=True)
        kept = sum(view["pairs"].values())
        assert view["face_down"] + (view["face_up"] is not None) + 2 * kept == cards
        assert len(view["taken"]) == 2 * kept and view["scores"] == view["pairs"]
        assert set(view["seen"]).isdisjoint(view["taken"])
        assert ENGINE.state_from_json(ENGINE.state_to_json(state)) == state
    if ENGINE.is_over(state):
        scores = ENGINE.scores(state)
        assert ENGINE.winners(state) == [p for p in names if scores[p] == max(scores.values())]


# -- set-up, JSON ------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "options", "setup", "says"), [
    ([], {}, {}, "1 to 6 players"),
    ([f"p{i}" for i in range(7)], {}, {}, "1 to 6 players"),
    (["ana", "ana"], {}, {}, "different name"),
    (["ana", ""], {}, {}, "list of names"),
    (["ana"], {"deck": "huge"}, {}, "no deck called huge; its decks are default and small"),
    (["ana"], {"deck": 3}, {}, "no deck called 3"),
    (["ana"], {"dice": "digital"}, {}, "only option is the deck"),
    (["ana"], {}, {"order": ["owl/a"]}, "shuffled by hand"),
])
def test_an_impossible_game_is_refused(players: list[str], options: dict[str, object],
                                       setup: dict[str, object], says: str) -> None:
    """"Players 1..6"; the one option is `deck` (default "default"): anything else is
    refused with `bad-setup` before any state exists."""
    with pytest.raises(Rejection) as err:
        ENGINE.new_game(players, 0, options, setup)
    assert err.value.code == "bad-setup" and says in err.value.message


def test_a_new_game_starts_with_the_first_player_and_every_card_down() -> None:
    """The first player named begins; every card of the deck lies face down."""
    state = _new(["ana", "ben"])
    view = ENGINE.public_view(state)
    assert view == {"game": "memory", "deck": "default", "players": ["ana", "ben"],
                    "current_player": "ana", "pairs": {"ana": 0, "ben": 0},
                    "scores": {"ana": 0, "ben": 0}, "found": {"ana": [], "ben": []},
                    "taken": [], "face_up": None, "face_down": 24, "cards": 24, "over": False,
                    "winners": []}
    assert [e.text for e in ENGINE.opening_events(state)] == [
        "ana begins: tap two cards at a reader, one after the other."]


def test_the_view_reveals_the_cards_seen_only_when_asked() -> None:
    """The cards seen are everyone's knowledge but the memory the game is about: only
    `reveal` shows them (in the deck's order, which tells nothing of the order seen)."""
    state, _ = _play(_new(["ana", "ben"]), "owl/a", "fox/a", "cat/b")
    assert "seen" not in ENGINE.public_view(state)
    assert ENGINE.public_view(state, reveal=True)["seen"] == ["owl/a", "fox/a", "cat/b"]


def test_actions_have_one_json_form() -> None:
    """`{"action": "flip", "card": "<picture>/<a|b>"}`; a malformed one is `bad-action`."""
    assert ENGINE.action_to_json(Flip("owl/a")) == {"action": "flip", "card": "owl/a"}
    assert ENGINE.action_from_json({"action": "flip", "card": "owl/a"}) == Flip("owl/a")
    for bad in ({"action": "flip"}, {"action": "flip", "card": 3}, {"action": "pass"},
                {"card": "owl/a"}, {"action": "flip", "card": "owl/a", "twice": True},
                ["flip", "owl/a"]):
        with pytest.raises(Rejection) as err:
            ENGINE.action_from_json(bad)  # type: ignore[arg-type]
        assert err.value.code == "bad-action", bad


def test_a_damaged_state_is_refused_naming_the_problem() -> None:
    """A journal's state that could not have been played is a loud ValueError."""
    state, _ = _play(_new(["ana", "ben"]), "owl/a", "owl/b", "fox/a")
    good = ENGINE.state_to_json(state)
    assert good == {"players": ["ana", "ben"], "deck": "default", "current": 0,
                    "turned": "fox/a", "found": [["owl", "ana"]], "seen": ["fox/a"]}
    for change, says in [({"deck": "huge"}, "no deck"), ({"current": 2}, "current"),
                         ({"found": [["owl", "cleo"]]}, "not playing"),
                         ({"found": [["owl", "ana"], ["owl", "ben"]]}, "twice"),
                         ({"turned": "owl/a"}, "on the table"), ({"seen": ["owl/b"]}, "table"),
                         ({"found": [["owl"]]}, "[picture, player]"), ({"current": "0"}, "current"),
                         ({"extra": 1}, "extra")]:
        with pytest.raises(ValueError, match="not a Memory state") as err:
            ENGINE.state_from_json({**good, **change})
        assert says in str(err.value), change
