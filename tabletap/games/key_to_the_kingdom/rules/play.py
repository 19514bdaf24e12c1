"""The turn logic: every rule of the rulebook, applied to one state at a time.

A `Play` starts from the state an action found, replaces fields as the action and everything it
sets off happen, and records an Event for each. Nothing is mutated in place (mappings are copied
before they change), so the state the action found is never touched and a Rejection anywhere
simply drops the Play. Rulebook sentences are quoted where they are applied; decisions where it
is silent are in docs/games/key-to-the-kingdom.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tabletap.controller.language.said import ListOf, Said
from tabletap.controller.rules.base import Event, Rejection, chance
from tabletap.games.key_to_the_kingdom.rules import board, named
from tabletap.games.key_to_the_kingdom.rules.actions import (
    Action,
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
from tabletap.games.key_to_the_kingdom.rules.pack import MAGIC_ITEMS, Effect, Pack
from tabletap.games.key_to_the_kingdom.rules.state import (
    COMPANION_PREFIX,
    MAGIC_PREFIX,
    Ask,
    CastleAsk,
    ChallengeAsk,
    CountAsk,
    Die,
    EffectTask,
    GotoTask,
    KeyAsk,
    KeyTask,
    KttkState,
    Phase,
    Purpose,
    RollInProgress,
    StepAsk,
    SweepAsk,
    Task,
)
from tabletap.games.key_to_the_kingdom.words import msg, msg_n

ROLL_PHASES = (Phase.ADVENTURE, Phase.CASTLE, Phase.CHALLENGE)
ROLLING = (Phase.FIRST_ROLL, Phase.TURN, *ROLL_PHASES)  # the phases a Roll is taken in
PURPOSE = {Phase.TURN: Purpose.MOVE, Phase.ADVENTURE: Purpose.ADVENTURE,
           Phase.CASTLE: Purpose.CASTLE, Phase.CHALLENGE: Purpose.CHALLENGE}
WHAT_NOW = {
    # TRANSLATORS: what the table waits for (after "now"): the first rolls of the game
    Phase.FIRST_ROLL: msg("each hero rolls their die to see who goes first"),
    # TRANSLATORS: what the table waits for: the start of a turn
    Phase.TURN: msg("the hero whose turn it is rolls to move or takes a heroic nap"),
    # TRANSLATORS: what the table waits for: a roll was made and may still be changed
    Phase.ROLL: msg("the roll may be changed with an item, then the move or the step is taken"),
    # TRANSLATORS: what the table waits for: a key adventure's next step
    Phase.ADVENTURE: msg("the hero on the adventure rolls for the next step (or takes a "
                         "shortcut)"),
    # TRANSLATORS: what the table waits for: a fight in the Demon King's castle
    Phase.CASTLE: msg("the hero in the castle rolls against the Demon King's token"),
    # TRANSLATORS: what the table waits for: a roll against a number (a minor adventure, a card)
    Phase.CHALLENGE: msg("the hero rolls against the target"),
    # TRANSLATORS: what the table waits for: items to refresh (turn back up)
    Phase.REFRESH: msg("the hero chooses the items to refresh"),
    # TRANSLATORS: what the table waits for: items to exhaust (turn over)
    Phase.EXHAUST: msg("the hero chooses the items to exhaust"),
    # TRANSLATORS: what the table waits for: an event card from the deck
    Phase.EVENT: msg("the top event card is drawn and tapped"),
    # TRANSLATORS: what the table waits for: the Demon die handed to a hero
    Phase.DEMON_DIE: msg("the Demon die goes to a hero who does not have it"),
    # TRANSLATORS: what the table waits for: a magic item chosen
    Phase.MAGIC: msg("the hero chooses a magic item from the supply"),
    # TRANSLATORS: what the table waits for: an item to steal
    Phase.STEAL: msg("the hero chooses another hero's item to steal"),
    # TRANSLATORS: what the table waits for: who a whirlpool takes
    Phase.SWEEP: msg("the hero chooses who the whirlpool sweeps away"),
    # TRANSLATORS: what the table waits for: a key piece taken from its pile
    Phase.KEY: msg("the hero takes a key piece from the pile"),
    # TRANSLATORS: what the table waits for: a courtyard space chosen
    Phase.COURTYARD: msg("the hero chooses a free space in the courtyard"),
    # TRANSLATORS: what the table waits for: nothing, the game is over
    Phase.OVER: msg("nothing: the game is over"),
}


def waiting_for(phase: Phase) -> Said:
    return WHAT_NOW.get(phase, WHAT_NOW[Phase.OVER])


def reject(code: str, message: Said) -> Rejection:
    return Rejection(code, message)


def words(pack: Pack, item: str) -> Said:
    """An item as the play-by-play and the voice say it (named.item)."""
    return named.item(pack, item)


class Play:
    def __init__(self, state: KttkState) -> None:
        self.st = state
        self.pack = state.pack
        self.events: list[Event] = []

    # -- small state edits ------------------------------------------------------------------

    def set(self, **changes: Any) -> None:
        self.st = self.st.replaced(**changes)

    def say(self, kind: str, text: Said, **data: Any) -> None:
        self.events.append(Event(kind, text, data))

    def hero(self, name: str | None) -> Any:
        return named.hero(self.pack, name)

    def space(self, sid: str) -> Any:
        return named.space(self.pack, sid)

    def items(self, ids: Any) -> Any:
        return named.items(self.pack, ids)

    def put_item(self, item: str, owner: str | None, exhausted: bool) -> None:
        items = dict(self.st.items)
        items[item] = (owner, exhausted)
        self.set(items=items)

    def place(self, hero: str, space: str) -> None:
        positions = dict(self.st.positions)
        positions[hero] = space
        self.set(positions=positions)

    def draw_int(self, purpose: str, options: tuple[int, ...] | list[int]) -> int:
        rng = chance(self.st.seed, self.st.chance, purpose)
        self.set(chance=self.st.chance + 1)
        return rng.choice(list(options))

    def decide(self, phase: Phase, ask: Ask | None = None) -> None:
        self.set(phase=phase, ask=ask)

    def push(self, *tasks: Task) -> None:
        """Put tasks at the front of the queue, in the order given."""
        self.set(todo=tuple(tasks) + self.st.todo)

    # -- the queue ----------------------------------------------------------------------------

    def run(self) -> None:
        """Work through `todo` until a choice is needed; an empty queue ends the turn."""
        while self.st.phase == Phase.BUSY and not self.st.over:
            if not self.st.todo:
                self.end_turn()
                return
            task, rest = self.st.todo[0], self.st.todo[1:]
            self.set(todo=rest)
            self.do(task)

    def do(self, task: Task) -> None:
        hero = task.hero
        if isinstance(task, GotoTask):
            if self.st.in_courtyard(hero):  # swept to the courtyard meanwhile: it's moot
                return
            self.place(hero, task.space)
            # TRANSLATORS: a hero leaves an adventure for a space; hero is the hero, space a space
            self.say("move", msg("%(hero)s goes to %(space)s.", hero=self.hero(hero),
                                 space=self.space(task.space)), hero=hero, space=task.space)
            self.activate(hero, task.space)
        elif isinstance(task, EffectTask):
            self.effect(hero, task.effect, task.source)
        elif isinstance(task, KeyTask):
            self.offer_key(hero, task.colour)
        else:  # pragma: no cover - tasks are made only here
            raise AssertionError(task)

    def end_turn(self) -> None:
        nxt = (self.st.turn + 1) % len(self.st.players)
        player = self.st.players[nxt]
        self.set(turn=nxt, turn_number=self.st.turn_number + 1, phase=Phase.TURN, ask=None,
                 roll=None, todo=())
        if self.st.in_courtyard(player):
            # TRANSLATORS: after every turn: whose turn it is; player is the hero, who is in the
            # Demon King's courtyard
            said = msg("%(player)s's turn, in the courtyard.", player=self.hero(player))
        else:
            # TRANSLATORS: after every turn: whose turn it is; player is the hero, space where
            # their figure stands
            said = msg("%(player)s's turn, on %(space)s.", player=self.hero(player),
                       space=self.space(self.st.positions[player]))
        self.say("turn", said, player=player)

    # -- spaces ---------------------------------------------------------------------------------

    def activate(self, hero: str, space: str) -> None:
        """'Activate the space you ended on.'"""
        sp = self.pack.spaces[space]
        if sp.kind == "refresh":
            self.offer_refresh(hero, sp.refresh + self.pack.heroes[hero].refresh)
        elif sp.kind == "event":
            self.event_space(hero)
        elif sp.kind == "demon-die":
            self.offer_demon_die()
        elif sp.kind == "genie":
            self.offer_magic(hero, "any")
        elif sp.kind == "adventure":
            self.start_adventure(hero, self.pack.adventure_at[space])
        elif sp.kind == "whirlpool":
            self.enter_whirlpool(hero, self.pack.whirlpool_at[space])
        elif sp.kind == "boring":
            # TRANSLATORS: a hero lands on an empty space; space is the space (a joke of the game)
            self.say("boring", msg("%(space)s: nothing happens. Really. Totally dull.",
                                   space=self.space(space)), space=space)

    def offer_refresh(self, hero: str, count: int) -> None:
        tired = self.st.exhausted(hero)
        if not tired:
            # TRANSLATORS: a refresh space, but the hero's items are all ready; hero is the hero
            self.say("refresh", msg("%(hero)s has no exhausted item to refresh.",
                                    hero=self.hero(hero)), hero=hero)
        elif len(tired) <= count:
            self.refresh_items(hero, tired)
        else:
            self.decide(Phase.REFRESH, CountAsk(hero, count))
            # TRANSLATORS: hero is the hero; n how many items they may refresh (turn back up)
            self.say("ask", msg_n("%(hero)s may refresh up to %(n)s item: tap it, then press "
                                  "end-turn.", "%(hero)s may refresh up to %(n)s items: tap "
                                  "them, then press end-turn.", count, hero=self.hero(hero)),
                     hero=hero, count=count)

    def refresh_items(self, hero: str, items: list[str] | tuple[str, ...]) -> None:
        new = dict(self.st.items)
        for item in items:
            new[item] = (hero, False)
        self.set(items=new)
        if items:
            # TRANSLATORS: hero is the hero; items the items turned back up ("the sword, the axe")
            self.say("refresh", msg("%(hero)s refreshes %(items)s.", hero=self.hero(hero),
                                    items=self.items(items)), hero=hero, items=list(items))

    def offer_exhaust(self, hero: str, count: int) -> None:
        ready = self.st.available(hero)
        if len(ready) <= count:
            self.exhaust_items(hero, ready)
        else:
            self.decide(Phase.EXHAUST, CountAsk(hero, count))
            # TRANSLATORS: hero is the hero; n how many items they must exhaust (turn over)
            self.say("ask", msg_n("%(hero)s must exhaust %(n)s item: tap it.",
                                  "%(hero)s must exhaust %(n)s items: tap them.", count,
                                  hero=self.hero(hero)), hero=hero)

    def exhaust_items(self, hero: str, items: list[str] | tuple[str, ...]) -> None:
        new = dict(self.st.items)
        for item in items:
            new[item] = (new[item][0], True)
        self.set(items=new)
        if items:
            # TRANSLATORS: hero is the hero; items the items turned over as used
            self.say("exhaust", msg("%(hero)s exhausts %(items)s.", hero=self.hero(hero),
                                    items=self.items(items)), hero=hero, items=list(items))
        else:
            # TRANSLATORS: hero is the hero, whose items are all exhausted already
            self.say("exhaust", msg("%(hero)s has no available item to exhaust.",
                                    hero=self.hero(hero)), hero=hero)

    def event_space(self, hero: str) -> None:
        if not self.st.deck:
            # "If the event deck is empty, first shuffle the discard pile."
            self.set(deck=self.shuffled(self.st.discard), discard=())
            # TRANSLATORS: the event card deck ran out
            self.say("reshuffle", msg("The event deck is empty: the discard pile is shuffled."))
        if not self.st.deck:
            # TRANSLATORS: no event card is left to draw: heroes keep them all as companions
            self.say("event", msg("Every event card is kept as a companion: nothing to draw."))
            return
        if self.st.digital_events:
            self.resolve_card(hero, self.st.deck[0])
        else:
            self.decide(Phase.EVENT, Ask(hero))
            # TRANSLATORS: hero is the hero who draws a card from the printed deck
            self.say("ask", msg("%(hero)s: draw the top event card and tap it.",
                                hero=self.hero(hero)), hero=hero)

    def shuffled(self, cards: tuple[int, ...]) -> tuple[int, ...]:
        if not self.st.digital_events:
            return tuple(sorted(cards))
        rng = chance(self.st.seed, self.st.chance, "shuffle")
        self.set(chance=self.st.chance + 1)
        out = list(cards)
        rng.shuffle(out)
        return tuple(out)

    def resolve_card(self, hero: str, n: int) -> None:
        card = self.pack.card(n)
        self.set(deck=tuple(c for c in self.st.deck if c != n))
        # TRANSLATORS: hero is the hero; card the event card's name; text what the card says
        self.say("event", msg("%(hero)s draws %(card)s: %(text)s", hero=self.hero(hero),
                              card=named.card(self.pack, n), text=named.card_text(self.pack, n)),
                 hero=hero, card=n, name=card.name)
        if card.kind == "companion":
            comps = dict(self.st.companions)
            comps[hero] = comps[hero] + (n,)
            self.set(companions=comps)
            # TRANSLATORS: a companion card stays with the hero; companion is its name
            self.say("companion", msg("%(companion)s joins %(hero)s.",
                                      companion=named.card(self.pack, n), hero=self.hero(hero)),
                     hero=hero, card=n)
            return
        self.set(discard=self.st.discard + (n,))
        if card.kind == "magic":
            self.offer_magic(hero, card.item or "any")
        else:
            self.push(*(EffectTask(hero, e, card.name) for e in card.effects))

    def offer_demon_die(self) -> None:
        who = [p for p in self.st.players if p != self.st.demon]
        if len(who) == 1:
            self.assign(who[0])
        else:
            self.decide(Phase.DEMON_DIE)
            # TRANSLATORS: the Demon die must go to another hero; tap = put on the reader
            self.say("ask", msg("Give the Demon die to a hero who does not have it: tap the "
                                "die, then their figure."), heroes=who)

    def assign(self, hero: str) -> None:
        """'The hero assigned the Demon die places their hero die on the Demon King's throne
        and will not get it back until the Demon die is assigned to another hero.'"""
        before = self.st.demon
        self.set(demon=hero)
        if before:
            # TRANSLATORS: hero receives the Demon die; previous is the hero who had it
            said = msg("The Demon die goes to %(hero)s, whose own die goes to the throne. "
                       "%(previous)s gets their own die back.", hero=self.hero(hero),
                       previous=self.hero(before))
        else:
            # TRANSLATORS: hero receives the Demon die; their own die goes on the throne
            said = msg("The Demon die goes to %(hero)s, whose own die goes to the throne.",
                       hero=self.hero(hero))
        self.say("demon-die", said, hero=hero, previous=before)

    def supply(self) -> list[str]:
        return [m for m in MAGIC_ITEMS if self.st.items[MAGIC_PREFIX + m][0] is None]

    def offer_magic(self, hero: str, which: str) -> None:
        left = self.supply()
        if which != "any":
            left = [m for m in left if m == which]
        if not left:
            if which == "any":
                # TRANSLATORS: every magic item is taken already
                said = msg("No magic item is left in the supply.")
            else:
                # TRANSLATORS: item is a magic item ("the bee cannon") somebody has already
                said = msg("%(item)s is not left in the supply.",
                           item=named.item(self.pack, MAGIC_PREFIX + which))
            self.say("magic", said, hero=hero)
        elif len(left) == 1:
            self.take_magic(hero, left[0])
        else:
            self.decide(Phase.MAGIC, Ask(hero))
            # TRANSLATORS: hero is the hero who picks a magic item token
            self.say("ask", msg("%(hero)s chooses a magic item: tap it.", hero=self.hero(hero)),
                     hero=hero, items=left)

    def take_magic(self, hero: str, name: str) -> None:
        self.put_item(MAGIC_PREFIX + name, hero, False)
        # TRANSLATORS: hero is the hero; item the magic item taken ("the bee cannon")
        self.say("magic", msg("%(hero)s takes %(item)s.", hero=self.hero(hero),
                              item=named.item(self.pack, MAGIC_PREFIX + name)),
                 hero=hero, item=name)

    # -- effects (atlas entries and event cards) ------------------------------------------------

    def effect(self, hero: str, eff: Effect, source: str) -> None:
        (name, value), = eff.items()
        if name == "refresh":
            self.offer_refresh(hero, value)
        elif name == "exhaust":
            self.offer_exhaust(hero, value)
        elif name == "exhaust-others":
            self.exhaust_others(hero, value)
        elif name == "magic":
            self.offer_magic(hero, value)
        elif name == "demon-die":
            self.offer_demon_die()
        elif name == "flip":
            self.flip(value)
        elif name == "steal":
            self.offer_steal(hero)
        elif name == "sweep":
            self.offer_sweep(hero, value)
        elif name == "domain":
            if len(self.st.key_colours(hero)) == 3:
                self.to_courtyard(hero)
            else:
                # TRANSLATORS: hero is the hero, who lacks a key piece
                self.say("domain", msg("%(hero)s needs all three key pieces to enter the Demon "
                                       "King's domain: nothing happens.", hero=self.hero(hero)),
                         hero=hero)
        elif name == "roll":
            self.decide(Phase.CHALLENGE, ChallengeAsk(hero, source, value["target"],
                                                      tuple(value["success"]),
                                                      tuple(value["fail"])))
            # TRANSLATORS: hero is the hero; target the number the die must show at least
            self.say("ask", msg("%(hero)s: roll %(target)s or more.", hero=self.hero(hero),
                                target=value["target"]), hero=hero, target=value["target"])

    def exhaust_others(self, hero: str, count: int) -> None:
        """Every other hero exhausts `count` items, their lowest first (decision: nobody else
        has to be asked in the middle of this hero's turn)."""
        for other in self.st.players:
            if other == hero:
                continue
            ready = sorted(self.st.available(other), key=lambda i: max(self.st.item_value(i)))
            self.exhaust_items(other, ready[:count])

    def steal_options(self, hero: str) -> list[str]:
        return [i for i, (owner, ex) in self.st.items.items()
                if owner not in (None, hero) and not ex]

    def offer_steal(self, hero: str) -> None:
        options = self.steal_options(hero)
        if not options:
            # TRANSLATORS: a card lets the hero steal, but nobody has an item ready
            self.say("steal", msg("No other hero has an available item to steal."), hero=hero)
        elif len(options) == 1:
            self.steal(hero, options[0])
        else:
            self.decide(Phase.STEAL, Ask(hero))
            # TRANSLATORS: hero is the hero who steals
            self.say("ask", msg("%(hero)s steals an item: tap another hero's available item.",
                                hero=self.hero(hero)), hero=hero)

    def steal(self, hero: str, item: str) -> None:
        owner = self.st.items[item][0]
        self.put_item(item, hero, self.st.items[item][1])
        # TRANSLATORS: hero steals item ("wizard's rope") from owner, another hero
        self.say("steal", msg("%(hero)s steals %(item)s from %(owner)s.", hero=self.hero(hero),
                              item=words(self.pack, item), owner=self.hero(owner)),
                 hero=hero, item=item, owner=owner)

    def offer_sweep(self, hero: str, whirlpools: list[str]) -> None:
        shown = [w for w in whirlpools if self.st.shown(self.pack.whirlpools[w].space)]
        who = [p for p in self.st.players if not self.st.in_courtyard(p)]
        if not shown or not who:
            # TRANSLATORS: a card's whirlpool lies on a land folded away
            self.say("sweep", msg("The whirlpool is folded away: nothing happens."), hero=hero)
        elif len(who) == 1:
            self.sweep(who[0], shown[0])
        else:
            self.decide(Phase.SWEEP, SweepAsk(hero, shown[0]))
            # TRANSLATORS: hero is the hero who chooses; tap = put the figure on the reader
            self.say("ask", msg("%(hero)s chooses who is swept into the whirlpool: tap their "
                                "figure.", hero=self.hero(hero)), hero=hero, heroes=who)

    def sweep(self, victim: str, wid: str) -> None:
        space = self.pack.whirlpools[wid].space
        self.place(victim, space)
        # TRANSLATORS: hero is the hero swept away; space the whirlpool's space
        self.say("sweep", msg("%(hero)s is swept into the whirlpool on %(space)s.",
                              hero=self.hero(victim), space=self.space(space)),
                 hero=victim, space=space)
        self.enter_whirlpool(victim, wid)

    # -- whirlpools, flips, the courtyard -----------------------------------------------------

    def enter_whirlpool(self, hero: str, wid: str) -> None:
        """'If you have all three key pieces, a whirlpool will take you to the Demon King board
        for the final battle.' Otherwise the atlas entry flips a land."""
        w = self.pack.whirlpools[wid]
        if len(self.st.key_colours(hero)) == 3:
            # TRANSLATORS: hero has all three key pieces and goes to the final battle
            self.say("whirlpool", msg("%(hero)s holds the whole key: the whirlpool leads to "
                                      "the Demon King's courtyard!", hero=self.hero(hero)),
                     hero=hero)
            self.to_courtyard(hero)
            return
        # TRANSLATORS: hero is the hero; space the whirlpool's space
        self.say("whirlpool", msg("%(hero)s enters the whirlpool on %(space)s.",
                                  hero=self.hero(hero), space=self.space(w.space)),
                 hero=hero, whirlpool=wid)
        self.flip(w.flip, hero, w.to)

    def flip(self, flap: str, mover: str | None = None, to: str | None = None) -> None:
        f = self.pack.flaps[flap]
        old = self.st.flaps[flap]
        new = "open" if old == "closed" else "closed"
        hidden, shown = (f.closed, f.open) if new == "open" else (f.open, f.closed)
        flaps = dict(self.st.flaps)
        flaps[flap] = new
        self.set(flaps=flaps)
        if new == "open":
            # TRANSLATORS: a board is unfolded; hidden and shown are lands ("meadow", "marsh")
            said = msg("A board unfolds: %(hidden)s is hidden and %(shown)s appears.",
                       hidden=named.land(self.pack, hidden), shown=named.land(self.pack, shown))
        else:
            # TRANSLATORS: a board is folded; hidden and shown are lands ("marsh", "meadow")
            said = msg("A board folds: %(hidden)s is hidden and %(shown)s appears.",
                       hidden=named.land(self.pack, hidden), shown=named.land(self.pack, shown))
        self.say("flip", said, flap=flap, side=new)
        if mover is not None and to is not None and self.st.shown(to):
            # (a pack whose `to` is folded away leaves the mover to the voids, like the others;
            # the content check reports it)
            self.place(mover, to)
            # TRANSLATORS: hero comes out of a whirlpool; space is where
            self.say("move", msg("%(hero)s comes out on %(space)s.", hero=self.hero(mover),
                                 space=self.space(to)), hero=mover, space=to)
        # "Other heroes may be affected when a land flips." / "Heroes affected when a land
        # flips place their figure on a void space."
        order = self.st.players[self.st.turn:] + self.st.players[:self.st.turn]
        affected = [h for h in order if self.pack.spaces[self.st.positions[h]].land == hidden]
        taken = {self.st.positions[h] for h in self.st.players if h not in affected}
        for hero in affected:
            spot = board.landing_for_displaced(self.st, shown, taken)
            taken.add(spot)
            self.place(hero, spot)
            # TRANSLATORS: the land under hero folded away; space is where they go instead
            self.say("void", msg("The land under %(hero)s folds away: %(hero)s goes to "
                                 "%(space)s.", hero=self.hero(hero), space=self.space(spot)),
                     hero=hero, space=spot)

    def to_courtyard(self, hero: str) -> None:
        """'Place your figure on any open space in the courtyard on the Demon King board,
        activate that space, and end your turn.'"""
        free = self.free_courtyard()
        if hero == self.st.current:
            self.set(todo=())  # the turn ends once the courtyard space is activated
        if len(free) <= 1:
            self.land_in_courtyard(hero, free[0] if free else self.pack.courtyard[0])
        else:
            self.decide(Phase.COURTYARD, Ask(hero))
            # TRANSLATORS: hero is the hero arriving at the Demon King's courtyard
            self.say("ask", msg("%(hero)s chooses a free courtyard space.",
                                hero=self.hero(hero)), hero=hero, spaces=free)

    def free_courtyard(self) -> list[str]:
        taken = set(self.st.positions.values())
        return [s for s in self.pack.courtyard if s not in taken]

    def land_in_courtyard(self, hero: str, space: str) -> None:
        self.place(hero, space)
        # TRANSLATORS: hero is the hero; space the courtyard's space ("courtyard space 2")
        self.say("courtyard", msg("%(hero)s arrives in the Demon King's courtyard on "
                                  "%(space)s.", hero=self.hero(hero), space=self.space(space)),
                 hero=hero, space=space)
        self.activate(hero, space)

    # -- adventures -------------------------------------------------------------------------------

    def start_adventure(self, hero: str, aid: str) -> None:
        adv = self.pack.adventures[aid]
        if adv.kind == "key":
            if adv.colour in self.st.key_colours(hero):
                # "You may not start a key adventure if you already have a key piece of that
                # color."
                # TRANSLATORS: hero has that colour already; colour is a key colour, adventure
                # the adventure's name ("fire mountain")
                self.say("adventure", msg("%(hero)s already has the %(colour)s key piece: "
                                          "%(adventure)s cannot be started.",
                                          hero=self.hero(hero), colour=named.colour(adv.colour),
                                          adventure=named.adventure(self.pack, aid)), hero=hero)
                return
            # TRANSLATORS: hero starts a key adventure; adventure is its name, colour the colour
            # of the key piece it wins
            self.say("adventure", msg("%(hero)s starts %(adventure)s, for the %(colour)s key.",
                                      hero=self.hero(hero),
                                      adventure=named.adventure(self.pack, aid),
                                      colour=named.colour(str(adv.colour))),
                     hero=hero, adventure=aid)
            self.next_step(hero, aid, 0)
            return
        # TRANSLATORS: hero starts a minor adventure (its name); target is the roll needed
        self.say("adventure", msg("%(hero)s starts %(adventure)s: roll %(target)s or more.",
                                  hero=self.hero(hero), adventure=named.adventure(self.pack, aid),
                                  target=adv.target), hero=hero, adventure=aid, target=adv.target)
        self.decide(Phase.CHALLENGE, ChallengeAsk(hero, aid, adv.target, adv.on_success,
                                                  adv.on_fail, adv.leave_success,
                                                  adv.leave_fail))

    def next_step(self, hero: str, aid: str, step: int) -> None:
        """Read out the atlas step: its target, and the shortcut that applies to this hero."""
        adv = self.pack.adventures[aid]
        st = adv.steps[step]
        self.decide(Phase.ADVENTURE, StepAsk(hero, aid, step))
        helper = self.shortcut_help()
        params = dict(adventure=named.adventure(self.pack, aid), step=step + 1,
                      steps=len(adv.steps), target=st.target)
        if helper is not None:
            # TRANSLATORS: a key adventure's next step; adventure is its name, step of steps
            # where the hero is, target the roll needed, helper an item or companion the hero has
            said = msg("%(adventure)s, step %(step)s of %(steps)s: roll %(target)s or more, or "
                       "tap %(helper)s to go in without rolling.", helper=helper, **params)
        elif st.item or st.companion:
            shown = ListOf(tuple(named.shown(self.pack, x) for x in (st.item, st.companion)
                                 if x), style="or")
            # TRANSLATORS: as above; shown is what the space shows (an item or a companion),
            # which the hero does not have
            said = msg("%(adventure)s, step %(step)s of %(steps)s: roll %(target)s or more "
                       "(%(shown)s would let %(hero)s in without rolling).", shown=shown,
                       hero=self.hero(hero), **params)
        else:
            # TRANSLATORS: as above, a step that no item helps with
            said = msg("%(adventure)s, step %(step)s of %(steps)s: roll %(target)s or more.",
                       **params)
        self.say("step", said, hero=hero, adventure=aid, step=step + 1,
                 target=st.target, item=st.item, companion=st.companion,
                 shortcut=helper is not None)

    def step_done(self, hero: str, aid: str, step: int) -> None:
        adv = self.pack.adventures[aid]
        if step + 1 < len(adv.steps):
            self.next_step(hero, aid, step + 1)
            return
        # "You complete a key adventure when your figure reaches the end space ... Take the
        # piece from the supply that matches the color of the adventure."
        # TRANSLATORS: hero completed a key adventure (its name)
        self.say("adventure", msg("%(hero)s completes %(adventure)s!", hero=self.hero(hero),
                                  adventure=named.adventure(self.pack, aid)),
                 hero=hero, adventure=aid)
        self.set(phase=Phase.BUSY, ask=None)
        assert adv.colour is not None  # a key adventure (the pack checks it)
        self.push(KeyTask(hero, adv.colour), GotoTask(hero, adv.leave_success))

    def step_failed(self, hero: str, aid: str) -> None:
        adv = self.pack.adventures[aid]
        # TRANSLATORS: hero failed a step of a key adventure (its name)
        self.say("adventure", msg("%(hero)s fails %(adventure)s and leaves it.",
                                  hero=self.hero(hero), adventure=named.adventure(self.pack, aid)),
                 hero=hero, adventure=aid)
        self.set(phase=Phase.BUSY, ask=None)
        self.push(GotoTask(hero, adv.leave_fail))

    def offer_key(self, hero: str, colour: str) -> None:
        pile = [k for k, who in self.st.keys.items() if who is None and k.startswith(colour)]
        if not pile:
            # TRANSLATORS: colour is a key colour; hero the hero who earned a piece
            self.say("key", msg("The %(colour)s key pile is empty: %(hero)s takes no piece.",
                                colour=named.colour(colour), hero=self.hero(hero)), hero=hero)
            return
        self.decide(Phase.KEY, KeyAsk(hero, colour))
        # TRANSLATORS: hero is the hero; colour the colour of the key piece to take
        self.say("ask", msg("%(hero)s: take a %(colour)s key piece and tap it.",
                            hero=self.hero(hero), colour=named.colour(colour)),
                 hero=hero, colour=colour)

    def challenge_done(self, success: bool) -> None:
        ask = self.st.ask_of(ChallengeAsk)
        hero = ask.hero
        if success:
            # TRANSLATORS: hero made the roll of a minor adventure or a card
            said = msg("%(hero)s succeeds.", hero=self.hero(hero))
        else:
            # TRANSLATORS: hero missed the roll of a minor adventure or a card
            said = msg("%(hero)s fails.", hero=self.hero(hero))
        self.say("challenge", said, hero=hero, success=success)
        effects = ask.success if success else ask.fail
        tasks: list[Task] = [EffectTask(hero, e, ask.source) for e in effects]
        leave = ask.leave_success if success else ask.leave_fail
        if leave:
            tasks.append(GotoTask(hero, leave))
        self.set(phase=Phase.BUSY, ask=None)
        self.push(*tasks)

    # -- the castle -------------------------------------------------------------------------------

    def castle_section(self, hero: str, section: int) -> None:
        while section < len(self.st.castle) and not self.st.castle[section]:
            # TRANSLATORS: section is a part of the castle ("the gate"); hero climbs past it
            self.say("castle", msg("%(section)s: no token is left; %(hero)s climbs on.",
                                   section=named.section(self.pack, section),
                                   hero=self.hero(hero)), hero=hero)
            section += 1
        if section == len(self.st.castle):
            self.set(winner=hero, phase=Phase.OVER, ask=None, todo=(), roll=None)
            # TRANSLATORS: the end of the game; hero is the winner
            self.say("win", msg("%(hero)s defeats the Demon King and wins the game!",
                                hero=self.hero(hero)), winners=[hero])
            return
        token = self.pack.token(self.st.castle[section][0])
        if token.name not in self.st.revealed:
            self.set(revealed=self.st.revealed + (token.name,))
        self.decide(Phase.CASTLE, CastleAsk(hero, section, token.name))
        helper = self.shortcut_help()
        params = dict(section=named.section(self.pack, section),
                      token=named.token(self.pack, token.name), target=token.target)
        if helper:
            # TRANSLATORS: a fight in the castle; section is its part ("the gate"), token the
            # Demon King's token ("gate troll"), target the roll needed, helper the hero's item
            said = msg("%(section)s: %(token)s, roll %(target)s or more, or tap %(helper)s to "
                       "pass it without rolling.", helper=helper, **params)
        elif token.item:
            # TRANSLATORS: as above; item is an item type the hero does not have ready
            said = msg("%(section)s: %(token)s, roll %(target)s or more (%(item)s would pass it "
                       "without rolling).", item=named.shown(self.pack, token.item), **params)
        else:
            # TRANSLATORS: as above, a token no item passes
            said = msg("%(section)s: %(token)s, roll %(target)s or more.", **params)
        self.say("castle", said, hero=hero, section=section + 1,
                 token=token.name, target=token.target)

    def castle_won(self, hero: str, section: int) -> None:
        castle = list(self.st.castle)
        token = castle[section][0]
        castle[section] = castle[section][1:]
        self.set(castle=tuple(castle))
        # TRANSLATORS: hero beat a Demon King's token (its name, "gate troll")
        self.say("castle", msg("%(hero)s defeats the %(token)s.", hero=self.hero(hero),
                               token=named.token(self.pack, token)), hero=hero, token=token)
        self.castle_section(hero, section + 1)

    # -- checks shared by several actions ----------------------------------------------------------

    def hero_item(self, hero: str, kind: str) -> str | None:
        """An available item of this kind the hero holds (their own or stolen or magic)."""
        for item in self.st.available(hero):
            if self.st.item_kind(item) == kind:
                return item
        return None

    def shortcut_help(self) -> Said | None:
        """What lets the hero into the next adventure or castle space without rolling."""
        if self.st.phase == Phase.ADVENTURE:
            step = self.st.ask_of(StepAsk)
            hero = step.hero
            st = self.pack.adventures[step.adventure].steps[step.step]
            if st.item and self.hero_item(hero, st.item):
                return named.shown(self.pack, st.item)
            held = {self.pack.card(n).name for n in self.st.companions[hero]}
            if st.companion and st.companion in held:
                return named.shown(self.pack, st.companion)
            return None
        ask = self.st.ask_of(CastleAsk)
        hero = ask.hero
        token = self.pack.token(ask.token)
        if token.item and self.hero_item(hero, token.item):
            return named.shown(self.pack, token.item)
        return None

    def roll_target(self) -> int:
        purpose = None if self.st.roll is None else self.st.roll.purpose
        if purpose == Purpose.ADVENTURE:
            step = self.st.ask_of(StepAsk)
            return self.pack.adventures[step.adventure].steps[step.step].target
        if purpose == Purpose.CASTLE:
            return self.pack.token(self.st.ask_of(CastleAsk).token).target
        return int(self.st.ask_of(ChallengeAsk).target)


