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

from tabletap.controller.language.said import ListOf, Named, Said
from tabletap.controller.rules.base import JSON, Event, Outcome, Rejection, new_outcome
from tabletap_memory.rules.actions import Action, Flip, action_from_json, action_to_json
from tabletap_memory.rules.deck import Deck, DeckError, card_parts, deck_names, load_deck
from tabletap_memory.rules.state import MemoryState, state_from_json, state_to_json
from tabletap_memory.words import msg, msg_n

MOST_PLAYERS = 6  # the spec declares 1..6; more than six children around one table is a party
OPTIONS = ("deck",)


def _bad(message: Said) -> Rejection:
    return Rejection("bad-setup", message)


def _one_option() -> Said:
    # TRANSLATORS: refusal of a game's options that are not Memory's (set in the config)
    return msg("Memory's only option is the deck: which pictures are in play.")


def _picture_of(card: str) -> str:
    return card.rpartition("/")[0]


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
            # TRANSLATORS: refusal of a scenario that forces a hidden set-up, which Memory has not
            raise _bad(msg("Memory has nothing to set up in secret: the cards are shuffled by "
                           "hand."))
        return MemoryState(seats, deck)

    def opening_events(self, state: MemoryState) -> tuple[Event, ...]:
        """What the table says as a game starts (controller.table.session): who begins and how."""
        # TRANSLATORS: said as a game starts; player is the name of who begins, as entered
        return (Event("turn", msg("%(player)s begins: tap two cards at a reader, one after the "
                                  "other.", player=state.player), {"player": state.player}),)

    def apply(self, state: MemoryState, action: Action) -> Outcome[MemoryState, Action]:
        if action.__class__ is not Flip:
            # TRANSLATORS: refusal of something that is not a card turned over
            raise Rejection("bad-action", msg("Memory cannot play that: turn over a card."))
        if self.is_over(state):
            # TRANSLATORS: refusal of a card tapped after the game is over
            raise Rejection("game-over", msg("Every pair is found: the game is over."))
        deck = self.deck(state.deck)
        card = action.card
        picture = self._picture(deck, state, card)
        player = state.player
        taken = state.taken()
        name = self._name(deck, picture)
        if picture in taken:
            # TRANSLATORS: refusal of a card whose pair was found; picture is its name from the
            # deck file, player the name of who keeps the pair
            raise Rejection("already-taken", msg(
                "The %(picture)s pair is already taken: %(player)s keeps it. Turn over a card "
                "still on the table.", picture=name, player=taken[picture]))
        if card == state.turned:
            # TRANSLATORS: refusal of the card already face up this turn, tapped again; picture
            # is its name from the deck file
            raise Rejection("same-card", msg("That %(picture)s card is already face up this "
                                             "turn: turn over another card.", picture=name))
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
            # TRANSLATORS: refusal of a game whose players are not all names (one left empty)
            raise _bad(msg("Every player needs a name: the players are a list of names."))
        if not 1 <= len(players) <= MOST_PLAYERS:
            # TRANSLATORS: refusal of a game with too few or too many players; most is the
            # largest number allowed, n how many there were
            raise _bad(msg("Memory is for 1 to %(most)s players, not %(n)s.", most=MOST_PLAYERS,
                           n=len(players)))
        if len(set(players)) != len(players):
            # TRANSLATORS: refusal of a game where two players have the same name
            raise _bad(msg("Every player needs a different name."))
        return tuple(players)

    def _check_options(self, options: Any) -> str:
        options = {} if options is None else options
        if not isinstance(options, dict) or set(options) - set(OPTIONS):
            raise _bad(_one_option())
        name = options.get("deck", "default")
        known = self.deck_names()
        if not isinstance(name, str) or name not in known:
            # TRANSLATORS: refusal of a deck option naming no deck; deck is the value as the
            # config spells it, decks the decks there are (as the config spells them)
            raise _bad(msg("Memory has no deck called %(deck)s; its decks are %(decks)s.",
                           deck=str(name), decks=ListOf(known)))
        try:
            self.deck(name)
        except DeckError as exc:  # the maker's file, not the family's choice: say where
            # TRANSLATORS: refusal of a game whose deck file is broken, for the deck's maker;
            # deck is the deck's name as the config spells it, why the loader's finding (file,
            # line, key; in English)
            raise Rejection("bad-deck", msg("The %(deck)s deck cannot be used: %(why)s",
                                            deck=name, why=str(exc))) from None
        return name

    def _picture(self, deck: Deck, state: MemoryState, card: str) -> str:
        """The picture of `card`, or Rejection `unknown-card` for a card not in this deck."""
        parts = card_parts(card)
        if parts is None:
            # TRANSLATORS: refusal of a card typed by hand that is no card of the game
            raise Rejection("unknown-card", msg("That is not a card of this game: put it back "
                                                "in the box."))
        if parts[0] not in deck.names:
            raise Rejection("unknown-card", self._not_in_deck(parts[0]))
        return parts[0]

    def _not_in_deck(self, picture: str) -> Said:
        """A card of another deck is named (the sun, with the small deck); one of no deck is
        not, as its id is no word the family knows."""
        for other in self.deck_names():
            try:
                named = self.deck(other).say(picture)
            except DeckError:
                continue
            if named is not None:
                # TRANSLATORS: refusal of a card of another deck than the one in play;
                # picture is its name from the deck file
                return msg("There is no %(picture)s card in this deck: put that card back in "
                           "the box.", picture=named)
        # TRANSLATORS: refusal of a card whose picture is in none of the game's decks
        return msg("That card is in none of the decks: put it back in the box.")

    @staticmethod
    def _name(deck: Deck, picture: str) -> Named:
        """The name of a picture the engine has checked is in `deck`."""
        named = deck.say(picture)
        assert named is not None, picture
        return named

    # -- what the table says ----------------------------------------------------------------

    def _flipped(self, deck: Deck, player: str, card: str) -> Event:
        # TRANSLATORS: said when a card is turned over; player is a name as entered, picture
        # the card's picture from the deck file
        return Event("flip", msg("%(player)s turns over the %(picture)s.", player=player,
                                 picture=self._name(deck, _picture_of(card))),
                     {"player": player, "card": card})

    def _pair(self, deck: Deck, new: MemoryState, player: str, card: str) -> tuple[Event, ...]:
        picture = _picture_of(card)
        kept = new.pairs()[player]
        over = self.is_over(new)
        text = self._pair_said(self._name(deck, picture), player, kept, over)
        events = [self._flipped(deck, player, card),
                  Event("pair", text, {"player": player, "picture": picture, "pairs": kept})]
        if over:
            won = self.winners(new)
            events.append(Event("win", self._win_said(new, player, won),
                                {"winners": won, "scores": new.pairs()}))
        return tuple(events)

    @staticmethod
    def _pair_said(name: Named, player: str, kept: int, over: bool) -> Said:
        """A pair kept; while pairs are left, the same player goes again (whose turn it is)."""
        if over:
            # TRANSLATORS: said when the last pair is found; player is a name, picture the
            # pair's picture from the deck file, n how many pairs the player has now
            return msg_n("A pair! %(player)s keeps the %(picture)s pair (%(n)s pair).",
                         "A pair! %(player)s keeps the %(picture)s pair (%(n)s pairs).", kept,
                         player=player, picture=name)
        # TRANSLATORS: said when a pair is found and the same player goes again; player is a
        # name, picture the pair's picture from the deck file, n the player's pairs now
        return msg_n("A pair! %(player)s keeps the %(picture)s pair (%(n)s pair). %(player)s "
                     "goes again.", "A pair! %(player)s keeps the %(picture)s pair (%(n)s "
                     "pairs). %(player)s goes again.", kept, player=player, picture=name)

    @staticmethod
    def _win_said(new: MemoryState, player: str, won: list[str]) -> Said:
        most = new.pairs()[won[0]]
        if len(new.players) == 1:
            # TRANSLATORS: said when a game for one ends; player is the name
            return msg("Every pair is found: well done, %(player)s!", player=player)
        if len(won) == 1:
            # TRANSLATORS: said when the game ends with one winner; player is the name, n the
            # winner's pairs
            return msg_n("Every pair is found: %(player)s wins with %(n)s pair!",
                         "Every pair is found: %(player)s wins with %(n)s pairs!", most,
                         player=won[0])
        # TRANSLATORS: said when the game ends in a tie; players is the list of names ("ana and
        # ben"), n the pairs each of them has
        return msg_n("Every pair is found: %(players)s share the win with %(n)s pair each!",
                     "Every pair is found: %(players)s share the win with %(n)s pairs each!",
                     most, players=ListOf(tuple(won)))

    def _miss(self, deck: Deck, new: MemoryState, player: str, first: str, card: str
              ) -> tuple[Event, ...]:
        one, two = self._name(deck, _picture_of(first)), self._name(deck, _picture_of(card))
        nxt = new.player
        if nxt == player:
            # TRANSLATORS: said after a miss in a game for one: the same player goes on
            turn = msg("Try again, %(player)s.", player=nxt)
        else:
            # TRANSLATORS: said after a miss: whose turn it is now; player is a name as entered
            turn = msg("It is %(player)s's turn.", player=nxt)
        return (self._flipped(deck, player, card),
                # TRANSLATORS: said after two different pictures; first and second are the two
                # cards' pictures from the deck file
                Event("miss", msg("No pair: turn the %(first)s and the %(second)s face down "
                                  "again.", first=one, second=two),
                      {"player": player, "cards": [first, card]}),
                Event("turn", turn, {"player": nxt}))
