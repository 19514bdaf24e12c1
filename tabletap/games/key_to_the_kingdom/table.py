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
from tabletap.controller.rules.base import Rejection
from tabletap.games.key_to_the_kingdom.rules import ENGINE, KttkEngine, KttkState
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
from tabletap.games.key_to_the_kingdom.rules.play import Play, words
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

# one named group per kind of piece, holding the id the engine uses (`knight/sword`, `red/1`);
# the Demon die has no id and no group
PIECE = re.compile(
    r"^kttk/(?:item/(?P<item>[a-z0-9-]+/[a-z0-9-]+)|magic/(?P<magic>[a-z-]+)"
    r"|key/(?P<key>(?:red|green|blue)/\d+)|hero/(?P<hero>[a-z0-9-]+)|event/(?P<card>\d+)"
    r"|companion/(?P<companion>[a-z0-9-]+)|demon-die)$"
)
END_TURN, ROLL = "end-turn", "roll"
_SPACE_ID = re.compile(r"\b[a-z]+(\d+)\b")  # what a space id looks like: v11, court3
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

    def said(self, state: Any, text: str) -> str:
        """Space ids said by their land ("v11" -> "village space 11"): the pack's ids are short
        for the console and the page, but a voice spelling "v eleven" tells a child nothing."""
        if not isinstance(state, KttkState):
            return text
        pack = state.pack

        def name(m: re.Match[str]) -> str:
            space = pack.spaces.get(m.group(0))
            if space is None:
                return m.group(0)
            in_land = pack.lands.get(space.land, ())  # the courtyard is no land: its own number
            number = in_land.index(space.id) + 1 if space.id in in_land else int(m.group(1))
            return f"{space.land.replace('-', ' ')} space {number}"

        return _SPACE_ID.sub(name, text)

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
        what = {"knife": "the Knife's target", "beans": "the item the Coffee Beans refresh",
                "demon-die": "the hero who receives the Demon die"}[self.waiting]
        self._forget()
        return Rejection("gesture-timeout", f"No tap came for {what} within "
                         f"{self.timeout:g} seconds; tap again to start over.")

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
            return self._cycle(state, reach, "landing space")
        if phase == Phase.ROLL:
            return Resolve()
        if phase == Phase.COURTYARD:
            return self._cycle(state, Play(state).free_courtyard(), "courtyard space")
        if phase == Phase.REFRESH:
            items = tuple(self.picked)
            self._forget()
            return Refresh(items)
        if phase == Phase.TURN:
            raise Rejection("roll-or-nap", f"{state.current}: press roll to move, or hold "
                            "end-turn for a heroic nap.")
        # an adventure step not rolled yet, a card to draw, a choice to tap: say what is awaited
        raise Rejection("not-now", f"Not yet: now {self.engine.public_view(state)['waiting_for']}.")

    def _cycle(self, state: KttkState, spaces: list[str], what: str) -> Pending:
        """'With several, the family picks ... by cycling with the buttons while the voice and
        lights name each choice.'"""
        if self.choices != spaces:
            self.choices, self.choice = list(spaces), -1
        self.choice = (self.choice + 1) % len(self.choices)
        space = self.choices[self.choice]
        kind = describe(state, space)
        return Pending(f"{what.capitalize()} {self.choice + 1} of {len(self.choices)}: "
                       f"{space} ({kind}). Hold end-turn to go there, press it for the next.")

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
        return Pending(f"{hero} naps: tap up to {most} items to refresh, then press end-turn.")

    # -- taps -------------------------------------------------------------------------------------

    def _tap(self, state: KttkState, piece: str) -> Any:
        m = PIECE.match(piece)
        if not m:
            raise Rejection("unknown-piece", f"{piece} is not one of the Key to the Kingdom "
                            "pieces.")
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
                raise Rejection("unknown-piece", f"{piece}: the pack has no companion "
                                f"{m['companion']}.")
            return self._card(state, n)
        # the Demon die
        if state.phase != Phase.DEMON_DIE:
            raise Rejection("not-now", "The Demon die moves only when a hero lands on a Demon "
                            "die space (or an effect says so).")
        self.waiting = "demon-die"
        return Pending("Tap the figure of the hero who receives the Demon die.")

    def _hero(self, state: KttkState, hero: str) -> Any:
        if self.waiting == "demon-die":
            self._forget()
            return Assign(hero)
        if state.phase == Phase.SWEEP:
            return Sweep(hero)
        if state.phase == Phase.DEMON_DIE:
            raise Rejection("tap-demon-die-first", "Tap the Demon die first, then the figure "
                            "of the hero who receives it.")
        return None  # figures are tagged for enrolment; a stray tap means nothing

    def _card(self, state: KttkState, n: int) -> Any:
        if state.phase == Phase.EVENT:
            return Draw(n)
        hero = state.deciding
        if n in state.companions.get(hero, ()):
            if state.phase in (Phase.ADVENTURE, Phase.CASTLE):
                return self._shortcut(state, state.pack.card(n).name, f"the "
                                      f"{state.pack.card(n).name.replace('-', ' ')}")
            if state.phase == Phase.ROLL:
                return self._use(state, f"{COMPANION_PREFIX}{n}")
        raise Rejection("not-now", f"Event card {n} means nothing now: now "
                        f"{self.engine.public_view(state)['waiting_for']}.")

    def _item(self, state: KttkState, item: str, piece: str) -> Any:
        if item not in state.items:
            raise Rejection("unknown-piece", f"{piece} is not an item of this game's heroes.")
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
                raise Rejection("not-yours", f"{words(item)} belongs to "
                                f"{owner or 'the supply'}, not {hero}.")
            if exhausted:
                raise Rejection("exhausted", f"{words(item)} is exhausted: only an available "
                                f"item lets {hero} in without rolling.")
            return self._shortcut(state, state.item_kind(item), words(item))
        if self.napping:  # choosing the nap's items, in the courtyard too
            return self._pick(state, item, Nap)
        if phase == Phase.TURN and state.in_courtyard(state.current):
            # the item shown on the first token the hero meets: in at once
            hero = state.current
            token = next((section[0] for section in state.castle if section), None)
            shown = state.pack.token(token).item if token else None
            if state.items[item] != (hero, False) or state.item_kind(item) != shown:
                raise Rejection("no-shortcut", f"{words(item)} does not open the castle: press "
                                "roll to enter it, or hold end-turn for a heroic nap.")
            return (Castle(), Shortcut())
        if phase == Phase.STEAL:
            return Steal(item)
        if phase == Phase.MAGIC and item.startswith(MAGIC_PREFIX):
            return TakeMagic(item[len(MAGIC_PREFIX):])
        if phase == Phase.EXHAUST:
            return self._pick(state, item, Exhaust)
        if phase == Phase.REFRESH:
            return self._pick(state, item, Refresh)
        raise Rejection("not-now", f"{words(item)} means nothing now: now "
                        f"{self.engine.public_view(state)['waiting_for']}.")

    def _shortcut(self, state: KttkState, what: str, said: str) -> Any:
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
            helps = " or ".join(f"the {x.replace('-', ' ')}" for x in shown)
            hero = state.ask_of(Ask).hero
            hint = (f"only {helps} would let {hero} in without rolling" if helps else
                    "nothing lets the hero in without rolling here")
            raise Rejection("no-shortcut", f"{said} does not help here: {hint}. Roll for it.")
        return Shortcut()

    def _pick(self, state: KttkState, item: str, kind: type[Any]) -> Any:
        if item in self.picked:
            self.picked.remove(item)
            return Pending(f"{words(item)} is no longer chosen.")
        self.picked.append(item)
        asked = state.ask.count if isinstance(state.ask, CountAsk) else None  # None: a nap
        count = asked or state.pack.heroes[state.current].nap
        if len(self.picked) >= count:
            items = tuple(self.picked)
            self._forget()
            return kind(items)
        return Pending(f"{words(item)} chosen ({len(self.picked)} of {count}); press end-turn when "
                       "done." if kind is not Exhaust else
                       f"{words(item)} chosen ({len(self.picked)} of {count}).")

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
            return Pending("Tap the other hero's item the Knife exhausts.")
        if kind == "coffee-beans" and [i for i in state.exhausted(hero) if i != item]:
            tired = [i for i in state.exhausted(hero) if i != item]
            self._check_use(state, Use(item, refresh=tired[0]))
            self.waiting, self.held = "beans", item
            return Pending("Tap the exhausted item the Coffee Beans refresh.")
        return Use(item)

    def _check_use(self, state: KttkState, use: Use) -> None:
        """Check the first tap of a two-tap use now, so the family hears why at once."""
        self.engine.apply(state, use)

    def _values(self, state: KttkState, item: str) -> tuple[int, ...]:
        if item.startswith(COMPANION_PREFIX):
            return (state.pack.card(int(item[len(COMPANION_PREFIX):])).bonus,)
        return state.item_value(item)


def describe(state: KttkState, space: str) -> str:
    """What a space does, in a few words, for the voice naming a landing choice."""
    pack = state.pack
    sp = pack.spaces[space]
    if sp.kind == "refresh":
        return f"refresh {sp.refresh}"
    if sp.kind == "adventure":
        return f"adventure: {pack.adventure_at[space].replace('-', ' ')}"
    return sp.kind.replace("-", " ")
