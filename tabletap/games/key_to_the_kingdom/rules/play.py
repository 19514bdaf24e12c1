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

from tabletap.controller.rules.base import Event, Rejection, chance
from tabletap.games.key_to_the_kingdom.rules import actions as act
from tabletap.games.key_to_the_kingdom.rules import board
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
from tabletap.games.key_to_the_kingdom.rules.pack import MAGIC_ITEMS, Effect
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

ROLL_PHASES = (Phase.ADVENTURE, Phase.CASTLE, Phase.CHALLENGE)
ROLLING = (Phase.FIRST_ROLL, Phase.TURN, *ROLL_PHASES)  # the phases a Roll is taken in
PURPOSE = {Phase.TURN: Purpose.MOVE, Phase.ADVENTURE: Purpose.ADVENTURE,
           Phase.CASTLE: Purpose.CASTLE, Phase.CHALLENGE: Purpose.CHALLENGE}
WHAT_NOW = {
    Phase.FIRST_ROLL: "each hero rolls their die to see who goes first",
    Phase.TURN: "the hero whose turn it is rolls to move or takes a heroic nap",
    Phase.ROLL: "the roll may be changed with an item, then the move or the step is taken",
    Phase.ADVENTURE: "the hero on the adventure rolls for the next step (or takes a shortcut)",
    Phase.CASTLE: "the hero in the castle rolls against the Demon King's token",
    Phase.CHALLENGE: "the hero rolls against the target",
    Phase.REFRESH: "the hero chooses the items to refresh",
    Phase.EXHAUST: "the hero chooses the items to exhaust",
    Phase.EVENT: "the top event card is drawn and tapped",
    Phase.DEMON_DIE: "the Demon die goes to a hero who does not have it",
    Phase.MAGIC: "the hero chooses a magic item from the supply",
    Phase.STEAL: "the hero chooses another hero's item to steal",
    Phase.SWEEP: "the hero chooses who the whirlpool sweeps away",
    Phase.KEY: "the hero takes a key piece from the pile",
    Phase.COURTYARD: "the hero chooses a free space in the courtyard",
    Phase.OVER: "nothing: the game is over",
}


def _is(name: str) -> str:
    """"the coffee beans are", "the bee cannon is"."""
    return "are" if name.endswith("s") else "is"


def reject(code: str, message: str) -> Rejection:
    return Rejection(code, message)


def nice(name: str) -> str:
    return name.replace("-", " ")


def words(item: str) -> str:
    """An item as the play-by-play and the voice say it: `knight/sword` -> "knight's sword",
    `magic/bee-cannon` -> "the bee cannon", `event/7` -> "companion card 7"."""
    head, _, tail = item.partition("/")
    if head == "magic":
        return f"the {nice(tail)}"
    if head == "event":
        return f"companion card {tail}"
    return f"{head}'s {nice(tail)}" if tail else item


def items_word(count: int) -> str:
    """"1 item", "2 items": the voice reads "item(s)" badly."""
    return f"{count} item" if count == 1 else f"{count} items"


def _them(count: int) -> str:
    return "it" if count == 1 else "them"


def listed(items: list[str] | tuple[str, ...]) -> str:
    return ", ".join(words(i) for i in items)


