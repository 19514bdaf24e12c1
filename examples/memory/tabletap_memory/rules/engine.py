"""The Memory engine: the Engine contract (controller.rules.base) for Memory (Concentration).

The rules, as the table plays them (examples/memory/README.md):
- The cards lie face down. In their turn a player turns over two cards, one after the other,
  by tapping each at a reader; the table says what each one shows.
- Two cards of the same picture are a pair: that player keeps it (one pair more) and goes
  again. Two different pictures are turned face down again, and the turn passes to the next
  player (in a game for one, to the same player).
- A card already kept, or the card already face up this turn, cannot be turned over; nor can
  a card whose picture is not in the deck the game is played with.
- When every pair is found the game is over: the most pairs wins, and a tie shares the win.

Pure: the decks are data handed in (rules/deck.py), a state and a card go in, a new state and
its events come out. Memory has no chance at all (the cards are shuffled by hand), so the seed
is unused and nothing a game does is ever refused to undo for having drawn chance.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tabletap.controller.rules.base import JSON, Event, Outcome, Rejection, new_outcome
from tabletap_memory.rules.actions import Action, Flip, action_from_json, action_to_json
from tabletap_memory.rules.deck import Deck, DeckError, card_parts, deck_names, load_deck
from tabletap_memory.rules.state import MemoryState, state_from_json, state_to_json

MOST_PLAYERS = 6  # the spec declares 1..6; more than six children around one table is a party
OPTIONS = ("deck",)


def _bad(message: str) -> Rejection:
    return Rejection("bad-setup", message)


def _pairs(n: int) -> str:
    return f"{n} pair" if n == 1 else f"{n} pairs"


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


class MemoryEngine:
    name = "memory"

    def __init__(self, decks: Mapping[str, Deck] | None = None) -> None:
        """`decks`: the decks by name (tests play an edited one); None reads the shipped deck
        files when a game first asks for one."""
        self._given = dict(decks) if decks is not None else None
        # per deck: (card, picture, its Flip) in the deck's order, made once, so listing the
        # legal actions builds no action (self-play asks on every move)
        self._flips: dict[str, tuple[tuple[str, str, Flip], ...]] = {}

    # -- decks ------------------------------------------------------------------------------

    def deck_names(self) -> tuple[str, ...]:
        return tuple(self._given) if self._given is not None else deck_names()

    def deck(self, name: str) -> Deck:
        """The deck `name`; KeyError if there is none of that name."""
        if self._given is not None:
            return self._given[name]
        return load_deck(name)

    def _cards(self, name: str) -> tuple[tuple[str, str, Flip], ...]:
        cards = self._flips.get(name)
        if cards is None:
            deck = self.deck(name)
            cards = self._flips[name] = tuple(
                (card, card.rpartition("/")[0], Flip(card)) for card in deck.cards)
        return cards

    # -- the Engine protocol ----------------------------------------------------------------

    def new_game(self, players: list[str], seed: int, options: JSON, setup: JSON
                 ) -> MemoryState:
        """Players in turn order (the first begins), the deck named by the options; the
        shuffle is done by hand, so there is no set-up to force."""
        seats = self._check_players(players)
        deck = self._check_options(options)
        if setup:
            raise _bad(f"Memory has no hidden set-up to force (the cards are shuffled by hand),"
                       f" so setup must be empty, not {setup!r}.")
        return MemoryState(seats, deck)

    def opening_events(self, state: MemoryState) -> tuple[Event, ...]:
        """What the table says as a game starts (controller.table.session): who begins and how."""
        return (Event("turn", f"{state.player} begins: tap two cards at a reader, one after "
                      "the other.", {"player": state.player}),)

    def apply(self, state: MemoryState, action: Action) -> Outcome[MemoryState, Action]:
        if action.__class__ is not Flip:
            raise Rejection("bad-action", f"Memory cannot play {action!r}: turn over a card.")
        if self.is_over(state):
            raise Rejection("game-over", "Every pair is found: the game is over.")
        deck = self.deck(state.deck)
        card = action.card
        picture = self._picture(deck, state, card)
        player = state.player
        taken = state.taken()
        if picture in taken:
            raise Rejection("already-taken", f"The {deck.say(picture)} pair is already taken: "
                            f"{taken[picture]} keeps it. Turn over a card still on the table.")
        if card == state.turned:
            raise Rejection("same-card", f"That {deck.say(picture)} card is already face up "
                            "this turn: turn over another card.")
        first = state.turned
        if first is None:  # the turn's first card
            new = replace(state, turned=card, seen=state.seen | {card})
            return new_outcome((new, action, lambda: (self._flipped(deck, player, card),)))
        if first.rpartition("/")[0] == picture:  # the second card makes a pair: kept
            found = (*state.found, (picture, player))
            new = replace(state, turned=None, found=found, seen=state.seen - {first, card})
            return new_outcome((new, action, lambda: self._pair(deck, new, player, card)))
        # two different pictures: both face down again, the next player's turn
        new = replace(state, turned=None, seen=state.seen | {card},
                      current=(state.current + 1) % len(state.players))
        return new_outcome((new, action, lambda: self._miss(deck, new, player, first, card)))

    def legal_actions(self, state: MemoryState) -> list[Action]:
        """Every card still face down on the table: not kept, not the one face up now."""
        if self.is_over(state):
            return []
        taken = state.taken()
        turned = state.turned
        return [flip for card, picture, flip in self._cards(state.deck)
                if picture not in taken and card != turned]

    def state_to_json(self, state: MemoryState) -> JSON:
        return state_to_json(state, self.deck(state.deck).cards)

    def state_from_json(self, data: JSON) -> MemoryState:
        """Raises ValueError naming the first problem (a damaged journal or state file)."""
        state = state_from_json(data)
        try:
            deck = self.deck(state.deck)
        except KeyError:
            raise ValueError(f"not a Memory state: no deck called {state.deck!r}") from None
        players = set(state.players)
        if len(players) != len(state.players) or not state.current < len(state.players):
            raise ValueError("not a Memory state: players must be distinct, current one of them")
        pictures = [p for p, _ in state.found]
        if len(set(pictures)) != len(pictures) or not set(pictures) <= set(deck.pictures):
            raise ValueError("not a Memory state: found names a pair twice or not in the deck")
        if not {who for _, who in state.found} <= players:
            raise ValueError("not a Memory state: found names someone who is not playing")
        cards = set(deck.cards)
        on_table = {c for c in cards if c.rpartition("/")[0] not in pictures}
        if not state.seen <= on_table or (state.turned is not None and (
                state.turned not in on_table or state.turned not in state.seen)):
            raise ValueError("not a Memory state: seen and turned must be cards on the table")
        return state

    def action_to_json(self, action: Action) -> JSON:
        return action_to_json(action)

    def action_from_json(self, data: JSON) -> Action:
        return action_from_json(data)

    def public_view(self, state: MemoryState, reveal: bool = False) -> JSON:
        """Everything the table knows is public (it never knows where a card lies). `reveal`
        adds the cards seen and still on the table: no secret, everyone saw them, but the
        memory the game is about, so the page does not hand it out."""
        deck = self.deck(state.deck)
        over = self.is_over(state)
        taken = state.taken()
        kept: dict[str, list[str]] = {p: [] for p in state.players}
        for picture, who in state.found:
            kept[who].append(picture)
        view: JSON = {
            "game": self.name,
            "deck": state.deck,
            "players": list(state.players),
            "current_player": None if over else state.player,
            "pairs": state.pairs(),
            "scores": state.pairs(),
            "found": kept,
            "taken": [c for c in deck.cards if c.rpartition("/")[0] in taken],
            "face_up": state.turned,
            "face_down": len(deck.cards) - 2 * len(taken) - (state.turned is not None),
            "cards": len(deck.cards),
            "over": over,
            "winners": self.winners(state),
        }
        if reveal:
            view["seen"] = [c for c in deck.cards if c in state.seen]
        return view

    def scores(self, state: MemoryState) -> dict[str, int]:
        return state.pairs()

    def current_player(self, state: MemoryState) -> str | None:
        return None if self.is_over(state) else state.player

    def winners(self, state: MemoryState) -> list[str]:
        """Empty while pairs are left; then everyone with the most pairs, in seat order."""
        if not self.is_over(state):
            return []
        pairs = state.pairs()
        best = max(pairs.values())
        return [p for p in state.players if pairs[p] == best]

    def is_over(self, state: MemoryState) -> bool:
        return len(state.found) == self.deck(state.deck).pairs

    # -- checks -----------------------------------------------------------------------------

    def _check_players(self, players: Any) -> tuple[str, ...]:
        if not isinstance(players, list | tuple) or not all(
                isinstance(p, str) and p.strip() for p in players):
            raise _bad("Players must be a list of names, like [ana, ben].")
        if not 1 <= len(players) <= MOST_PLAYERS:
            raise _bad(f"Memory is for 1 to {MOST_PLAYERS} players, not {len(players)}.")
        if len(set(players)) != len(players):
            raise _bad("Every player needs a different name.")
        return tuple(players)

    def _check_options(self, options: Any) -> str:
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise _bad("Options must be a mapping, like {deck: default}.")
        unknown = sorted(map(str, set(options) - set(OPTIONS)))
        if unknown:
            raise _bad(f"Memory has no option {', '.join(map(repr, unknown))}; it knows 'deck'.")
        name = options.get("deck", "default")
        known = self.deck_names()
        if not isinstance(name, str) or name not in known:
            raise _bad(f"Memory has no deck {name!r}; it knows {', '.join(known)}.")
        try:
            self.deck(name)
        except DeckError as exc:  # the maker's file, not the family's choice: say where
            raise Rejection("bad-deck", f"The {name} deck cannot be used: {exc}") from None
        return name

    def _picture(self, deck: Deck, state: MemoryState, card: str) -> str:
        """The picture of `card`, or Rejection `unknown-card` for a card not in this deck."""
        parts = card_parts(card)
        if parts is None:
            raise Rejection("unknown-card", f"{card!r} is not a Memory card: a card is a "
                            "picture and a or b, like owl/a.")
        if parts[0] not in deck.names:
            raise Rejection("unknown-card", f"There is no {deck.say(parts[0])} card in the "
                            f"{state.deck} deck: put that card back in the box.")
        return parts[0]

    # -- what the table says ----------------------------------------------------------------

    @staticmethod
    def _flipped(deck: Deck, player: str, card: str) -> Event:
        picture = card.rpartition("/")[0]
        return Event("flip", f"{player} turns over the {deck.say(picture)}.",
                     {"player": player, "card": card})

    def _pair(self, deck: Deck, new: MemoryState, player: str, card: str) -> tuple[Event, ...]:
        picture = card.rpartition("/")[0]
        kept = new.pairs()[player]
        again = "" if self.is_over(new) else f" {player} goes again."
        events = [self._flipped(deck, player, card),
                  Event("pair", f"A pair! {player} keeps the {deck.say(picture)} pair "
                        f"({_pairs(kept)}).{again}",
                        {"player": player, "picture": picture, "pairs": kept})]
        if self.is_over(new):
            won = self.winners(new)
            most = new.pairs()[won[0]]
            if len(new.players) == 1:
                text = f"Every pair is found: well done, {player}!"
            elif len(won) == 1:
                text = f"Every pair is found: {won[0]} wins with {_pairs(most)}!"
            else:
                text = (f"Every pair is found: {_and(won)} share the win with {_pairs(most)} "
                        "each!")
            events.append(Event("win", text, {"winners": won, "scores": new.pairs()}))
        return tuple(events)

    def _miss(self, deck: Deck, new: MemoryState, player: str, first: str, card: str
              ) -> tuple[Event, ...]:
        one, two = first.rpartition("/")[0], card.rpartition("/")[0]
        nxt = new.player
        turn = f"Try again, {nxt}." if nxt == player else f"It is {nxt}'s turn."
        return (self._flipped(deck, player, card),
                Event("miss", f"No pair: turn the {deck.say(one)} and the {deck.say(two)} "
                      "face down again.", {"player": player, "cards": [first, card]}),
                Event("turn", turn, {"player": nxt}))