# -- action handlers --------------------------------------------------------------------------


def apply_action(state: KttkState, action: Action) -> tuple[KttkState, Action, list[Event]]:
    """Check and apply one action; the resolved action carries any chance outcome drawn."""
    if state.over:
        # TRANSLATORS: refused: a move after the end of the game
        raise reject("game-over", msg("The game is over; start a new one to play again."))
    p = Play(state)
    resolved = _dispatch(p, action)
    p.run()
    return p.st, resolved, p.events


def _not_now(state: KttkState, action: Action) -> Rejection:
    # TRANSLATORS: refused: a move the game does not wait for; now is what it waits for
    return reject("not-now", msg("That cannot be done now: now %(now)s.",
                                 now=waiting_for(state.phase)))


def _dispatch(p: Play, action: Action) -> Action:
    phase = p.st.phase
    if isinstance(action, Roll) and phase in ROLLING:
        return _roll(p, action)
    if isinstance(action, Use) and phase == Phase.ROLL:
        _use(p, action)
        return action
    if isinstance(action, Move) and phase == Phase.ROLL and p.st.roll.purpose == Purpose.MOVE:
        _move(p, action)
        return action
    if (isinstance(action, Resolve) and phase == Phase.ROLL
            and p.st.roll.purpose != Purpose.MOVE):
        _resolve(p)
        return action
    if isinstance(action, Shortcut) and phase in (Phase.ADVENTURE, Phase.CASTLE):
        _shortcut(p)
        return action
    if isinstance(action, Nap) and phase == Phase.TURN:
        _nap(p, action)
        return action
    if isinstance(action, Castle) and phase == Phase.TURN:
        _castle(p)
        return action
    handler = _CHOICES.get((type(action), phase))
    if handler is None:
        raise _not_now(p.st, action)
    handler(p, action)
    return action


