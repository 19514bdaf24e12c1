"""Key to the Kingdom at the table: taps and the two buttons made into engine actions.

Any reader will do. What each input means depends on what the game waits for (the engine's
`phase`); docs/games/key-to-the-kingdom.md has the full table. In short:

    roll (button)       roll the die the hero must use (digital dice); in the courtyard, enter
                        the castle and roll. Physical dice: enter the roll (`do: {action: roll,
                        value: 5}`).
    item / magic token  on a roll: use it, adding its value; tap it again to subtract instead
                        (the Mood Ring cycles +2, -2, +1, -1). The Knife then waits for the
                        other hero's item, the Coffee Beans for the item to refresh. On an
                        adventure or castle step showing that item: the shortcut. While a
                        refresh, exhaust or nap is being chosen: picks the item.
    companion card      on a roll: its bonus; on a step showing that companion: the shortcut.
    end-turn, press     take the move (one landing space) or step through the landing spaces,
                        each named; take the adventure/castle/challenge roll as it stands;
                        finish choosing items to refresh.
    end-turn, hold      go to the landing space just named; at the start of a turn, a heroic
                        nap (with more than five exhausted items: tap the ones to refresh,
                        then press end-turn).
    event card          the card drawn (unless `digital_events`).
    Demon die, figure   tap the die, then the figure of the hero who receives it. A figure
                        alone chooses who a whirlpool sweeps away.
    key piece           the piece taken at the end of a key adventure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tabletap.controller.games.base import (
    ButtonPressed,
    GameTable,
    ManualAction,
    Pending,
    PieceLifted,
    PiecePlaced,
    TableInput,
)
from tabletap.controller.language.said import ListOf
from tabletap.controller.rules.base import Rejection
from tabletap.games.key_to_the_kingdom.rules import ENGINE, KttkEngine, KttkState, named
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
from tabletap.games.key_to_the_kingdom.rules.play import Play, not_yours, waiting_for, words
from tabletap.games.key_to_the_kingdom.rules.state import (
    COMPANION_PREFIX,
    MAGIC_PREFIX,
    Ask,
    CastleAsk,
    CountAsk,
    Phase,
    Purpose,
    StepAsk,
)
from tabletap.games.key_to_the_kingdom.words import msg, msg_n, msg_p

# one named group per kind of piece, holding the id the engine uses (`knight/sword`, `red/1`);
# the Demon die has no id and no group
PIECE = re.compile(
    r"^kttk/(?:item/(?P<item>[a-z0-9-]+/[a-z0-9-]+)|magic/(?P<magic>[a-z-]+)"
    r"|key/(?P<key>(?:red|green|blue)/\d+)|hero/(?P<hero>[a-z0-9-]+)|event/(?P<card>\d+)"
    r"|companion/(?P<companion>[a-z0-9-]+)|demon-die)$"
)
END_TURN, ROLL = "end-turn", "roll"
GESTURE_TIMEOUT = 10.0  # seconds a two-tap gesture (knife, beans, Demon die) waits


@dataclass
class KttkTable(GameTable):
    game: str = "key-to-the-kingdom"
    engine: KttkEngine = field(default=ENGINE)
    moment: tuple[Any, ...] = ()  # the game moment the half-made gesture belongs to
    choices: list[str] = field(default_factory=list)  # landing / courtyard spaces to cycle
    choice: int = -1
    picked: list[str] = field(default_factory=list)  # items chosen for a refresh or nap
    napping: bool = False
    waiting: str | None = None  # knife | beans | demon-die: the next tap completes it
    held: str | None = None  # the item whose second tap `waiting` waits for
    since: float = 0.0  # when `waiting` started
    timeout: float = GESTURE_TIMEOUT

    def piece_prefix(self) -> str:
        return "kttk"

    def seat_of(self, piece: str) -> str | None:
        """Set-up by game card: a hero figure tapped seats that hero (the player is the hero)."""
        m = PIECE.match(piece)
        return m["hero"] if m else None

    def interpret(self, state: Any, event: TableInput, now: float) -> Any | Pending | None:
        moment = (state.phase, state.turn_number, state.roll,
                  None if state.ask is None else state.ask.hero)
        if moment != self.moment:
            self._forget()
            self.moment = moment
        if self.waiting is not None and now - self.since >= self.timeout:
            self._forget()  # expire() reported it; a late tap starts afresh
        if isinstance(event, PieceLifted):
            return None
        if isinstance(event, ManualAction):
            self._forget()
            return self._manual(state, dict(event.data))
        if isinstance(event, ButtonPressed):
            return self._button(state, event)
        if isinstance(event, PiecePlaced):
            self.check_piece_game(event.piece)
            result = self._tap(state, event.piece)
            if self.waiting is not None and isinstance(result, Pending):
                self.since = now
            return result
        return None

    def expire(self, now: float) -> Rejection | None:
        if self.waiting is None or now - self.since < self.timeout:
            return None
        seconds = round(self.timeout)
        if self.waiting == "knife":
            # TRANSLATORS: a two-tap gesture ran out of time; n is a number of seconds
            said = msg_n("No tap came for the Knife's target within %(n)s second; tap again to "
                         "start over.", "No tap came for the Knife's target within %(n)s "
                         "seconds; tap again to start over.", seconds)
        elif self.waiting == "beans":
            # TRANSLATORS: as above, for the item the Coffee Beans refresh
            said = msg_n("No tap came for the item the Coffee Beans refresh within %(n)s second; "
                         "tap again to start over.", "No tap came for the item the Coffee Beans "
                         "refresh within %(n)s seconds; tap again to start over.", seconds)
        else:
            # TRANSLATORS: as above, for the hero who receives the Demon die
            said = msg_n("No tap came for the hero who receives the Demon die within %(n)s second; "
                         "tap again to start over.", "No tap came for the hero who receives the "
                         "Demon die within %(n)s seconds; tap again to start over.", seconds)
        self._forget()
        return Rejection("gesture-timeout", said)

    def accepted(self, action: Any) -> None:
        if isinstance(action, Roll):
            self.forced.pop("roll", None)

    def force(self, kind: str, value: Any) -> None:
        if kind == "roll":
            # one die: [5]; anything else goes to the engine as it is and is refused there
            value = value[0] if isinstance(value, list | tuple) and len(value) == 1 else value
        super().force(kind, value)

    def _forget(self) -> None:
        self.choices, self.choice, self.picked = [], -1, []
        self.napping, self.waiting, self.held = False, None, None

    # -- hand-entered actions -------------------------------------------------------------------

    def _manual(self, state: KttkState, data: dict[str, Any]) -> Any:
        action = self.engine.action_from_json(data)
        if isinstance(action, Roll) and action.value is None:
            return self._roll(state)
        return action

    def _roll(self, state: KttkState) -> Any:
        roll = Roll(self.forced.get("roll"))
        if state.phase == Phase.TURN and state.in_courtyard(state.current):
            return (Castle(), roll)
        return roll

    # -- buttons ----------------------------------------------------------------------------------

    def _button(self, state: KttkState, event: ButtonPressed) -> Any:
        if event.name == ROLL:
            if event.long:
                return None
            return self._roll(state)
        if event.name != END_TURN:
            return None
        phase = state.phase
        if event.long:
            if self.choices and self.choice >= 0:
                return self._take_choice(state)
            return self._nap(state) if phase == Phase.TURN else None
        if self.napping:
            items = tuple(self.picked)
            self._forget()
            return Nap(items)
        if (phase == Phase.ROLL and state.roll is not None
                and state.roll.purpose == Purpose.MOVE):
            reach = self.engine.destinations(state)
            if len(reach) <= 1:
                return Move(reach[0] if reach else state.positions[state.current])
            return self._cycle(state, reach, courtyard=False)
        if phase == Phase.ROLL:
            return Resolve()
        if phase == Phase.COURTYARD:
            return self._cycle(state, Play(state).free_courtyard(), courtyard=True)
        if phase == Phase.REFRESH:
            items = tuple(self.picked)
            self._forget()
            return Refresh(items)
        if phase == Phase.TURN:
            # TRANSLATORS: refused: end-turn pressed at the start of a turn; hero is the hero
            raise Rejection("roll-or-nap", msg("%(hero)s: press roll to move, or hold end-turn "
                                               "for a heroic nap.", hero=self._name(state)))
        # an adventure step not rolled yet, a card to draw, a choice to tap: say what is awaited
        # TRANSLATORS: refused: a button pressed too early; now is what the game waits for
        raise Rejection("not-now", msg("Not yet: now %(now)s.", now=waiting_for(state.phase)))

    @staticmethod
    def _name(state: KttkState, name: str | None = None) -> Any:
        return named.hero(state.pack, state.current if name is None else name)

    def _cycle(self, state: KttkState, spaces: list[str], courtyard: bool) -> Pending:
        """'With several, the family picks ... by cycling with the buttons while the voice and
        lights name each choice.'"""
        if self.choices != spaces:
            self.choices, self.choice = list(spaces), -1
        self.choice = (self.choice + 1) % len(self.choices)
        space = self.choices[self.choice]
        params = dict(n=self.choice + 1, count=len(self.choices),
                      space=named.space(state.pack, space), kind=describe(state, space))
        if courtyard:
            # TRANSLATORS: the buttons step through the free courtyard spaces; n of count, space
            # is the space, kind what it does ("refresh 2")
            return Pending(msg("Courtyard space %(n)s of %(count)s: %(space)s, %(kind)s. Hold "
                               "end-turn to go there, press it for the next.", **params))
        # TRANSLATORS: the buttons step through the spaces a roll reaches; n of count, space is
        # the space, kind what it does ("event", "adventure: fire mountain")
        return Pending(msg("Landing space %(n)s of %(count)s: %(space)s, %(kind)s. Hold "
                           "end-turn to go there, press it for the next.", **params))

    def _take_choice(self, state: KttkState) -> Any:
        space = self.choices[self.choice]
        self._forget()
        if state.phase == Phase.COURTYARD:
            return Courtyard(space)
        return Move(space)

    def _nap(self, state: KttkState) -> Any:
        hero = state.current
        tired = state.exhausted(hero)
        most = state.pack.heroes[hero].nap
        if len(tired) <= most:
            return Nap(tuple(tired))
        self.napping, self.picked = True, []
        # TRANSLATORS: a heroic nap; hero is the hero, n the most items it refreshes
        return Pending(msg_n("%(hero)s naps: tap up to %(n)s item to refresh, then press end-turn.",
                             "%(hero)s naps: tap up to %(n)s items to refresh, then press "
                             "end-turn.", most, hero=self._name(state, hero)))

    # -- taps -------------------------------------------------------------------------------------

    def _tap(self, state: KttkState, piece: str) -> Any:
        m = PIECE.match(piece)
        if not m:
            # TRANSLATORS: refused: a tapped piece of this game's box that it does not know
            raise Rejection("unknown-piece", msg("That piece is not one of the Key to the "
                                                 "Kingdom pieces."))
        if m["item"]:
            return self._item(state, m["item"], piece)
        if m["magic"]:
            return self._item(state, MAGIC_PREFIX + m["magic"], piece)
        if m["key"]:
            return TakeKey(m["key"])
        if m["hero"]:
            return self._hero(state, m["hero"])
        if m["card"]:
            return self._card(state, int(m["card"]))
        if m["companion"]:
            n = state.pack.companions.get(m["companion"])
            if n is None:
                # TRANSLATORS: refused: a companion card this game's content does not have
                raise Rejection("unknown-piece", msg("This game has no such companion card."))
            return self._card(state, n)
        # the Demon die
        if state.phase != Phase.DEMON_DIE:
            # TRANSLATORS: refused: the Demon die tapped when nothing gives it away
            raise Rejection("not-now", msg("The Demon die moves only when a hero lands on a "
                                           "Demon die space, or a card says so."))
        self.waiting = "demon-die"
        # TRANSLATORS: the first tap of giving the Demon die away
        return Pending(msg("Tap the figure of the hero who receives the Demon die."))

    def _hero(self, state: KttkState, hero: str) -> Any:
        if self.waiting == "demon-die":
            self._forget()
            return Assign(hero)
        if state.phase == Phase.SWEEP:
            return Sweep(hero)
        if state.phase == Phase.DEMON_DIE:
            # TRANSLATORS: refused: a figure tapped before the Demon die
            raise Rejection("tap-demon-die-first", msg("Tap the Demon die first, then the "
                                                       "figure of the hero who receives it."))
        return None  # figures are tagged for enrolment; a stray tap means nothing

    def _card(self, state: KttkState, n: int) -> Any:
        if state.phase == Phase.EVENT:
            return Draw(n)
        hero = state.deciding
        if n in state.companions.get(hero, ()):
            if state.phase in (Phase.ADVENTURE, Phase.CASTLE):
                return self._shortcut(state, state.pack.card(n).name,
                                      named.companion(state.pack, n))
            if state.phase == Phase.ROLL:
                return self._use(state, f"{COMPANION_PREFIX}{n}")
        # TRANSLATORS: refused: card (its name) tapped when not wanted; now is what the game
        # waits for
        raise Rejection("not-now", msg("%(card)s means nothing now: now %(now)s.",
                                       card=named.card(state.pack, n),
                                       now=waiting_for(state.phase)))

    def _item(self, state: KttkState, item: str, piece: str) -> Any:
        if item not in state.items:
            # TRANSLATORS: refused: an item of a hero nobody plays
            raise Rejection("unknown-piece", msg("That is not an item of this game's heroes."))
        phase = state.phase
        if self.waiting == "knife" and self.held:
            knife, self.waiting, self.held = self.held, None, None
            return Use(knife, target=item)
        if self.waiting == "beans" and self.held:
            beans, self.waiting, self.held = self.held, None, None
            return Use(beans, refresh=item)
        if phase == Phase.ROLL:
            return self._use(state, item)
        if phase in (Phase.ADVENTURE, Phase.CASTLE):
            hero = state.ask_of(Ask).hero
            owner, exhausted = state.items[item]
            if owner != hero:
                raise Rejection("not-yours", not_yours(state.pack, item, owner, hero))
            if exhausted:
                # TRANSLATORS: refused: item is exhausted and cannot be a shortcut for hero
                raise Rejection("exhausted", msg("%(item)s is exhausted: only an available item "
                                                 "lets %(hero)s in without rolling.",
                                                 item=words(state.pack, item),
                                                 hero=self._name(state, hero)))
            return self._shortcut(state, state.item_kind(item), words(state.pack, item))
        if self.napping:  # choosing the nap's items, in the courtyard too
            return self._pick(state, item, Nap)
        if phase == Phase.TURN and state.in_courtyard(state.current):
            # the item shown on the first token the hero meets: in at once
            hero = state.current
            token = next((section[0] for section in state.castle if section), None)
            shown = state.pack.token(token).item if token else None
            if state.items[item] != (hero, False) or state.item_kind(item) != shown:
                # TRANSLATORS: refused: item does not open the castle's first token
                raise Rejection("no-shortcut", msg("%(item)s does not open the castle: press "
                                                   "roll to enter it, or hold end-turn for a "
                                                   "heroic nap.", item=words(state.pack, item)))
            return (Castle(), Shortcut())
        if phase == Phase.STEAL:
            return Steal(item)
        if phase == Phase.MAGIC and item.startswith(MAGIC_PREFIX):
            return TakeMagic(item[len(MAGIC_PREFIX):])
        if phase == Phase.EXHAUST:
            return self._pick(state, item, Exhaust)
        if phase == Phase.REFRESH:
            return self._pick(state, item, Refresh)
        # TRANSLATORS: refused: item tapped when not wanted; now is what the game waits for
        raise Rejection("not-now", msg("%(item)s means nothing now: now %(now)s.",
                                       item=words(state.pack, item),
                                       now=waiting_for(state.phase)))

    def _shortcut(self, state: KttkState, what: str, said: Any) -> Any:
        """'If the next space on the board shows an item that you have available, you may enter
        that space without rolling!' The tapped item (or companion) must be the one shown and
        the hero's own and available; the engine checks the rest."""
        if state.phase == Phase.ADVENTURE:
            at = state.ask_of(StepAsk)
            step = state.pack.adventures[at.adventure].steps[at.step]
            shown = [x for x in (step.item, step.companion) if x]
        else:
            token = state.pack.token(state.ask_of(CastleAsk).token)
            shown = [token.item] if token.item else []
        if what not in shown:
            hero = self._name(state, state.ask_of(Ask).hero)
            if shown:
                helps = ListOf(tuple(named.shown(state.pack, x) for x in shown), style="or")
                # TRANSLATORS: refused: what (an item or companion) is no shortcut here; helps
                # is what would be ("the axe or the owl"), hero the hero
                raise Rejection("no-shortcut", msg("%(what)s does not help here: only %(helps)s "
                                                   "would let %(hero)s in without rolling. Roll "
                                                   "for it.", what=said, helps=helps, hero=hero))
            # TRANSLATORS: refused: what (an item or companion) is no shortcut; none is here
            raise Rejection("no-shortcut", msg("%(what)s does not help here: nothing lets the "
                                               "hero in without rolling here. Roll for it.",
                                               what=said))
        return Shortcut()

    def _pick(self, state: KttkState, item: str, kind: type[Any]) -> Any:
        if item in self.picked:
            self.picked.remove(item)
            # TRANSLATORS: an item tapped again while choosing items: it is taken out
            return Pending(msg("%(item)s is no longer chosen.", item=words(state.pack, item)))
        self.picked.append(item)
        asked = state.ask.count if isinstance(state.ask, CountAsk) else None  # None: a nap
        count = asked or state.pack.heroes[state.current].nap
        if len(self.picked) >= count:
            items = tuple(self.picked)
            self._forget()
            return kind(items)
        params = dict(item=words(state.pack, item), n=len(self.picked), count=count)
        if kind is Exhaust:
            # TRANSLATORS: choosing items to exhaust; n of count chosen so far
            return Pending(msg("%(item)s chosen, %(n)s of %(count)s.", **params))
        # TRANSLATORS: choosing items to refresh; n of count chosen so far
        return Pending(msg("%(item)s chosen, %(n)s of %(count)s; press end-turn when done.",
                           **params))

    def _use(self, state: KttkState, item: str) -> Any:
        roll = state.roll
        assert roll is not None
        used = dict(roll.uses)
        if item in used:  # a second tap: the next delta in the cycle +v, -v (+w, -w ...)
            values = sorted(self._values(state, item), reverse=True)
            cycle = [d for v in values for d in (v, -v)]
            nxt = cycle[(cycle.index(used[item]) + 1) % len(cycle)]
            return Use(item, 1 if nxt > 0 else -1, abs(nxt))
        kind = "" if item.startswith(COMPANION_PREFIX) else state.item_kind(item)
        play = Play(state)
        hero = state.ask_of(Ask).hero
        if kind == "kind-of-evil-knife" and play.steal_options(hero):
            self._check_use(state, Use(item, target=play.steal_options(hero)[0]))
            self.waiting, self.held = "knife", item
            # TRANSLATORS: the Kind of Evil Knife waits for its second tap
            return Pending(msg("Tap the other hero's item the Knife exhausts."))
        if kind == "coffee-beans" and [i for i in state.exhausted(hero) if i != item]:
            tired = [i for i in state.exhausted(hero) if i != item]
            self._check_use(state, Use(item, refresh=tired[0]))
            self.waiting, self.held = "beans", item
            # TRANSLATORS: the Magic Coffee Beans wait for their second tap
            return Pending(msg("Tap the exhausted item the Coffee Beans refresh."))
        return Use(item)

    def _check_use(self, state: KttkState, use: Use) -> None:
        """Check the first tap of a two-tap use now, so the family hears why at once."""
        self.engine.apply(state, use)

    def _values(self, state: KttkState, item: str) -> tuple[int, ...]:
        if item.startswith(COMPANION_PREFIX):
            return (state.pack.card(int(item[len(COMPANION_PREFIX):])).bonus,)
        return state.item_value(item)