class Play:
    def __init__(self, state: KttkState) -> None:
        self.st = state
        self.pack = state.pack
        self.events: list[Event] = []

    # -- small state edits ------------------------------------------------------------------

    def set(self, **changes: Any) -> None:
        self.st = self.st.replaced(**changes)

    def say(self, kind: str, text: str, **data: Any) -> None:
        self.events.append(Event(kind, text, data))

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
            self.say("move", f"{hero} goes to {task.space}.", hero=hero, space=task.space)
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
        where = ("in the courtyard" if self.st.in_courtyard(player)
                 else f"on {self.st.positions[player]}")
        self.say("turn", f"{player}'s turn ({where}).", player=player)

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
            self.say("boring", f"{space}: nothing happens. Really. Totally dull.", space=space)

    def offer_refresh(self, hero: str, count: int) -> None:
        tired = self.st.exhausted(hero)
        if not tired:
            self.say("refresh", f"{hero} has no exhausted item to refresh.", hero=hero)
        elif len(tired) <= count:
            self.refresh_items(hero, tired)
        else:
            self.decide(Phase.REFRESH, CountAsk(hero, count))
            self.say("ask", f"{hero} may refresh up to {items_word(count)}: tap "
                     f"{_them(count)}, then press end-turn.", hero=hero, count=count)

    def refresh_items(self, hero: str, items: list[str] | tuple[str, ...]) -> None:
        new = dict(self.st.items)
        for item in items:
            new[item] = (hero, False)
        self.set(items=new)
        if items:
            self.say("refresh", f"{hero} refreshes {listed(items)}.", hero=hero,
                     items=list(items))

    def offer_exhaust(self, hero: str, count: int) -> None:
        ready = self.st.available(hero)
        if len(ready) <= count:
            self.exhaust_items(hero, ready)
        else:
            self.decide(Phase.EXHAUST, CountAsk(hero, count))
            self.say("ask", f"{hero} must exhaust {items_word(count)}: tap {_them(count)}.",
                     hero=hero)

    def exhaust_items(self, hero: str, items: list[str] | tuple[str, ...]) -> None:
        new = dict(self.st.items)
        for item in items:
            new[item] = (new[item][0], True)
        self.set(items=new)
        if items:
            self.say("exhaust", f"{hero} exhausts {listed(items)}.", hero=hero,
                     items=list(items))
        else:
            self.say("exhaust", f"{hero} has no available item to exhaust.", hero=hero)

    def event_space(self, hero: str) -> None:
        if not self.st.deck:
            # "If the event deck is empty, first shuffle the discard pile."
            self.set(deck=self.shuffled(self.st.discard), discard=())
            self.say("reshuffle", "The event deck is empty: the discard pile is shuffled.")
        if not self.st.deck:
            self.say("event", "Every event card is kept as a companion: nothing to draw.")
            return
        if self.st.digital_events:
            self.resolve_card(hero, self.st.deck[0])
        else:
            self.decide(Phase.EVENT, Ask(hero))
            self.say("ask", f"{hero}: draw the top event card and tap it.", hero=hero)

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
        self.say("event", f"{hero} draws event {n}, {nice(card.name)}: {card.text}",
                 hero=hero, card=n, name=card.name)
        if card.kind == "companion":
            comps = dict(self.st.companions)
            comps[hero] = comps[hero] + (n,)
            self.set(companions=comps)
            self.say("companion", f"{nice(card.name)} joins {hero}.", hero=hero, card=n)
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
            self.say("ask", "Give the Demon die to a hero who does not have it: tap the die, "
                     "then their figure.", heroes=who)

    def assign(self, hero: str) -> None:
        """'The hero assigned the Demon die places their hero die on the Demon King's throne
        and will not get it back until the Demon die is assigned to another hero.'"""
        before = self.st.demon
        self.set(demon=hero)
        back = f" {before} gets their own die back." if before else ""
        self.say("demon-die", f"The Demon die goes to {hero}; {hero}'s die goes to the "
                 f"throne.{back}", hero=hero, previous=before)

    def supply(self) -> list[str]:
        return [m for m in MAGIC_ITEMS if self.st.items[MAGIC_PREFIX + m][0] is None]

    def offer_magic(self, hero: str, which: str) -> None:
        left = self.supply()
        if which != "any":
            left = [m for m in left if m == which]
        if not left:
            what = "No magic item is" if which == "any" else f"The {nice(which)} {_is(which)} not"
            self.say("magic", f"{what} left in the supply.", hero=hero)
        elif len(left) == 1:
            self.take_magic(hero, left[0])
        else:
            self.decide(Phase.MAGIC, Ask(hero))
            self.say("ask", f"{hero} chooses a magic item: tap it.", hero=hero, items=left)

    def take_magic(self, hero: str, name: str) -> None:
        self.put_item(MAGIC_PREFIX + name, hero, False)
        self.say("magic", f"{hero} takes the {nice(name)}.", hero=hero, item=name)

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
                self.say("domain", f"{hero} needs all three key pieces to enter the Demon "
                         "King's domain: nothing happens.", hero=hero)
        elif name == "roll":
            self.decide(Phase.CHALLENGE, ChallengeAsk(hero, source, value["target"],
                                                      tuple(value["success"]),
                                                      tuple(value["fail"])))
            self.say("ask", f"{hero}: roll {value['target']} or more.", hero=hero,
                     target=value["target"])

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
            self.say("steal", "No other hero has an available item to steal.", hero=hero)
        elif len(options) == 1:
            self.steal(hero, options[0])
        else:
            self.decide(Phase.STEAL, Ask(hero))
            self.say("ask", f"{hero} steals an item: tap another hero's available item.",
                     hero=hero)

    def steal(self, hero: str, item: str) -> None:
        owner = self.st.items[item][0]
        self.put_item(item, hero, self.st.items[item][1])
        self.say("steal", f"{hero} steals {words(item)} from {owner}.", hero=hero, item=item,
                 owner=owner)

    def offer_sweep(self, hero: str, whirlpools: list[str]) -> None:
        shown = [w for w in whirlpools if self.st.shown(self.pack.whirlpools[w].space)]
        who = [p for p in self.st.players if not self.st.in_courtyard(p)]
        if not shown or not who:
            self.say("sweep", "The whirlpool is folded away: nothing happens.", hero=hero)
        elif len(who) == 1:
            self.sweep(who[0], shown[0])
        else:
            self.decide(Phase.SWEEP, SweepAsk(hero, shown[0]))
            self.say("ask", f"{hero} chooses who is swept into the whirlpool: tap their "
                     "figure.", hero=hero, heroes=who)

    def sweep(self, victim: str, wid: str) -> None:
        space = self.pack.whirlpools[wid].space
        self.place(victim, space)
        self.say("sweep", f"{victim} is swept into the whirlpool on {space}.", hero=victim,
                 space=space)
        self.enter_whirlpool(victim, wid)

    # -- whirlpools, flips, the courtyard -----------------------------------------------------

    def enter_whirlpool(self, hero: str, wid: str) -> None:
        """'If you have all three key pieces, a whirlpool will take you to the Demon King board
        for the final battle.' Otherwise the atlas entry flips a land."""
        w = self.pack.whirlpools[wid]
        if len(self.st.key_colours(hero)) == 3:
            self.say("whirlpool", f"{hero} holds the whole key: the whirlpool leads to the "
                     "Demon King's courtyard!", hero=hero)
            self.to_courtyard(hero)
            return
        self.say("whirlpool", f"{hero} enters the whirlpool on {w.space}.", hero=hero,
                 whirlpool=wid)
        self.flip(w.flip, hero, w.to)

    def flip(self, flap: str, mover: str | None = None, to: str | None = None) -> None:
        f = self.pack.flaps[flap]
        old = self.st.flaps[flap]
        new = "open" if old == "closed" else "closed"
        hidden, shown = (f.closed, f.open) if new == "open" else (f.open, f.closed)
        flaps = dict(self.st.flaps)
        flaps[flap] = new
        self.set(flaps=flaps)
        self.say("flip", f"The {flap} board {'unfolds' if new == 'open' else 'folds'}: "
                 f"{nice(hidden)} is hidden and {nice(shown)} appears.", flap=flap, side=new)
        if mover is not None and to is not None and self.st.shown(to):
            # (a pack whose `to` is folded away leaves the mover to the voids, like the others;
            # the content check reports it)
            self.place(mover, to)
            self.say("move", f"{mover} comes out on {to}.", hero=mover, space=to)
        # "Other heroes may be affected when a land flips." / "Heroes affected when a land
        # flips place their figure on a void space."
        order = self.st.players[self.st.turn:] + self.st.players[:self.st.turn]
        affected = [h for h in order if self.pack.spaces[self.st.positions[h]].land == hidden]
        taken = {self.st.positions[h] for h in self.st.players if h not in affected}
        for hero in affected:
            spot = board.landing_for_displaced(self.st, shown, taken)
            taken.add(spot)
            self.place(hero, spot)
            self.say("void", f"{hero}'s land folds away: {hero} goes to {spot}.", hero=hero,
                     space=spot)

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
            self.say("ask", f"{hero} chooses a free courtyard space.", hero=hero, spaces=free)

    def free_courtyard(self) -> list[str]:
        taken = set(self.st.positions.values())
        return [s for s in self.pack.courtyard if s not in taken]

    def land_in_courtyard(self, hero: str, space: str) -> None:
        self.place(hero, space)
        self.say("courtyard", f"{hero} arrives in the Demon King's courtyard on {space}.",
                 hero=hero, space=space)
        self.activate(hero, space)

    # -- adventures -------------------------------------------------------------------------------

    def start_adventure(self, hero: str, aid: str) -> None:
        adv = self.pack.adventures[aid]
        if adv.kind == "key":
            if adv.colour in self.st.key_colours(hero):
                # "You may not start a key adventure if you already have a key piece of that
                # color."
                self.say("adventure", f"{hero} already has the {adv.colour} key piece: "
                         f"{nice(aid)} cannot be started.", hero=hero)
                return
            self.say("adventure", f"{hero} starts {nice(aid)} ({adv.colour} key).",
                     hero=hero, adventure=aid)
            self.next_step(hero, aid, 0)
            return
        self.say("adventure", f"{hero} starts {nice(aid)}: roll {adv.target} or more.",
                 hero=hero, adventure=aid, target=adv.target)
        self.decide(Phase.CHALLENGE, ChallengeAsk(hero, aid, adv.target, adv.on_success,
                                                  adv.on_fail, adv.leave_success,
                                                  adv.leave_fail))

    def next_step(self, hero: str, aid: str, step: int) -> None:
        """Read out the atlas step: its target, and the shortcut that applies to this hero."""
        adv = self.pack.adventures[aid]
        st = adv.steps[step]
        self.decide(Phase.ADVENTURE, StepAsk(hero, aid, step))
        helper = self.shortcut_help()
        if helper is not None:
            extra = f", or tap {helper} to go in without rolling"
        elif st.item or st.companion:
            shown = " or ".join(f"the {nice(x)}" for x in (st.item, st.companion) if x)
            extra = f" ({shown} would let {hero} in without rolling)"
        else:
            extra = ""
        self.say("step", f"{nice(aid)}, step {step + 1} of {len(adv.steps)}: roll {st.target} "
                 f"or more{extra}.", hero=hero, adventure=aid, step=step + 1,
                 target=st.target, item=st.item, companion=st.companion,
                 shortcut=helper is not None)

    def step_done(self, hero: str, aid: str, step: int) -> None:
        adv = self.pack.adventures[aid]
        if step + 1 < len(adv.steps):
            self.next_step(hero, aid, step + 1)
            return
        # "You complete a key adventure when your figure reaches the end space ... Take the
        # piece from the supply that matches the color of the adventure."
        self.say("adventure", f"{hero} completes {nice(aid)}!", hero=hero, adventure=aid)
        self.set(phase=Phase.BUSY, ask=None)
        assert adv.colour is not None  # a key adventure (the pack checks it)
        self.push(KeyTask(hero, adv.colour), GotoTask(hero, adv.leave_success))

    def step_failed(self, hero: str, aid: str) -> None:
        adv = self.pack.adventures[aid]
        self.say("adventure", f"{hero} fails {nice(aid)} and leaves it.", hero=hero,
                 adventure=aid)
        self.set(phase=Phase.BUSY, ask=None)
        self.push(GotoTask(hero, adv.leave_fail))

    def offer_key(self, hero: str, colour: str) -> None:
        pile = [k for k, who in self.st.keys.items() if who is None and k.startswith(colour)]
        if not pile:
            self.say("key", f"The {colour} key pile is empty: {hero} takes no piece.",
                     hero=hero)
            return
        self.decide(Phase.KEY, KeyAsk(hero, colour))
        self.say("ask", f"{hero}: take a {colour} key piece and tap it.", hero=hero,
                 colour=colour)

    def challenge_done(self, success: bool) -> None:
        ask = self.st.ask_of(ChallengeAsk)
        hero = ask.hero
        self.say("challenge", f"{hero} {'succeeds' if success else 'fails'}.", hero=hero,
                 success=success)
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
            name = self.pack.sections[section][0]
            self.say("castle", f"{name}: no token is left; {hero} climbs on.", hero=hero)
            section += 1
        if section == len(self.st.castle):
            self.set(winner=hero, phase=Phase.OVER, ask=None, todo=(), roll=None)
            self.say("win", f"{hero} defeats the Demon King and wins the game!",
                     winners=[hero])
            return
        token = self.pack.token(self.st.castle[section][0])
        if token.name not in self.st.revealed:
            self.set(revealed=self.st.revealed + (token.name,))
        self.decide(Phase.CASTLE, CastleAsk(hero, section, token.name))
        helper = self.shortcut_help()
        helps = (f", or tap {helper} to pass it without rolling" if helper else
                 f" (the {nice(token.item)} would pass it without rolling)" if token.item
                 else "")
        self.say("castle", f"{self.pack.sections[section][0]}: {nice(token.name)}, roll "
                 f"{token.target} or more{helps}.", hero=hero, section=section + 1,
                 token=token.name, target=token.target)

    def castle_won(self, hero: str, section: int) -> None:
        castle = list(self.st.castle)
        token = castle[section][0]
        castle[section] = castle[section][1:]
        self.set(castle=tuple(castle))
        self.say("castle", f"{hero} defeats the {nice(token)}.", hero=hero, token=token)
        self.castle_section(hero, section + 1)

    # -- checks shared by several actions ----------------------------------------------------------

    def hero_item(self, hero: str, kind: str) -> str | None:
        """An available item of this kind the hero holds (their own or stolen or magic)."""
        for item in self.st.available(hero):
            if self.st.item_kind(item) == kind:
                return item
        return None

    def shortcut_help(self) -> str | None:
        """What lets the hero into the next adventure or castle space without rolling."""
        if self.st.phase == Phase.ADVENTURE:
            step = self.st.ask_of(StepAsk)
            hero = step.hero
            st = self.pack.adventures[step.adventure].steps[step.step]
            if st.item and self.hero_item(hero, st.item):
                return f"the {nice(st.item)}"
            held = {self.pack.card(n).name for n in self.st.companions[hero]}
            if st.companion and st.companion in held:
                return f"the {nice(st.companion)}"
            return None
        ask = self.st.ask_of(CastleAsk)
        hero = ask.hero
        token = self.pack.token(ask.token)
        if token.item and self.hero_item(hero, token.item):
            return f"the {nice(token.item)}"
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
        raise reject("game-over", "The game is over; start a new one to play again.")
    p = Play(state)
    resolved = _dispatch(p, action)
    p.run()
    return p.st, resolved, p.events