def _die(p: Play, hero: str) -> tuple[Die, tuple[int, ...]]:
    """'Whenever a hero has the Demon die, they must use it for all of their die rolls.'"""
    if p.st.demon == hero:
        return "demon", p.pack.demon_faces
    return "hero", p.pack.hero_faces


def _roll(p: Play, action: Roll) -> Roll:
    st = p.st
    hero = st.first_due[0] if st.phase == Phase.FIRST_ROLL else (
        st.ask_of(Ask).hero if st.phase in ROLL_PHASES else st.current)
    if st.phase == Phase.TURN and st.in_courtyard(hero):
        # TRANSLATORS: refused: hero is in the courtyard and cannot move
        raise reject("in-courtyard", msg("%(hero)s is in the Demon King's courtyard: enter the "
                                         "castle or take a heroic nap.", hero=p.hero(hero)))
    die, faces = _die(p, hero)
    if action.value is None:
        if st.physical_dice:
            # TRANSLATORS: refused: the family plays with real dice
            raise reject("enter-the-roll", msg("%(hero)s rolls the real die: enter the number it "
                                               "shows. The roll button rolls only the table's "
                                               "dice.", hero=p.hero(hero)))
        value = p.draw_int("roll", faces)
    elif action.value not in faces:
        shown = ListOf(tuple(sorted(set(faces))))
        if die == "demon":
            # TRANSLATORS: refused: value is not on the die; faces are the numbers it has
            said = msg("The Demon die has no face %(value)s; its faces are %(faces)s.",
                       value=action.value, faces=shown)
        else:
            # TRANSLATORS: refused: value is not on the die; faces are the numbers it has
            said = msg("A hero die has no face %(value)s; its faces are %(faces)s.",
                       value=action.value, faces=shown)
        raise reject("not-a-face", said)
    else:
        value = action.value
        p.set(chance=st.chance + 1)  # a drawn roll and the same roll replayed count alike
    if die == "demon":
        # TRANSLATORS: hero rolls the Demon die; value is what it shows
        said = msg("%(hero)s rolls the Demon die: %(value)s.", hero=p.hero(hero), value=value)
    else:
        # TRANSLATORS: hero rolls their own die; value is what it shows
        said = msg("%(hero)s rolls their die: %(value)s.", hero=p.hero(hero), value=value)
    p.say("roll", said, hero=hero, die=die, value=value)
    if st.phase == Phase.FIRST_ROLL:
        _first_roll(p, hero, value)
        return Roll(value)
    purpose = PURPOSE[st.phase]
    powers = p.pack.heroes[hero]
    bonus = {Purpose.ADVENTURE: powers.adventure_bonus, Purpose.CHALLENGE:
             powers.challenge_bonus, Purpose.CASTLE: powers.castle_bonus}.get(purpose, 0)
    if bonus:
        # TRANSLATORS: the hero's special power adds bonus to the roll
        p.say("power", msg("%(hero)s's power adds %(bonus)s.", hero=p.hero(hero), bonus=bonus),
              hero=hero, bonus=bonus)
    # a move roll asks the hero whose turn it is; a step's roll keeps the step's ask
    p.set(phase=Phase.ROLL, roll=RollInProgress(purpose, die, value, (), bonus),
          ask=Ask(hero) if purpose == Purpose.MOVE else st.ask)
    if purpose == Purpose.MOVE:
        reach = board.destinations(p.st, hero, p.st.roll.result)
        p.say("reach", _reach_text(p, hero, p.st.roll.result, reach), hero=hero,
              result=p.st.roll.result, spaces=reach)
    else:
        target = p.roll_target()
        p.say("ask", _check_text(p.st.roll.result, target), hero=hero,
              result=p.st.roll.result, target=target)
    return Roll(value)


