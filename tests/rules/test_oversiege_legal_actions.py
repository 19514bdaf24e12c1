"""legal_actions is the checks `apply` runs, asked about every candidate play (`_candidates`:
every loose card with every target its kind names) and remembered from state to state under
what they read: it must list exactly the candidates `apply` accepts, in the same order, in every
kind of table, all along random games and in random positions no game was needed to reach."""

from __future__ import annotations

import random
from collections.abc import Callable
from importlib import resources

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletap.controller.rules.base import Rejection
from tabletap.controller.selfplay.play import chooser
from tabletap.games.oversiege.rules import ENGINE as E
from tabletap.games.oversiege.rules import OversiegeEngine, OversiegeState
from tabletap.games.oversiege.rules.data import ARMAMENTS, TOWERS, parse_cards

TABLES = st.sampled_from([
    (["red", "blue"], {}),
    (["red", "blue", "green", "yellow", "pink"], {}),
    (["red", "blue", "green", "yellow"], {"teams": [["red", "green"], ["blue", "yellow"]]}),
    (["a", "b", "c"], {"teams": [["a"], ["b", "c"]]}),
    (["red", "blue", "green"], {"first_crown_wins": True}),
])

_TEXT = resources.files("tabletap.games.oversiege.rules").joinpath("cards.yaml").read_text()
# A maker's copy (cards.yaml is theirs to correct) whose double stone shows the ram icon and
# whose fourth tower the ram can break: a double then takes the last tower and, the way now
# open, the entrance with one shot (ORDER), which the packaged icons never allow.
MAKER = OversiegeEngine(parse_cards(
    _TEXT.replace("double-stone: {status: likely, armament: catapult, icon: stone, hits: 2}",
                  "double-stone: {status: likely, armament: catapult, icon: ram, hits: 2}")
    .replace("tower/4: {status: guess, red: [bolt]", "tower/4: {status: guess, red: [bolt, ram]")
))


def accepted(state: OversiegeState, engine: OversiegeEngine = E) -> list:
    """The slow, obvious answer: every candidate apply accepts."""
    out = []
    for action in engine._candidates(state):
        try:
            engine.apply(state, action)
        except Rejection:
            continue
        out.append(action)
    return out


@settings(max_examples=12, deadline=None)
@given(table=TABLES, seed=st.integers(0, 2**32 - 1), policy=st.sampled_from(["random", "greedy"]))
def test_legal_actions_are_what_apply_accepts(table, seed, policy):
    """Every section (TURNS, ARMAMENTS, PROJECTILES, REBUILD, KEY, BLOCKADE, GROUP PLAY) as
    the checks apply runs state it: legal_actions lists the candidates apply accepts, in
    order, all along self-played games."""
    players, options = table
    choose = chooser("oversiege", policy)
    rng = random.Random(seed)
    state = E.new_game(players, seed, options, {})
    for step in range(300):
        if E.is_over(state):
            break
        legal = E.legal_actions(state)
        if step % 6 == 0:
            assert legal == accepted(state)
        state = E.apply(state, choose(E, state, legal, rng)).state


def scattered(engine: OversiegeEngine, players: list[str], options: dict, seed: int
              ) -> OversiegeState:
    """A position drawn at random rather than played to: castles partly down (the entrance
    too, as after a rebuild of a tower behind it), armaments and blockades in play, cards in
    the discard piles, hands of two to seven, this turn's draw, crowns taken."""
    rng = random.Random(seed)
    state = engine.new_game(players, seed, options, {}).clone()
    castle = [*TOWERS, "entrance"]
    for player, side in state.sides.items():
        deck = engine.cards.deck_cards(player)
        side.destroyed = rng.sample(castle, rng.choice([0, 1, 2, 3, 4, 4, 5, 5]))
        side.armaments = rng.sample([c for c in deck if c.split("/")[2] in ARMAMENTS],
                                    rng.choice([0, 1, 1, 2, 2]))
        side.blockade = rng.choice([None, None, f"oversiege/{player}/blockade/1"])
        rest = [c for c in deck if c not in side.in_play()]
        side.discard = rng.sample(rest, rng.randint(0, 8))
        loose = len(rest) - len(side.discard)
        side.hand = rng.randint(2, min(7, loose))
        side.deck = loose - side.hand
    # crowns taken: never the player to move's, and at least one other team stays in
    state.turn = rng.randrange(len(players))
    others = [t for t in state.teams if state.current not in t]
    for team in others[1:]:
        for player in team:
            if player != state.current and rng.random() < 0.4:
                state.sides[player].chamber_open = True
                state.sides[player].destroyed = list(castle)
    state.drawn = rng.choice([0, 0, 1, 2, 3])
    return state