def _not_now(state: KttkState, action: Action) -> Rejection:
    name = nice(act.action_to_json(action)["action"])
    return reject("not-now", f"That ({name}) cannot be done now: now "
                  f"{WHAT_NOW.get(state.phase, state.phase)}.")


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
        raise reject("in-courtyard", f"{hero} is in the Demon King's courtyard: enter the "
                     "castle or take a heroic nap.")
    die, faces = _die(p, hero)
    if action.value is None:
        if st.physical_dice:
            raise reject("enter-the-roll", f"{hero} rolls the real die: enter the number it "
                         "shows (the roll button only rolls digital dice).")
        value = p.draw_int("roll", faces)
    elif action.value not in faces:
        shown = ", ".join(map(str, sorted(set(faces))))
        raise reject("not-a-face", f"{'The Demon die' if die == 'demon' else 'A hero die'} "
                     f"has no face {action.value}; its faces are {shown}.")
    else:
        value = action.value
        p.set(chance=st.chance + 1)  # a drawn roll and the same roll replayed count alike
    what = "the Demon die" if die == "demon" else "their die"
    p.say("roll", f"{hero} rolls {what}: {value}.", hero=hero, die=die, value=value)
    if st.phase == Phase.FIRST_ROLL:
        _first_roll(p, hero, value)
        return Roll(value)
    purpose = PURPOSE[st.phase]
    powers = p.pack.heroes[hero]
    bonus = {Purpose.ADVENTURE: powers.adventure_bonus, Purpose.CHALLENGE:
             powers.challenge_bonus, Purpose.CASTLE: powers.castle_bonus}.get(purpose, 0)
    if bonus:
        p.say("power", f"{hero}'s power adds {bonus}.", hero=hero, bonus=bonus)
    # a move roll asks the hero whose turn it is; a step's roll keeps the step's ask
    p.set(phase=Phase.ROLL, roll=RollInProgress(purpose, die, value, (), bonus),
          ask=Ask(hero) if purpose == Purpose.MOVE else st.ask)
    if purpose == Purpose.MOVE:
        reach = board.destinations(p.st, hero, p.st.roll.result)
        p.say("reach", _reach_text(hero, p.st.roll.result, reach), hero=hero,
              result=p.st.roll.result, spaces=reach)
    else:
        target = p.roll_target()
        p.say("ask", _check_text(p.st.roll.result, target), hero=hero,
              result=p.st.roll.result, target=target)
    return Roll(value)