def _reach_text(p: Play, hero: str, result: int, reach: list[str]) -> Said:
    """What the family hears after a move roll: where it leads and which button takes it (an
    item may still change it first)."""
    if not reach:
        # TRANSLATORS: after a move roll; result is the roll, hero the hero who cannot move
        return msg("A result of %(result)s cannot be moved in full from here: %(hero)s stays. "
                   "Press end-turn.", result=result, hero=p.hero(hero))
    if result == 0:
        # TRANSLATORS: after a move roll of 0; space is where hero stands
        return msg("A result of 0: %(hero)s stays on %(space)s, which takes effect. Press "
                   "end-turn.", hero=p.hero(hero), space=p.space(reach[0]))
    if len(reach) == 1:
        # TRANSLATORS: after a move roll; result is the roll, space the one space it reaches
        return msg("A result of %(result)s reaches %(space)s. Press end-turn to go there.",
                   result=result, space=p.space(reach[0]))
    # TRANSLATORS: after a move roll; spaces are the spaces it reaches; press the end-turn
    # button to hear them one by one, hold it to go to the one just said
    return msg("A result of %(result)s reaches %(spaces)s. Press end-turn to hear each one, "
               "hold it to go.", result=result, spaces=named.spaces(p.pack, reach))


def _check_text(result: int, target: int) -> Said:
    """What the family hears after an adventure, challenge or castle roll."""
    # TRANSLATORS: after a roll against a number; result is the roll, target the number needed
    return msg("%(result)s against %(target)s: press end-turn to take it, or tap an item to "
               "change it.", result=result, target=target)