def neighbours(engine: OversiegeEngine, state: OversiegeState, seed: int, count: int
               ) -> list[OversiegeState]:
    """Positions one change away from `state` (a blockade placed or hit, an armament placed or
    lost, a castle card rebuilt or destroyed, a card more or less in hand, another draw): the
    sides left alone look the same, so verdicts remembered for `state` are asked again."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        near = state.clone()
        player = rng.choice(near.players)
        side = near.sides[player]
        change = rng.choice(["blockade", "armament", "castle", "hand", "drawn"])
        if change == "blockade":
            side.blockade = None if side.blockade else f"oversiege/{player}/blockade/2"
        elif change == "armament":
            if side.armaments:
                side.discard.append(side.armaments.pop(rng.randrange(len(side.armaments))))
            else:
                side.armaments.append(f"oversiege/{player}/{rng.choice(ARMAMENTS)}/2")
        elif change == "castle":
            part = rng.choice([*TOWERS, "entrance"])
            if part in side.destroyed:
                side.destroyed.remove(part)
            else:
                side.destroyed.append(part)
        elif change == "hand":
            side.hand = max(2, side.hand + rng.choice([-1, 1]))
        else:
            near.drawn = 0 if near.drawn else 2
        out.append(near)
    return out


def legal_exactly_when_accepted(engine: OversiegeEngine, state: OversiegeState) -> None:
    candidates = engine._candidates(state)
    legal = engine.legal_actions(state)
    verdicts = {}
    for action in candidates:
        try:
            engine.apply(state, action)
        except Rejection as refusal:
            assert refusal.code and refusal.message
            verdicts[action] = False
        else:
            verdicts[action] = True
    assert set(legal) <= set(candidates)
    for action in candidates:
        assert (action in legal) == verdicts[action], (action, verdicts[action])
    assert legal == [a for a in candidates if verdicts[a]]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=TABLES, seed=st.integers(0, 2**32 - 1), maker=st.booleans())
def test_every_candidate_is_legal_exactly_when_apply_accepts_it(table, seed, maker):
    """Every section's rules (ORDER, TURNS, ARMAMENTS, PROJECTILES, REBUILD, KEY, BLOCKADE,
    GROUP PLAY) live in one check per kind of play, and legal_actions only asks those checks
    (in parts, remembered across states): in a random position and the positions one change
    away, with the packaged cards or a maker's, a candidate is in legal_actions if and only if
    apply accepts it, and the legal list keeps the candidates' order. A rule the generator
    judged on its own, or a verdict remembered under less than it reads, would show here as a
    play one side allows and the other refuses."""
    engine = MAKER if maker else E
    players, options = table
    state = scattered(engine, players, options, seed)
    for position in [state, *neighbours(engine, state, seed, 3)]:
        legal_exactly_when_accepted(engine, position)


def test_a_double_at_the_last_tower_also_takes_the_entrance_it_opens():
    """PROJECTILES ("Double projectiles can destroy two cards at once") and ORDER (the
    entrance falls once the four towers are down), with a maker's icons that let the double
    stone break the fourth tower and the entrance: aimed at blue's last tower, the double has
    the entrance in reach after the first hit, so it must name both (`target-count`), and
    legal_actions lists the pair, not the single shot. BLOCKADE: with a blockade in front of
    the same castle the pair is refused, and legal_actions (which remembered the first
    position's verdicts) agrees."""
    state = MAKER.new_game(["red", "blue"], 0, {}, {"destroyed": {"blue": list(TOWERS[:3])},
                                                    "hands": {"red": 6}})
    state.sides["red"].armaments.append("oversiege/red/catapult/1")
    state.sides["red"].hand -= 1
    double = "oversiege/red/double-stone/1"
    tower, entrance = "oversiege/blue/tower/4", "oversiege/blue/entrance"
    legal = [a.targets for a in MAKER.legal_actions(state) if a.kind == "attack"]
    assert legal == [(tower, entrance)]
    try:
        MAKER.apply(state, MAKER.action_from_json(
            {"action": "attack", "card": double, "targets": [tower]}))
    except Rejection as refusal:
        assert refusal.code == "target-count" and "blue's entrance" in refusal.message
    else:
        raise AssertionError("a double with a second card in reach fired at one")
    legal_exactly_when_accepted(MAKER, state)
    # BLOCKADE: behind a blockade the first hit takes the blockade, tower 4 stands and the
    # entrance stays shut, although the castle looks the same as above
    shielded = state.clone()
    shielded.sides["blue"].blockade = "oversiege/blue/blockade/1"
    refusal = None
    try:
        MAKER.apply(shielded, MAKER.action_from_json(
            {"action": "attack", "card": double, "targets": [tower, entrance]}))
    except Rejection as refused:
        refusal = refused
    assert refusal is not None and refusal.code == "towers-standing"
    legal_exactly_when_accepted(MAKER, shielded)


def alike() -> list[OversiegeState]:
    """Positions that look the same but for one thing a check reads. Bridge-style, red and
    green against blue and yellow: blue's castle is all down, green's first tower is down, red
    has a catapult in play and holds three cards after drawing one."""
    base = E.new_game(["red", "blue", "green", "yellow"], 0,
                      {"teams": [["red", "green"], ["blue", "yellow"]]},
                      {"destroyed": {"blue": [*TOWERS, "entrance"], "green": ["tower/1"]},
                       "hands": {"red": 4}})
    base.sides["red"].armaments.append("oversiege/red/catapult/1")
    base.sides["red"].hand, base.sides["red"].deck = 3, base.sides["red"].deck - 1
    base.drawn = 1
    out = [base]

    def changed(change: Callable[[OversiegeState], None]) -> None:
        near = base.clone()
        change(near)
        out.append(near)

    def kept_two(drawn: int) -> Callable[[OversiegeState], None]:
        def change(s: OversiegeState) -> None:
            s.sides["red"].hand, s.sides["red"].deck = 2, s.sides["red"].deck + 1
            s.drawn = drawn
        return change

    changed(kept_two(0))  # TURNS: nothing drawn, the kept key is played
    changed(kept_two(2))  # TURNS: drawn, the key among the two kept waits
    changed(lambda s: setattr(s.sides["blue"], "blockade", "oversiege/blue/blockade/1"))
    changed(lambda s: setattr(s.sides["red"], "blockade", "oversiege/red/blockade/1"))
    changed(lambda s: s.sides["red"].armaments.__setitem__(0, "oversiege/red/crossbow/1"))
    changed(lambda s: s.sides["green"].destroyed.clear())
    changed(lambda s: s.sides["yellow"].destroyed.append("tower/1"))
    return out


def test_positions_alike_but_for_one_thing_get_their_own_verdicts():
    """TURNS (two cards kept; the kept key waits for the following turn), ARMAMENTS and
    PROJECTILES (the armament a projectile needs), BLOCKADE (one at a time; it shields the
    chamber), KEY, REBUILD and GROUP PLAY (a partner's castle, never an opponent's): verdicts
    legal_actions remembers from one position are never reused for a position that differs
    in something their check reads, whichever of the two comes first."""
    positions = alike()
    for order in (positions, positions[::-1]):
        engine = OversiegeEngine()  # nothing remembered yet
        for position in order:
            legal_exactly_when_accepted(engine, position)
    key = "oversiege/red/key/1"
    assert [a.card == key for a in E.legal_actions(positions[1])].count(True) == 1
    assert key not in [a.card for a in E.legal_actions(positions[2]) if a.kind == "key"]