def _reach_text(hero: str, result: int, reach: list[str]) -> str:
    """What the family hears after a move roll: where it leads and which button takes it (an
    item may still change it first)."""
    if not reach:
        return (f"A result of {result} cannot be moved in full from here: {hero} stays. "
                "Press end-turn.")
    if result == 0:
        return (f"A result of 0: {hero} stays on {reach[0]}, which takes effect. Press "
                "end-turn.")
    if len(reach) == 1:
        return f"A result of {result} reaches {reach[0]}. Press end-turn to go there."
    return (f"A result of {result} reaches {', '.join(reach)}. Press end-turn to hear each "
            "one, hold it to go.")


def _check_text(result: int, target: int) -> str:
    """What the family hears after an adventure, challenge or castle roll."""
    return (f"{result} against {target}: press end-turn to take it, or tap an item to change "
            "it.")


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
        p.say("tie", f"{' and '.join(best)} tie with {top}: they roll again.", heroes=best)
        return
    first = best[0]
    p.set(turn=p.st.players.index(first), phase=Phase.TURN, ask=None, first_rolls={})
    p.say("turn", f"{first} rolled highest and takes the first turn.", player=first)


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
            raise reject("not-yours", f"{hero} has no companion card {item}.")
        card = st.pack.card(n)
        if not card.bonus:
            raise reject("no-bonus", f"{nice(card.name)} helps at adventure spaces, not with "
                         "rolls.")
        values: tuple[int, ...] = (card.bonus,)
        if item not in used and any(u.startswith(COMPANION_PREFIX) for u in used):
            raise reject("one-companion", "Only one companion may change a roll.")
    else:
        if item not in st.items:
            raise reject("unknown-item", f"There is no item {words(item)}.")
        owner, exhausted = st.items[item]
        if owner != hero:
            whose = "the supply" if owner is None else owner
            raise reject("not-yours", f"{words(item)} belongs to {whose}, not {hero}.")
        if exhausted and item not in used:
            raise reject("exhausted", f"{words(item)} is exhausted; refresh it before using it.")
        items_used = [u for u in used if not u.startswith(COMPANION_PREFIX)]
        if item not in used and items_used:
            sticky = MAGIC_PREFIX + "sticky-stick"
            if len(items_used) >= 2 or sticky not in (item, items_used[0]):
                raise reject("one-item", "Only one item may change a roll (the Sticky Stick "
                             "may join another item).")
        values = st.item_value(item)
    amount = action.amount if action.amount is not None else max(values)
    if amount not in values:
        raise reject("bad-amount", f"{words(item)} changes a roll by "
                     f"{' or '.join(map(str, values))}, not {amount}.")
    if item in used:
        if action.target or action.refresh:
            raise reject("already-used", f"{words(item)} is already used on this roll.")
        return action.sign * amount
    kind = st.item_kind(item) if not item.startswith(COMPANION_PREFIX) else ""
    if kind == "kind-of-evil-knife":
        # "When you exhaust this, also exhaust another hero's item."
        _second_item(action.target, Play(st).steal_options(hero),
                     "The Kind of Evil Knife also exhausts another hero's item: name (tap) it.",
                     f"{words(action.target or '')} is not another hero's available item.")
    elif action.target is not None:
        raise reject("bad-target", "Only the Kind of Evil Knife exhausts another hero's item.")
    if kind == "coffee-beans":
        # "When you exhaust this, refresh one of your other items."
        _second_item(action.refresh, [i for i in st.exhausted(hero) if i != item],
                     "The Magic Coffee Beans also refresh one of your other items: name (tap) "
                     "it.", f"{words(action.refresh or '')} is not one of {hero}'s other "
                     "exhausted items.")
    elif action.refresh is not None:
        raise reject("bad-target", "Only the Magic Coffee Beans refresh another item.")
    return action.sign * amount