def _first_roll(p: Play, hero: str, value: int) -> None:
    """'Each player rolls their die. The player with the highest roll takes the first turn.'
    Ties for the highest roll roll again among themselves (decision)."""
    rolls = dict(p.st.first_rolls)
    rolls[hero] = value
    due = p.st.first_due[1:]
    p.set(first_rolls=rolls, first_due=due)
    if due:
        return
    top = max(rolls.values())
    best = [h for h in p.st.players if rolls.get(h) == top]
    if len(best) > 1:
        p.set(first_rolls={}, first_due=tuple(best))
        # TRANSLATORS: the first rolls; heroes rolled the same highest number, top
        p.say("tie", msg("%(heroes)s tie with %(top)s: they roll again.",
                         heroes=named.heroes(p.pack, best), top=top), heroes=best)
        return
    first = best[0]
    p.set(turn=p.st.players.index(first), phase=Phase.TURN, ask=None, first_rolls={})
    # TRANSLATORS: the game starts; player is the hero whose turn it is now
    p.say("turn", msg("%(player)s rolled highest and takes the first turn.",
                      player=p.hero(first)), player=first)


def check_use(st: KttkState, action: Use) -> int:
    """The change `action` makes to the roll in progress, or the Rejection saying why it may
    not (pure: legal_actions asks it about every candidate)."""
    roll, ask = st.roll, st.ask
    assert roll is not None and ask is not None  # (not ask_of: this is self-play's inner loop)
    hero = ask.hero
    item = action.item
    used = dict(roll.uses)
    if item.startswith(COMPANION_PREFIX):
        n = _card_number(item)
        if n is None or n not in st.companions[hero]:
            # TRANSLATORS: refused: hero used a companion card they do not have
            raise reject("not-yours", msg("%(hero)s has no such companion card.",
                                          hero=named.hero(st.pack, hero)))
        card = st.pack.card(n)
        if not card.bonus:
            # TRANSLATORS: refused: companion is a companion card's name ("the owl")
            raise reject("no-bonus", msg("%(companion)s helps at adventure spaces, not with "
                                         "rolls.", companion=named.companion(st.pack, n)))
        values: tuple[int, ...] = (card.bonus,)
        if item not in used and any(u.startswith(COMPANION_PREFIX) for u in used):
            # TRANSLATORS: refused: a second companion card on one roll
            raise reject("one-companion", msg("Only one companion may change a roll."))
    else:
        if item not in st.items:
            # TRANSLATORS: refused: a piece that is no item of this game
            raise reject("unknown-item", msg("That is not an item of this game."))
        owner, exhausted = st.items[item]
        if owner != hero:
            raise reject("not-yours", not_yours(st.pack, item, owner, hero))
        if exhausted and item not in used:
            # TRANSLATORS: refused: item ("knight's sword") is turned over already
            raise reject("exhausted", msg("%(item)s is exhausted; refresh it before using it.",
                                          item=words(st.pack, item)))
        items_used = [u for u in used if not u.startswith(COMPANION_PREFIX)]
        if item not in used and items_used:
            sticky = MAGIC_PREFIX + "sticky-stick"
            if len(items_used) >= 2 or sticky not in (item, items_used[0]):
                # TRANSLATORS: refused: a second item on one roll
                raise reject("one-item", msg("Only one item may change a roll; the Sticky Stick "
                                             "may join another item."))
        values = st.item_value(item)
    amount = action.amount if action.amount is not None else max(values)
    if amount not in values:
        # TRANSLATORS: refused: item ("the mood ring") changes a roll by values ("1 or 2"), not
        # by amount
        raise reject("bad-amount", msg("%(item)s changes a roll by %(values)s, not %(amount)s.",
                                       item=words(st.pack, item),
                                       values=ListOf(tuple(values), style="or"), amount=amount))
    if item in used:
        if action.target or action.refresh:
            # TRANSLATORS: refused: item ("knight's sword") is used on this roll already
            raise reject("already-used", msg("%(item)s is already used on this roll.",
                                             item=words(st.pack, item)))
        return action.sign * amount
    kind = st.item_kind(item) if not item.startswith(COMPANION_PREFIX) else ""
    if kind == "kind-of-evil-knife":
        # "When you exhaust this, also exhaust another hero's item."
        _second_item(action.target, Play(st).steal_options(hero),
                     # TRANSLATORS: refused: the knife needs its second tap
                     msg("The Kind of Evil Knife also exhausts another hero's item: tap it."),
                     # TRANSLATORS: refused: item is not another hero's ready item
                     msg("%(item)s is not another hero's available item.",
                         item=words(st.pack, action.target or "")))
    elif action.target is not None:
        # TRANSLATORS: refused: only that magic item exhausts another hero's item
        raise reject("bad-target", msg("Only the Kind of Evil Knife exhausts another hero's "
                                       "item."))
    if kind == "coffee-beans":
        # "When you exhaust this, refresh one of your other items."
        _second_item(action.refresh, [i for i in st.exhausted(hero) if i != item],
                     # TRANSLATORS: refused: the coffee beans need their second tap
                     msg("The Magic Coffee Beans also refresh one of your other items: tap it."),
                     # TRANSLATORS: refused: item is not one of hero's other exhausted items
                     msg("%(item)s is not one of the other exhausted items of %(hero)s.",
                         item=words(st.pack, action.refresh or ""),
                         hero=named.hero(st.pack, hero)))
    elif action.refresh is not None:
        # TRANSLATORS: refused: only that magic item refreshes another item
        raise reject("bad-target", msg("Only the Magic Coffee Beans refresh another item."))
    return action.sign * amount