SPACE_KINDS = {
    # TRANSLATORS: what a space does, said after its name when choosing where to land
    "start": msg_p("space kind", "start"),
    # TRANSLATORS: as above: an empty space where nothing happens
    "boring": msg_p("space kind", "boring"),
    # TRANSLATORS: as above: an event card is drawn
    "event": msg_p("space kind", "event"),
    # TRANSLATORS: as above: the Demon die goes to a hero
    "demon-die": msg_p("space kind", "Demon die"),
    # TRANSLATORS: as above: a magic item from the genie
    "genie": msg_p("space kind", "genie"),
    # TRANSLATORS: as above: a whirlpool
    "whirlpool": msg_p("space kind", "whirlpool"),
    # TRANSLATORS: as above: a void (where heroes land when their land folds away)
    "void": msg_p("space kind", "void"),
}


def describe(state: KttkState, space: str) -> Any:
    """What a space does, in a few words, for the voice naming a landing choice."""
    pack = state.pack
    sp = pack.spaces[space]
    if sp.kind == "refresh":
        # TRANSLATORS: what a space does: n is how many items it refreshes
        return msg("refresh %(n)s", n=sp.refresh)
    if sp.kind == "adventure":
        # TRANSLATORS: what a space does: the start of an adventure (its name)
        return msg("adventure: %(adventure)s",
                   adventure=named.adventure(pack, pack.adventure_at[space]))
    return SPACE_KINDS.get(sp.kind, sp.kind.replace("-", " "))