def _use(p: Play, action: Use) -> None:
    """'You may use one of your available items to change the result of your roll. Exhaust
    the item you want to use and modify your result by adding or subtracting the exact
    number on the item.' Companions and the Sticky Stick as their cards say."""
    delta = check_use(p.st, action)
    roll = p.st.roll
    assert roll is not None
    hero, item = p.st.ask_of(Ask).hero, action.item
    verb = "adds" if delta > 0 else "subtracts"
    if item in dict(roll.uses):  # a second tap: the sign or amount only, nothing else again
        uses = tuple((i, delta if i == item else d) for i, d in roll.uses)
        p.set(roll=replace(roll, uses=uses))
        p.say("use", f"{hero} now {verb} {abs(delta)} with {_label(p.st, item)}: the result is "
              f"{p.st.roll.result}.", hero=hero, item=item, delta=delta)
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
    p.say("use", f"{hero} {verb} {abs(delta)} with {_label(p.st, item)}: the result is "
          f"{p.st.roll.result}.",
          hero=hero, item=item, delta=delta)
    _announce_reach(p, hero)


def _label(st: KttkState, item: str) -> str:
    """An item in words; a companion card by its name ("the wandering bard")."""
    if item.startswith(COMPANION_PREFIX):
        n = _card_number(item)
        if n is not None and 1 <= n <= len(st.pack.cards):
            return f"the {nice(st.pack.card(n).name)}"
    return words(item)