def _use(p: Play, action: Use) -> None:
    """'You may use one of your available items to change the result of your roll. Exhaust
    the item you want to use and modify your result by adding or subtracting the exact
    number on the item.' Companions and the Sticky Stick as their cards say."""
    delta = check_use(p.st, action)
    roll = p.st.roll
    assert roll is not None
    hero, item = p.st.ask_of(Ask).hero, action.item
    if item in dict(roll.uses):  # a second tap: the sign or amount only, nothing else again
        uses = tuple((i, delta if i == item else d) for i, d in roll.uses)
        p.set(roll=replace(roll, uses=uses))
        p.say("use", _used(p, hero, item, delta, again=True), hero=hero, item=item,
              delta=delta)
        _announce_reach(p, hero)
        return
    if not item.startswith(COMPANION_PREFIX):
        p.exhaust_items(hero, [item])
    if action.target is not None:
        owner = p.st.items[action.target][0]
        assert owner is not None
        p.exhaust_items(owner, [action.target])
    if action.refresh is not None:
        p.refresh_items(hero, [action.refresh])
    p.set(roll=replace(roll, uses=roll.uses + ((item, delta),)))
    p.say("use", _used(p, hero, item, delta, again=False), hero=hero, item=item, delta=delta)
    _announce_reach(p, hero)


def _used(p: Play, hero: str, item: str, delta: int, again: bool) -> Said:
    """ "knight adds 4 with knight's sword: the result is 9." """
    assert p.st.roll is not None
    params = dict(hero=p.hero(hero), amount=abs(delta), item=words(p.pack, item),
                  result=p.st.roll.result)
    if again and delta > 0:
        # TRANSLATORS: a second tap changed how an item changes the roll; hero is the hero,
        # amount a number, item the item ("the mood ring"), result the roll now
        return msg("%(hero)s now adds %(amount)s with %(item)s: the result is %(result)s.",
                   **params)
    if again:
        # TRANSLATORS: as above, taking away instead of adding
        return msg("%(hero)s now subtracts %(amount)s with %(item)s: the result is %(result)s.",
                   **params)
    if delta > 0:
        # TRANSLATORS: hero adds amount to the roll with item ("knight's sword"); result is the
        # roll now
        return msg("%(hero)s adds %(amount)s with %(item)s: the result is %(result)s.",
                   **params)
    # TRANSLATORS: as above, taking away instead of adding
    return msg("%(hero)s subtracts %(amount)s with %(item)s: the result is %(result)s.",
               **params)


def not_yours(pack: Pack, item: str, owner: str | None, hero: str) -> Said:
    """Refused: the item is someone else's (or still in the supply)."""
    if owner is None:
        # TRANSLATORS: refused: item ("the bee cannon") is still in the supply, not hero's
        return msg("%(item)s is still in the supply, not with %(hero)s.",
                   item=words(pack, item), hero=named.hero(pack, hero))
    # TRANSLATORS: refused: item belongs to owner (a hero), not to hero
    return msg("%(item)s belongs to %(owner)s, not %(hero)s.", item=words(pack, item),
               owner=named.hero(pack, owner), hero=named.hero(pack, hero))


def _announce_reach(p: Play, hero: str) -> None:
    roll = p.st.roll
    if roll is not None and roll.purpose == Purpose.MOVE:
        reach = board.destinations(p.st, hero, roll.result)
        p.say("reach", _reach_text(p, hero, roll.result, reach), hero=hero, result=roll.result,
              spaces=reach)


def _card_number(item: str) -> int | None:
    tail = item[len(COMPANION_PREFIX):]
    return int(tail) if tail.isascii() and tail.isdigit() else None


def _second_item(chosen: str | None, options: list[str], needs: Said, bad: Said) -> str | None:
    """The other item a magic item's effect names: required when there is one to name."""
    if chosen is None:
        if options:
            raise reject("needs-target", needs)
        return None
    if chosen not in options:
        raise reject("bad-target", bad)
    return chosen


def _move(p: Play, action: Move) -> None:
    st = p.st
    hero = st.current
    assert st.roll is not None
    reach = board.destinations(st, hero, st.roll.result)
    here = st.positions[hero]
    if not reach:
        if action.to != here:
            # TRANSLATORS: refused: result is the roll, space where hero stands
            raise reject("cannot-reach", msg("A result of %(result)s cannot be moved in full "
                                             "from %(space)s: %(hero)s stays on %(space)s.",
                                             result=st.roll.result, space=p.space(here),
                                             hero=p.hero(hero)))
        p.set(roll=None, phase=Phase.BUSY, ask=None)
        # TRANSLATORS: hero does not move; space is where they stand
        p.say("move", msg("%(hero)s stays on %(space)s.", hero=p.hero(hero),
                          space=p.space(here)), hero=hero, space=here)
        return
    if action.to not in reach:
        # TRANSLATORS: refused: result is the roll, space the space asked for, spaces those the
        # roll reaches
        raise reject("cannot-reach", msg("A result of %(result)s does not reach %(space)s; it "
                                         "reaches %(spaces)s.", result=st.roll.result,
                                         space=p.space(action.to),
                                         spaces=named.spaces(p.pack, reach)))
    p.place(hero, action.to)
    p.set(roll=None, phase=Phase.BUSY, ask=None)
    if action.to == here:
        # TRANSLATORS: hero does not move; space is where they stand
        said = msg("%(hero)s stays on %(space)s.", hero=p.hero(hero), space=p.space(here))
    else:
        # TRANSLATORS: hero moves their figure; space is where to
        said = msg("%(hero)s moves to %(space)s.", hero=p.hero(hero), space=p.space(action.to))
    p.say("move", said, hero=hero, space=action.to)
    p.activate(hero, action.to)


def _resolve(p: Play) -> None:
    st = p.st
    roll = st.roll
    assert roll is not None
    target = p.roll_target()
    success = roll.result >= target
    if success:
        # TRANSLATORS: a roll taken; result is the roll, target the number it had to reach
        said = msg("%(result)s against %(target)s: success.", result=roll.result, target=target)
    else:
        # TRANSLATORS: as above, the roll fell short
        said = msg("%(result)s against %(target)s: failure.", result=roll.result, target=target)
    p.say("check", said, result=roll.result, target=target, success=success)
    p.set(roll=None)
    hero = st.ask_of(Ask).hero
    if roll.purpose == Purpose.ADVENTURE:
        step = st.ask_of(StepAsk)
        if success:
            p.step_done(hero, step.adventure, step.step)
        else:
            p.step_failed(hero, step.adventure)
    elif roll.purpose == Purpose.CASTLE:
        if success:
            p.castle_won(hero, st.ask_of(CastleAsk).section)
        else:
            # TRANSLATORS: hero lost a fight in the castle
            p.say("castle", msg("%(hero)s is thrown back to the courtyard.", hero=p.hero(hero)),
                  hero=hero)
            p.set(phase=Phase.BUSY, ask=None, todo=())
    else:
        p.challenge_done(success)


def _shortcut(p: Play) -> None:
    """'If the next space on the board shows an item that you have available, you may enter
    that space without rolling! (You do not need to exhaust that item.)' Likewise a
    companion you have."""
    helper = p.shortcut_help()
    if helper is None:
        # TRANSLATORS: refused: no item or companion the hero has opens the next space
        raise reject("no-shortcut", msg("Nothing lets the hero into the next space without "
                                        "rolling: roll for it."))
    hero = p.st.ask_of(Ask).hero
    # TRANSLATORS: helper is an item or companion ("the axe") that lets hero pass
    p.say("shortcut", msg("%(helper)s lets %(hero)s in without rolling.", helper=helper,
                          hero=p.hero(hero)), hero=hero)
    if p.st.phase == Phase.ADVENTURE:
        step = p.st.ask_of(StepAsk)
        p.step_done(hero, step.adventure, step.step)
    else:
        p.castle_won(hero, p.st.ask_of(CastleAsk).section)


def _choose_items(p: Play, hero: str, items: tuple[str, ...], pool: list[str], most: int,
                  exhausted: bool) -> None:
    if len(set(items)) != len(items):
        # TRANSLATORS: refused: the same item chosen twice
        raise reject("bad-items", msg("An item is named twice."))
    wrong = [i for i in items if i not in pool]
    if wrong:
        if exhausted:
            # TRANSLATORS: refused: item is not among hero's exhausted items
            said = msg("%(item)s is not one of the exhausted items of %(hero)s.",
                       item=words(p.pack, wrong[0]), hero=p.hero(hero))
        else:
            # TRANSLATORS: refused: item is not among hero's available items
            said = msg("%(item)s is not one of the available items of %(hero)s.",
                       item=words(p.pack, wrong[0]), hero=p.hero(hero))
        raise reject("bad-items", said)
    if len(items) > most:
        # TRANSLATORS: refused: too many items chosen; n is the most
        raise reject("too-many", msg_n("%(hero)s may choose at most %(n)s item here.",
                                       "%(hero)s may choose at most %(n)s items here.", most,
                                       hero=p.hero(hero)))