def _announce_reach(p: Play, hero: str) -> None:
    roll = p.st.roll
    if roll is not None and roll.purpose == Purpose.MOVE:
        reach = board.destinations(p.st, hero, roll.result)
        p.say("reach", _reach_text(hero, roll.result, reach), hero=hero, result=roll.result,
              spaces=reach)


def _card_number(item: str) -> int | None:
    tail = item[len(COMPANION_PREFIX):]
    return int(tail) if tail.isascii() and tail.isdigit() else None


def _second_item(chosen: str | None, options: list[str], needs: str, bad: str) -> str | None:
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
            raise reject("cannot-reach", f"A result of {st.roll.result} cannot be moved in full "
                         f"from {here}: {hero} stays on {here}.")
        p.set(roll=None, phase=Phase.BUSY, ask=None)
        p.say("move", f"{hero} stays on {here}.", hero=hero, space=here)
        return
    if action.to not in reach:
        raise reject("cannot-reach", f"A result of {st.roll.result} does not reach "
                     f"{action.to}; it reaches {', '.join(reach)}.")
    p.place(hero, action.to)
    p.set(roll=None, phase=Phase.BUSY, ask=None)
    verb = "stays on" if action.to == here else "moves to"
    p.say("move", f"{hero} {verb} {action.to}.", hero=hero, space=action.to)
    p.activate(hero, action.to)