def _nap(p: Play, action: Nap) -> None:
    """'Instead of moving, you can take a heroic nap. Refresh up to five of your items
    (including magic items) and then end your turn.'"""
    hero = p.st.current
    most = p.pack.heroes[hero].nap
    _choose_items(p, hero, action.items, p.st.exhausted(hero), most, True)
    # TRANSLATORS: hero rests instead of moving
    p.say("nap", msg("%(hero)s takes a heroic nap.", hero=p.hero(hero)), hero=hero)
    p.refresh_items(hero, action.items)
    p.set(phase=Phase.BUSY, ask=None)


def _castle(p: Play) -> None:
    hero = p.st.current
    if not p.st.in_courtyard(hero):
        # TRANSLATORS: refused: hero cannot enter the castle yet
        raise reject("not-in-courtyard", msg("%(hero)s must reach the courtyard first: all "
                                             "three key pieces, then a whirlpool.",
                                             hero=p.hero(hero)))
    # TRANSLATORS: hero starts the final battle
    p.say("castle", msg("%(hero)s enters the Demon King's castle.", hero=p.hero(hero)),
          hero=hero)
    p.castle_section(hero, 0)


def _refresh(p: Play, action: Refresh) -> None:
    ask = p.st.ask_of(CountAsk)
    hero, count = ask.hero, ask.count
    _choose_items(p, hero, action.items, p.st.exhausted(hero), count, True)
    p.refresh_items(hero, action.items)
    p.set(phase=Phase.BUSY, ask=None)


def _exhaust(p: Play, action: Exhaust) -> None:
    ask = p.st.ask_of(CountAsk)
    hero, count = ask.hero, ask.count
    _choose_items(p, hero, action.items, p.st.available(hero), count, False)
    if len(action.items) != count:
        # TRANSLATORS: refused: hero must choose exactly n items
        raise reject("exhaust-count", msg_n("%(hero)s must exhaust exactly %(n)s item.",
                                            "%(hero)s must exhaust exactly %(n)s items.", count,
                                            hero=p.hero(hero)))
    p.exhaust_items(hero, action.items)
    p.set(phase=Phase.BUSY, ask=None)


def _draw(p: Play, action: Draw) -> None:
    hero = p.st.ask_of(Ask).hero
    n = action.card
    if n is None:
        # TRANSLATORS: refused: the card must be tapped on the reader
        raise reject("tap-the-card", msg("Draw the top event card and tap it."))
    if not 1 <= n <= len(p.pack.cards):
        # TRANSLATORS: refused: a card of another pack
        raise reject("unknown-card", msg("That card is not one of this game's event cards."))
    if n not in p.st.deck:
        holder = next((h for h, cs in p.st.companions.items() if n in cs), None)
        if holder:
            # TRANSLATORS: refused: card (its name) is kept by hero as a companion
            said = msg("%(card)s is with %(hero)s as a companion, not in the deck.",
                       card=named.card(p.pack, n), hero=p.hero(holder))
        else:
            # TRANSLATORS: refused: card (its name) was drawn already
            said = msg("%(card)s is in the discard pile, not in the deck.",
                       card=named.card(p.pack, n))
        raise reject("not-in-deck", said)
    p.set(phase=Phase.BUSY, ask=None)
    p.resolve_card(hero, n)


def _assign(p: Play, action: Assign) -> None:
    if action.hero not in p.st.players:
        # TRANSLATORS: refused: hero is a hero nobody plays
        raise reject("unknown-hero", msg("%(hero)s is not playing.", hero=p.hero(action.hero)))
    if action.hero == p.st.demon:
        # TRANSLATORS: refused: hero has the Demon die already
        raise reject("already-has-demon-die", msg("%(hero)s has the Demon die already; it goes "
                                                  "to a hero who does not have it.",
                                                  hero=p.hero(action.hero)))
    p.set(phase=Phase.BUSY, ask=None)
    p.assign(action.hero)


def _take_magic(p: Play, action: TakeMagic) -> None:
    name = action.item.removeprefix(MAGIC_PREFIX)
    if name not in MAGIC_ITEMS:
        # TRANSLATORS: refused: a piece that is no magic item
        raise reject("unknown-item", msg("That is not a magic item."))
    if name not in p.supply():
        # TRANSLATORS: refused: item ("the bee cannon") is taken already
        raise reject("not-in-supply", msg("%(item)s is not in the supply.",
                                          item=words(p.pack, MAGIC_PREFIX + name)))
    hero = p.st.ask_of(Ask).hero
    p.set(phase=Phase.BUSY, ask=None)
    p.take_magic(hero, name)


def _steal(p: Play, action: Steal) -> None:
    hero = p.st.ask_of(Ask).hero
    if action.item not in p.steal_options(hero):
        # TRANSLATORS: refused: item is not another hero's ready item
        raise reject("bad-target", msg("%(item)s is not another hero's available item.",
                                       item=words(p.pack, action.item)))
    p.set(phase=Phase.BUSY, ask=None)
    p.steal(hero, action.item)


def _sweep(p: Play, action: Sweep) -> None:
    if action.hero not in p.st.players or p.st.in_courtyard(action.hero):
        # TRANSLATORS: refused: hero is not on the kingdom's boards
        raise reject("unknown-hero", msg("%(hero)s is not a hero in the kingdom.",
                                         hero=p.hero(action.hero)))
    wid = p.st.ask_of(SweepAsk).whirlpool
    p.set(phase=Phase.BUSY, ask=None)
    p.sweep(action.hero, wid)


def _take_key(p: Play, action: TakeKey) -> None:
    ask = p.st.ask_of(KeyAsk)
    hero, colour = ask.hero, ask.colour
    if action.piece not in p.st.keys:
        # TRANSLATORS: refused: a key piece this game does not have
        raise reject("unknown-piece", msg("That key piece is not one of this game's."))
    if not action.piece.startswith(colour + "/"):
        # TRANSLATORS: refused: hero earned a piece of colour, and tapped one of another colour
        raise reject("wrong-colour", msg("%(hero)s earned a %(colour)s key piece, not a "
                                         "%(other)s one.", hero=p.hero(hero),
                                         colour=named.colour(colour),
                                         other=named.colour(action.piece.split("/")[0])))
    if p.st.keys[action.piece] is not None:
        # TRANSLATORS: refused: that key piece belongs to owner (a hero) already
        raise reject("not-in-pile", msg("That key piece is with %(owner)s already.",
                                        owner=p.hero(p.st.keys[action.piece])))
    keys = dict(p.st.keys)
    keys[action.piece] = hero
    p.set(keys=keys, phase=Phase.BUSY, ask=None)
    # TRANSLATORS: hero takes a key piece of colour; n is how many colours of 3 they have now
    p.say("key", msg("%(hero)s takes the %(colour)s key piece, %(n)s of 3.", hero=p.hero(hero),
                     colour=named.colour(colour), n=len(p.st.key_colours(hero))),
          hero=hero, piece=action.piece)


def _courtyard(p: Play, action: Courtyard) -> None:
    hero = p.st.ask_of(Ask).hero
    free = p.free_courtyard()
    if action.space not in free:
        # TRANSLATORS: refused: space is taken or not in the courtyard; free the free ones
        raise reject("not-free", msg("%(space)s is not a free courtyard space; free: "
                                     "%(free)s.", space=p.space(action.space),
                                     free=named.spaces(p.pack, free)))
    p.set(phase=Phase.BUSY, ask=None)
    p.land_in_courtyard(hero, action.space)


# the choices a phase waits for, each taken by one kind of action
_CHOICES: dict[tuple[type[Action], Phase], Callable[[Play, Any], None]] = {
    (Refresh, Phase.REFRESH): _refresh, (Exhaust, Phase.EXHAUST): _exhaust,
    (Draw, Phase.EVENT): _draw, (Assign, Phase.DEMON_DIE): _assign,
    (TakeMagic, Phase.MAGIC): _take_magic, (Steal, Phase.STEAL): _steal,
    (Sweep, Phase.SWEEP): _sweep, (TakeKey, Phase.KEY): _take_key,
    (Courtyard, Phase.COURTYARD): _courtyard,
}