def _resolve(p: Play) -> None:
    st = p.st
    roll = st.roll
    assert roll is not None
    target = p.roll_target()
    success = roll.result >= target
    p.say("check", f"{roll.result} against {target}: {'success' if success else 'failure'}.",
          result=roll.result, target=target, success=success)
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
            p.say("castle", f"{hero} is thrown back to the courtyard.", hero=hero)
            p.set(phase=Phase.BUSY, ask=None, todo=())
    else:
        p.challenge_done(success)


def _shortcut(p: Play) -> None:
    """'If the next space on the board shows an item that you have available, you may enter
    that space without rolling! (You do not need to exhaust that item.)' Likewise a
    companion you have."""
    helper = p.shortcut_help()
    if helper is None:
        raise reject("no-shortcut", "Nothing lets the hero into the next space without "
                     "rolling: roll for it.")
    hero = p.st.ask_of(Ask).hero
    p.say("shortcut", f"{helper} lets {hero} in without rolling.", hero=hero)
    if p.st.phase == Phase.ADVENTURE:
        step = p.st.ask_of(StepAsk)
        p.step_done(hero, step.adventure, step.step)
    else:
        p.castle_won(hero, p.st.ask_of(CastleAsk).section)


def _choose_items(p: Play, hero: str, items: tuple[str, ...], pool: list[str], most: int,
                  what: str) -> None:
    if len(set(items)) != len(items):
        raise reject("bad-items", "An item is named twice.")
    wrong = [i for i in items if i not in pool]
    if wrong:
        raise reject("bad-items", f"{words(wrong[0])} is not one of {hero}'s {what} items.")
    if len(items) > most:
        raise reject("too-many", f"{hero} may choose at most {most} items here.")


def _nap(p: Play, action: Nap) -> None:
    """'Instead of moving, you can take a heroic nap. Refresh up to five of your items
    (including magic items) and then end your turn.'"""
    hero = p.st.current
    most = p.pack.heroes[hero].nap
    _choose_items(p, hero, action.items, p.st.exhausted(hero), most, "exhausted")
    p.say("nap", f"{hero} takes a heroic nap.", hero=hero)
    p.refresh_items(hero, action.items)
    p.set(phase=Phase.BUSY, ask=None)


def _castle(p: Play) -> None:
    hero = p.st.current
    if not p.st.in_courtyard(hero):
        raise reject("not-in-courtyard", f"{hero} must reach the courtyard (all three key "
                     "pieces, then a whirlpool) before entering the castle.")
    p.say("castle", f"{hero} enters the Demon King's castle.", hero=hero)
    p.castle_section(hero, 0)


def _refresh(p: Play, action: Refresh) -> None:
    ask = p.st.ask_of(CountAsk)
    hero, count = ask.hero, ask.count
    _choose_items(p, hero, action.items, p.st.exhausted(hero), count, "exhausted")
    p.refresh_items(hero, action.items)
    p.set(phase=Phase.BUSY, ask=None)


def _exhaust(p: Play, action: Exhaust) -> None:
    ask = p.st.ask_of(CountAsk)
    hero, count = ask.hero, ask.count
    _choose_items(p, hero, action.items, p.st.available(hero), count, "available")
    if len(action.items) != count:
        raise reject("exhaust-count", f"{hero} must exhaust exactly {items_word(count)}.")
    p.exhaust_items(hero, action.items)
    p.set(phase=Phase.BUSY, ask=None)


def _draw(p: Play, action: Draw) -> None:
    hero = p.st.ask_of(Ask).hero
    n = action.card
    if n is None:
        raise reject("tap-the-card", "Draw the top event card and tap it.")
    if not 1 <= n <= len(p.pack.cards):
        raise reject("unknown-card", f"There is no event card {n}; the deck has "
                     f"{len(p.pack.cards)}.")
    if n not in p.st.deck:
        holder = next((h for h, cs in p.st.companions.items() if n in cs), None)
        where = f"{holder}'s companion" if holder else "in the discard pile"
        raise reject("not-in-deck", f"Event card {n} is {where}, not in the deck.")
    p.set(phase=Phase.BUSY, ask=None)
    p.resolve_card(hero, n)


def _assign(p: Play, action: Assign) -> None:
    if action.hero not in p.st.players:
        raise reject("unknown-hero", f"{action.hero} is not playing.")
    if action.hero == p.st.demon:
        raise reject("already-has-demon-die", f"{action.hero} has the Demon die already; it "
                     "goes to a hero who does not have it.")
    p.set(phase=Phase.BUSY, ask=None)
    p.assign(action.hero)


def _take_magic(p: Play, action: TakeMagic) -> None:
    name = action.item.removeprefix(MAGIC_PREFIX)
    if name not in MAGIC_ITEMS:
        raise reject("unknown-item", f"There is no magic item {action.item}.")
    if name not in p.supply():
        raise reject("not-in-supply", f"The {nice(name)} is not in the supply.")
    hero = p.st.ask_of(Ask).hero
    p.set(phase=Phase.BUSY, ask=None)
    p.take_magic(hero, name)


def _steal(p: Play, action: Steal) -> None:
    hero = p.st.ask_of(Ask).hero
    if action.item not in p.steal_options(hero):
        raise reject("bad-target", f"{words(action.item)} is not another hero's available item.")
    p.set(phase=Phase.BUSY, ask=None)
    p.steal(hero, action.item)


def _sweep(p: Play, action: Sweep) -> None:
    if action.hero not in p.st.players or p.st.in_courtyard(action.hero):
        raise reject("unknown-hero", f"{action.hero} is not a hero in the kingdom.")
    wid = p.st.ask_of(SweepAsk).whirlpool
    p.set(phase=Phase.BUSY, ask=None)
    p.sweep(action.hero, wid)


def _take_key(p: Play, action: TakeKey) -> None:
    ask = p.st.ask_of(KeyAsk)
    hero, colour = ask.hero, ask.colour
    if action.piece not in p.st.keys:
        raise reject("unknown-piece", f"There is no key piece {action.piece}.")
    if not action.piece.startswith(colour + "/"):
        raise reject("wrong-colour", f"{hero} earned a {colour} key piece, not "
                     f"{action.piece}.")
    if p.st.keys[action.piece] is not None:
        raise reject("not-in-pile", f"Key piece {action.piece} is "
                     f"{p.st.keys[action.piece]}'s already.")
    keys = dict(p.st.keys)
    keys[action.piece] = hero
    p.set(keys=keys, phase=Phase.BUSY, ask=None)
    p.say("key", f"{hero} takes the {colour} key piece ({len(p.st.key_colours(hero))} of 3).",
          hero=hero, piece=action.piece)


def _courtyard(p: Play, action: Courtyard) -> None:
    hero = p.st.ask_of(Ask).hero
    free = p.free_courtyard()
    if action.space not in free:
        raise reject("not-free", f"{action.space} is not a free courtyard space; free: "
                     f"{', '.join(free)}.")
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
