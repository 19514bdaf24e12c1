"""The Oversiege rules engine (rulebook: "Official Rules, last updated 12.16.2020").

Every play is checked against the rulebook's sections (ORDER, TURNS, ARMAMENTS, PROJECTILES,
REBUILD, KEY, BLOCKADE, GROUP PLAY) and the decisions written in docs/games/oversiege.md. A play
is worked out on a fork of the state (OversiegeState.fork: the castles a play looks at are
copied, the others shared), so a rejection anywhere leaves the caller's state as it was, and an
accepted play returns the fork.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletap.controller.rules.base import JSON, Event, Outcome, Rejection
from tabletap.controller.rules.sharing import peek
from tabletap.games.oversiege.rules import actions as act
from tabletap.games.oversiege.rules.actions import Action
from tabletap.games.oversiege.rules.data import (
    ARMAMENTS,
    CHAMBER,
    ENTRANCE,
    PROJECTILES,
    TOWERS,
    Cards,
    Projectile,
    load_cards,
)
from tabletap.games.oversiege.rules.pieces import Piece, castle_id, parse_piece
from tabletap.games.oversiege.rules.setup import build_state
from tabletap.games.oversiege.rules.state import HAND_KEPT, OversiegeState, Side, draw_count


class OversiegeEngine:
    name = "oversiege"

    def __init__(self, cards: Cards | None = None) -> None:
        self.cards = cards if cards is not None else load_cards()
        self._decks: dict[str, list[str]] = {}  # player -> deck_cards(player), read once
        self._castles: dict[str, list[str]] = {}  # player -> castle piece ids, built once
        self._kinds: dict[str, list[tuple[str, str]]] = {}  # player -> (card, kind), once
        # Verdicts legal_actions reuses from state to state, keyed by everything they read
        # (see _situation, _signature): check_card on an own loose card, the aims a kind of
        # projectile has at one side, and the doubles worked out by apply. Bounded: cleared
        # when full.
        self._verdicts: dict[Any, Any] = {}
        self._actions: dict[tuple[str, str | None, tuple[str, ...]], Action] = {}
        self._handlers: dict[str, Callable[[OversiegeState, Action], list[Event]]] = {
            "armament": self._armament,
            "attack": self._attack,
            "rebuild": self._rebuild,
            "key": self._key,
            "blockade": self._blockade,
            "discard": self._discard,
            "end-turn": self._end_turn,
        }

    # -- the Engine contract ------------------------------------------------------------------

    def new_game(
        self, players: list[str], seed: int, options: JSON, setup: JSON
    ) -> OversiegeState:
        state = build_state(players, seed, options, setup, self.cards)
        side = state.sides[state.current]
        state.drawn, _ = _draw(side, draw_count(side, self.cards))
        return state

    def apply(self, state: OversiegeState, action: Action) -> Outcome[OversiegeState, Action]:
        if state.over:
            raise Rejection("game-over", "The game is over; start a new one to play again.")
        work = state.fork()
        handler = self._handlers.get(action.kind)
        if handler is None:
            raise Rejection("bad-action", f"Oversiege has no play called {action.kind!r}.")
        events = handler(work, action)
        return Outcome(work.settled(), action, tuple(events))

    def legal_actions(self, state: OversiegeState) -> list[Action]:
        """Every play `apply` accepts now. The daemon does not know the hand, so every card
        that may be in it (neither in play nor discarded) is offered.

        Generated without applying each candidate (python-chess's way): every play from hand
        first passes `check_card`, judged once per card for all its targets; an aim is judged
        by `_check_hit`, once per kind of projectile; the plays whose handlers check nothing
        more than that are decided by those checks alone (`_candidates` judges them as it
        lists them), and the rest (doubles at one side, remembered under the sides'
        signatures) are worked out by `apply` on a fork that copies only what they touch."""
        if state.over:
            return []
        if len(self._verdicts) > 200_000:
            self._verdicts.clear()
        judged: list[bool | None] = []
        candidates = self._candidates(state, {}, self._card_keeper(state), {}, judged)
        out: list[Action] = []
        for action, ok in zip(candidates, judged, strict=True):
            if ok is None:
                try:
                    self.apply(state, action)
                except Rejection:
                    ok = False
                else:
                    ok = True
            if ok:
                out.append(action)
        return out

    def _card_keeper(self, state: OversiegeState) -> Callable[[str, bool], bool]:
        """check_card's verdict on one of the current player's own loose cards (neither in
        play nor discarded), remembered across states by everything it reads: the card's
        kind, playing or discarding, the hand at two or fewer, nothing drawn this turn, the
        kinds of armaments in play and whether a blockade stands (see _card_fault)."""
        side = state.sides[state.current]
        situation = (side.hand <= HAND_KEPT, state.drawn == 0,
                     tuple(sorted(self._kind(a) for a in side.armaments)),
                     side.blockade is None)
        verdicts = self._verdicts

        def keep(card: str, playing: bool) -> bool:
            key = ("card", situation, self._kind(card), playing)
            ok = verdicts.get(key)
            if ok is None:
                ok = verdicts[key] = self._card_ok(state, card, playing)
            return ok

        return keep

    def _side_id(self, state: OversiegeState, player: str, ids: dict[Any, int],
                 part: str = "") -> int:
        """A number for everything about a player's side that aiming at it reads (_check_hit,
        and a double's apply), the same for the same values in any state (noted in `ids` for
        one listing). `part` "castle": only what aiming at its castle cards reads (what is
        destroyed, whether the crown is taken); "play": only what aiming at its cards in play
        reads (armaments, blockade, the crown); "": all of it."""
        number = ids.get((player, part))
        if number is None:
            side = peek(state.sides, player)
            if part == "castle":
                signature: tuple[Any, ...] = (part, player, tuple(side.destroyed),
                                              side.chamber_open)
            elif part == "play":
                signature = (part, player, tuple(side.armaments), side.blockade,
                             side.chamber_open)
            else:
                signature = (part, self._side_id(state, player, ids, "castle"),
                             self._side_id(state, player, ids, "play"))
            number = self._verdicts.get(signature)
            if number is None:
                number = self._verdicts[signature] = len(self._verdicts)
            ids[(player, part)] = number
        return number

    def _noted(
        self, state: OversiegeState, action: Action, first: str, second: str,
        ids: dict[Any, int],
    ) -> bool:
        """The verdict on a double whose card already passed check_card, worked out on a fork
        once and remembered: past check_card, it depends on the targets' sides and the
        attacker's team alone, so it is kept under their numbers (_side_id)."""
        one, two = self._deck_of(first), self._deck_of(second)
        if one not in state.sides or two not in state.sides:
            return False
        key = ("double", tuple(state.team_of(state.current)), self._kind(action.card or ""),
               first, second, self._side_id(state, one, ids),  # type: ignore[arg-type]
               self._side_id(state, two, ids))  # type: ignore[arg-type]
        ok = self._verdicts.get(key)
        if ok is None:
            # what `_attack` does past check_card and the count of targets (both known to
            # pass): the hits in order on a fork, each judged by `_hit`'s own check
            work = state.fork()
            try:
                for target in self._hit_order(work, (first, second)):
                    self._hit(work, state.current, self._kind(action.card or ""), target)
            except Rejection:
                ok = False
            else:
                ok = True
            self._verdicts[key] = ok
        return ok

    def _deck(self, player: str) -> list[str]:
        deck = self._decks.get(player)
        if deck is None:
            deck = self._decks[player] = self.cards.deck_cards(player)
        return deck

    def _deck_kinds(self, player: str) -> list[tuple[str, str]]:
        """(card, kind) for each card of a player's deck (built once per name)."""
        deck = self._kinds.get(player)
        if deck is None:
            deck = self._kinds[player] = [(c, self._kind(c)) for c in self._deck(player)]
        return deck

    def _castle(self, player: str) -> list[str]:
        """The piece ids of a player's towers and entrance (built once per name)."""
        ids = self._castles.get(player)
        if ids is None:
            ids = self._castles[player] = [castle_id(player, p) for p in (*TOWERS, ENTRANCE)]
        return ids

    def _chamber(self, player: str) -> str:
        return castle_id(player, CHAMBER)

    def _deck_of(self, card: str) -> str | None:
        try:
            return parse_piece(card, self.cards).deck
        except Rejection:
            return None

    def _side_of(self, state: OversiegeState, card: str) -> Side | None:
        deck = self._deck_of(card)
        return None if deck is None else state.sides.get(deck)

    def _card_ok(self, state: OversiegeState, card: str, playing: bool) -> bool:
        if state.over:
            return False
        try:
            piece = parse_piece(card, self.cards)
        except Rejection:
            return False
        return self._card_fault(state, piece, playing) is None

    def state_to_json(self, state: OversiegeState) -> JSON:
        return state.to_json()

    def state_from_json(self, data: JSON) -> OversiegeState:
        return OversiegeState.from_json(data)

    def action_to_json(self, action: Action) -> JSON:
        return act.action_to_json(action)

    def action_from_json(self, data: JSON) -> Action:
        return act.action_from_json(data)

    def public_view(self, state: OversiegeState, reveal: bool = False) -> JSON:
        """Everything the engine knows is on the table; it never knows a hand's cards, so
        `reveal` adds nothing."""
        castles: dict[str, Any] = {}
        for player in state.players:
            side = state.sides[player]
            castles[player] = {
                "towers": {
                    t.split("/")[1]: "standing" if side.standing(t) else "destroyed"
                    for t in TOWERS
                },
                "entrance": "standing" if side.standing(ENTRANCE) else "destroyed",
                "chamber": "open" if side.chamber_open else "closed",
                "armaments": list(side.armaments),
                "blockade": side.blockade,
                "hand": side.hand,
                "deck": side.deck,
                "discard": list(side.discard),
                "draws": draw_count(side, self.cards),
                "out": side.chamber_open,
            }
        return {
            "game": self.name,
            "players": list(state.players),
            "teams": [list(t) for t in state.teams] if state.bridge else None,
            "first_crown_wins": state.first_crown_wins,
            "turn": self.current_player(state),
            "turn_number": state.turn_number,
            "drawn": state.drawn,
            "castles": castles,
            "over": state.over,
            "winners": list(state.winners),
        }

    def scores(self, state: OversiegeState) -> dict[str, int]:
        """1 for every member of the winning side once the game is won, else 0."""
        return {p: int(p in state.winners) for p in state.players}

    def current_player(self, state: OversiegeState) -> str | None:
        return None if state.over else state.current

    def winners(self, state: OversiegeState) -> list[str]:
        return list(state.winners)

    def is_over(self, state: OversiegeState) -> bool:
        return state.over

    # -- checks shared with the table layer -----------------------------------------------------

    def check_card(
        self, state: OversiegeState, card: str, playing: bool = True
    ) -> Piece:
        """A card the current player may play (or, with `playing` false, discard) from hand
        now; raises the reason it is not.

        The table calls this on the first tap of a gesture, so a family hears "no catapult in
        play" when they tap the stone rather than after they tap its target.
        """
        if state.over:
            raise Rejection("game-over", "The game is over; start a new one to play again.")
        piece = parse_piece(card, self.cards)
        fault = self._card_fault(state, piece, playing)
        if fault is not None:
            raise Rejection(fault[0], fault[1]())
        return piece

    def _card_fault(
        self, state: OversiegeState, piece: Piece, playing: bool
    ) -> tuple[str, Callable[[], str]] | None:
        """Why `check_card` refuses a parsed card: (code, the message, built only when asked
        for), or None. Legal-move generation asks this for every card in the deck, most of
        them refused, so the reason is returned rather than raised and no sentence is built
        that nobody reads."""
        card = piece.id
        if piece.castle:
            return ("not-a-play", lambda: f"{card} is part of a castle: play a card from your "
                    "hand first, then tap it.")
        owner = piece.deck
        if owner not in state.sides:
            return ("unknown-deck", lambda: f"No player has the {owner} deck; players are "
                    f"{', '.join(state.players)}.")
        if owner != state.current:
            return ("not-your-turn",
                    lambda: f"It is {state.current}'s turn; {card} belongs to {owner}'s deck.")
        side = state.sides[owner]
        if card in side.in_play():
            return ("card-in-play", lambda: f"{card} is already in play, not in a hand.")
        if card in side.discard:
            return ("card-discarded", lambda: f"{card} is in the discard pile; it comes back "
                    "only when the pile is turned over to become the deck.")
        # TURNS: a player who drew nothing holds just the cards kept at the end of their last
        # turn, and this is the "following turn" a key among them waited for. Playing it never
        # shrinks the hand (GROUP PLAY: it stays; two players: the game is won).
        kept_key = playing and piece.part == "key" and state.drawn == 0
        if side.hand <= HAND_KEPT and not kept_key:
            if piece.part == "key" and playing:
                return ("keep-two", lambda: f"{owner} holds {side.hand} cards: a key among the "
                        "two cards kept at the end of a turn must wait for the following turn "
                        "(TURNS); play it then.")
            return ("keep-two", lambda: f"{owner} holds {side.hand} cards and must end the turn "
                    "with two: no more cards can be played or discarded this turn.")
        if playing and piece.part in PROJECTILES:
            needs = self.cards.projectiles[piece.part].armament
            if not any(self._kind(a) == needs for a in side.armaments):
                return ("no-armament",
                        lambda: f"A {piece.part} needs a {needs} in play; place one first.")
        if playing and piece.part == "blockade" and side.blockade is not None:
            return ("blockade-standing", lambda: f"{owner}'s castle already has a blockade; a "
                    "second one cannot be placed until it is hit.")
        return None

    def needs_targets(self, card: str) -> int:
        """How many cards a play taps after the card itself (0 for one-tap plays)."""
        part = parse_piece(card, self.cards).part
        if part in PROJECTILES:
            return self.cards.projectiles[part].hits
        return 1 if part in ("rebuild", "key") else 0

    # -- the plays ------------------------------------------------------------------------------

    def _armament(self, state: OversiegeState, action: Action) -> list[Event]:
        """ARMAMENTS: two in play at most; one may be discarded and replaced from hand."""
        piece = self._hand_card(state, action, ARMAMENTS, "an armament")
        side = state.sides[piece.deck]
        events: list[Event] = []
        if action.targets:
            old = action.targets[0]
            if old not in side.armaments:
                raise Rejection(
                    "not-your-armament",
                    f"{old} is not one of {piece.deck}'s armaments in play, so it cannot be "
                    "replaced.",
                )
            side.armaments.remove(old)
            side.discard.append(old)
            events.append(Event("discard", f"{old} goes to {piece.deck}'s discard pile.",
                                {"player": piece.deck, "card": old}))
        elif len(side.armaments) >= 2:
            raise Rejection(
                "armaments-full",
                f"{piece.deck} already has two armaments in play; tap the new one, then the "
                "one it replaces.",
            )
        side.armaments.append(piece.id)
        side.hand -= 1
        events.insert(0, Event("armament", f"{piece.deck} places {piece.id}.",
                               {"player": piece.deck, "card": piece.id}))
        return events

    def _attack(self, state: OversiegeState, action: Action) -> list[Event]:
        """PROJECTILES and BLOCKADE: fire from hand with the armament in play; the projectile
        destroys a castle card with its red icon or an opponent's armament of its type; a
        blockade takes the hit instead (a double also hits its second target)."""
        piece = self._hand_card(state, action, PROJECTILES, "a projectile")
        projectile = self.cards.projectiles[piece.part]
        attacker = piece.deck
        if len(action.targets) != projectile.hits:
            self._check_short_double(state, attacker, piece, projectile, action.targets)
        if len(set(action.targets)) != len(action.targets):
            raise Rejection("same-target", "A double projectile needs two different targets.")
        events = [Event("attack", f"{attacker} fires {piece.id}.",
                        {"player": attacker, "card": piece.id})]
        for target in self._hit_order(state, action.targets):
            events.append(self._hit(state, attacker, piece.part, target))
        side = state.sides[attacker]
        side.hand -= 1
        side.discard.append(piece.id)
        return events

    def _hit_order(self, state: OversiegeState, targets: tuple[str, ...]) -> list[str]:
        """A blockade named as a target is hit first, whatever order it was tapped in: "the
        blockade and another element" is one shot, not a race between the two."""
        blockades = {side.blockade for side in state.sides.values()}
        return sorted(targets, key=lambda t: t not in blockades)

    def _hit(self, state: OversiegeState, attacker: str, kind: str, target: str) -> Event:
        victim, piece = self._check_hit(state, attacker, kind, target)
        side = state.sides[victim]
        if side.blockade is not None:
            blockade = side.blockade
            side.blockade = None
            side.discard.append(blockade)
            return Event("blockade-hit", f"{victim}'s blockade takes the hit and is discarded.",
                         {"player": victim, "card": blockade, "aimed": target})
        if piece.castle:
            side.destroyed.append(piece.part)
            return Event("destroyed", f"{victim}'s {piece.part} is destroyed.",
                         {"player": victim, "card": target})
        side.armaments.remove(target)
        side.discard.append(target)
        return Event("destroyed", f"{victim}'s {piece.part} is destroyed and discarded.",
                     {"player": victim, "card": target})

    def _check_short_double(
        self, state: OversiegeState, attacker: str, piece: Piece, projectile: Projectile,
        targets: tuple[str, ...],
    ) -> None:
        """PROJECTILES: "Double projectiles can destroy two cards at once": a power, not a
        duty. A double names one target only when no second card is in its reach (the last
        standing tower, say); otherwise it names two, so a tap-by-tap table knows when the
        play is complete. Raises `target-count` for any other count."""
        if projectile.hits != 2 or len(targets) != 1:
            raise Rejection(
                "target-count",
                f"A {piece.part} hits {projectile.hits} card(s); "
                f"{len(targets)} target(s) were given.",
            )
        second = self._second_target(state, attacker, piece.part, targets[0])
        if second is not None:
            raise Rejection(
                "target-count",
                f"A {piece.part} hits two cards and {second} can be its second target; "
                "name both.",
            )

    def _second_target(
        self, state: OversiegeState, attacker: str, kind: str, first: str
    ) -> str | None:
        """A card a double aimed at `first` could also hit (judged before and after the first
        hit, which may open the way: the last tower, then the entrance), or None."""
        try:
            self._check_hit(state, attacker, kind, first)
        except Rejection:
            return None  # the first aim is refused on its own; apply() says why
        after = state.clone()
        self._hit(after, attacker, kind, first)
        for other in state.players:
            if not state.is_opponent(attacker, other) or not state.in_game(other):
                continue
            cards = [castle_id(other, p) for p in (*TOWERS, ENTRANCE)]
            cards += state.sides[other].in_play()
            for card in cards:
                if card == first:
                    continue
                for where in (state, after):
                    try:
                        self._check_hit(where, attacker, kind, card)
                    except Rejection:
                        continue
                    return card
        return None

    def _check_hit(
        self, state: OversiegeState, attacker: str, kind: str, target: str
    ) -> tuple[str, Piece]:
        """Whether a projectile may be aimed at `target`, blockade or not (an aim the rules
        forbid is refused even behind a blockade); raises the reason it may not."""
        projectile = self.cards.projectiles[kind]
        victim, piece = self._opponent_card(state, attacker, target)
        side = state.sides[victim]
        if piece.castle:
            if piece.part == CHAMBER:
                raise Rejection(
                    "chamber-not-attackable",
                    "The chamber cannot be attacked: it is opened with the key once the towers "
                    "and the entrance are down.",
                )
            if projectile.icon not in self.cards.red[piece.part]:
                raise Rejection(
                    "wrong-icon",
                    f"{target} does not show the red {projectile.icon} icon, so a {kind} "
                    "cannot destroy it.",
                )
            if not side.standing(piece.part):
                raise Rejection("already-destroyed", f"{target} is already destroyed.")
            if piece.part == ENTRANCE:
                standing = [t for t in TOWERS if side.standing(t)]
                if standing:
                    raise Rejection(
                        "towers-standing",
                        f"All four towers must be destroyed before the entrance; "
                        f"{victim}'s {_still_standing(standing)}.",
                    )
        elif target == side.blockade:
            pass
        elif target in side.armaments:
            if self._kind(target) != projectile.armament:
                raise Rejection(
                    "wrong-icon",
                    f"A {kind} destroys a {projectile.armament}, not a {self._kind(target)}.",
                )
        else:
            raise Rejection(
                "not-a-target",
                f"{target} is not in play: a projectile hits a castle card, an armament or a "
                "blockade.",
            )
        return victim, piece

    def _rebuild(self, state: OversiegeState, action: Action) -> list[Event]:
        """REBUILD: flip one destroyed tower or the entrance back; in bridge-style play a
        partner's castle too (GROUP PLAY)."""
        piece = self._hand_card(state, action, ("rebuild",), "a rebuild card")
        player = piece.deck
        target = self._one_target(action)
        fault = self._rebuild_fault(state, player, target)
        if fault is not None:
            raise Rejection(fault[0], fault[1]())
        tp = parse_piece(target, self.cards)
        owner = tp.deck
        side = state.sides[owner]
        side.destroyed.remove(tp.part)
        mine = state.sides[player]
        mine.hand -= 1
        mine.discard.append(piece.id)
        whose = "their" if owner == player else f"{owner}'s"
        return [Event("rebuilt", f"{player} rebuilds {whose} {tp.part}.",
                      {"player": player, "card": target})]

    def _rebuild_fault(
        self, state: OversiegeState, player: str, target: str
    ) -> tuple[str, Callable[[], str]] | None:
        """Why `player` may not rebuild `target` (code, message built on demand), or None.
        legal_actions asks this for every castle part of the player's team instead of
        working each rebuild out with apply."""
        try:
            tp = parse_piece(target, self.cards)
            owner = self._known_deck(state, tp)
        except Rejection as refused:
            code, message = refused.code, refused.message
            return (code, lambda: message)
        if not tp.castle or tp.part == CHAMBER:
            return ("not-rebuildable",
                    lambda: f"{target} cannot be rebuilt: only a tower or the entrance can.")
        if owner != player and (not state.bridge or state.is_opponent(player, owner)):
            return ("not-partner", lambda: f"{player} may rebuild only their own castle"
                    + (" or a partner's." if state.bridge else "."))
        if not state.in_game(owner):
            return ("player-out", lambda: f"{owner}'s crown is taken; their castle is out.")
        if state.sides[owner].standing(tp.part):
            return ("not-destroyed", lambda: f"{target} is not destroyed; nothing to rebuild.")
        return None

    def _key_fault(
        self, state: OversiegeState, player: str, target: str
    ) -> tuple[str, Callable[[], str]] | None:
        """Why `player`'s key may not open `target` (code, message built on demand), or None.
        legal_actions asks this for every opponent's chamber instead of applying each key."""
        try:
            victim, tp = self._opponent_card(state, player, target)
        except Rejection as refused:
            code, message = refused.code, refused.message
            return (code, lambda: message)
        if tp.part != CHAMBER:
            return ("not-a-chamber", lambda: "The key opens a chamber: tap the chamber card.")
        side = state.sides[victim]
        if side.blockade is not None:
            return ("blockaded", lambda: f"{victim}'s blockade stands: the key cannot open the "
                    "chamber until it is hit.")
        standing = [p for p in (*TOWERS, ENTRANCE) if side.standing(p)]
        if standing:
            return ("castle-standing", lambda: "The chamber opens only when every tower and the "
                    f"entrance are destroyed; {victim}'s {_still_standing(standing)}.")
        return None

    def _key(self, state: OversiegeState, action: Action) -> list[Event]:
        """KEY and ORDER 3: the key opens a chamber whose towers and entrance are all down and
        that no blockade shields; the crown is captured. TURNS: a key among the two cards kept
        at the end of a turn waits for the following turn: while this turn's draw is in hand
        it counts against the two cards kept like any card, and with nothing drawn it is played
        from the two kept cards (see check_card). It then stays in hand (GROUP PLAY), so the
        hand size does not change."""
        piece = self._hand_card(state, action, ("key",), "the key")
        player = piece.deck
        target = self._one_target(action)
        fault = self._key_fault(state, player, target)
        if fault is not None:
            raise Rejection(fault[0], fault[1]())
        victim = parse_piece(target, self.cards).deck
        side = state.sides[victim]
        side.chamber_open = True
        events = [
            Event("chest-open", f"{player} opens {victim}'s chamber and captures the crown!",
                  {"player": player, "chamber": victim}),
        ]
        alive = [t for t in state.teams if any(state.in_game(p) for p in t)]
        if state.first_crown_wins:
            alive = [state.team_of(player)]
        if len(alive) == 1:
            state.winners = list(alive[0])
            names = " and ".join(state.winners)
            verb = "wins" if len(state.winners) == 1 else "win"
            events.append(Event("win", f"{names} {verb} the siege!",
                                {"winners": list(state.winners)}))
        else:
            events.append(Event("out", f"{victim} is out of the game.", {"player": victim}))
        return events

    def _blockade(self, state: OversiegeState, action: Action) -> list[Event]:
        """BLOCKADE: placed in front of your own castle; one at a time (decision)."""
        piece = self._hand_card(state, action, ("blockade",), "a blockade")
        side = state.sides[piece.deck]
        side.blockade = piece.id
        side.hand -= 1
        return [Event("blockade", f"{piece.deck} places a blockade.",
                      {"player": piece.deck, "card": piece.id})]

    def _discard(self, state: OversiegeState, action: Action) -> list[Event]:
        """TURNS: any card may be discarded, as long as two stay in hand."""
        if action.targets:
            raise Rejection("bad-action", "A discard names one card and nothing else.")
        if action.card is None:
            raise Rejection("bad-action", "A discard needs the card.")
        piece = self.check_card(state, action.card, playing=False)
        side = state.sides[piece.deck]
        side.hand -= 1
        side.discard.append(piece.id)
        return [Event("discard", f"{piece.deck} discards {piece.id}.",
                      {"player": piece.deck, "card": piece.id})]

    def _end_turn(self, state: OversiegeState, action: Action) -> list[Event]:
        """TURNS: end with exactly two cards; the next player draws from their castle's blue
        icons, turning the discard pile over when the deck runs out."""
        if action.card is not None or action.targets:
            raise Rejection("bad-action", "Ending the turn names no card.")
        player = state.current
        side = state.sides[player]
        if side.hand > HAND_KEPT:
            extra = side.hand - HAND_KEPT
            raise Rejection(
                "hand-too-full",
                f"{player} holds {side.hand} cards: play or discard {extra} more before "
                "ending the turn.",
            )
        n = len(state.players)
        nxt = next(
            i for i in ((state.turn + k) % n for k in range(1, n + 1))
            if state.in_game(state.players[i])
        )
        state.turn = nxt
        state.turn_number += 1
        side = state.sides[state.current]
        drawn, turned = _draw(side, draw_count(side, self.cards))
        state.drawn = drawn
        events = []
        if turned:
            events.append(Event("turnover", f"{state.current}'s discard pile becomes the deck.",
                                {"player": state.current}))
        events.append(Event("turn", f"{state.current}'s turn: draw {drawn}.",
                            {"player": state.current, "draw": drawn}))
        return events

    # -- helpers --------------------------------------------------------------------------------

    def _hand_card(
        self, state: OversiegeState, action: Action, kinds: tuple[str, ...], what: str
    ) -> Piece:
        if action.card is None:
            raise Rejection("bad-action", f"This play needs {what} card.")
        piece = parse_piece(action.card, self.cards)
        if piece.castle or piece.part not in kinds:
            raise Rejection("wrong-card", f"{action.card} is not {what}.")
        return self.check_card(state, action.card)

    def _known_deck(self, state: OversiegeState, piece: Piece) -> str:
        if piece.deck not in state.sides:
            raise Rejection(
                "unknown-deck",
                f"No player has the {piece.deck} deck; players are {', '.join(state.players)}.",
            )
        return piece.deck

    def _opponent_card(self, state: OversiegeState, player: str, target: str) -> tuple[str,
                                                                                        Piece]:
        piece = parse_piece(target, self.cards)
        owner = self._known_deck(state, piece)
        if owner == player:
            raise Rejection("not-opponent", f"{target} is {player}'s own card.")
        if not state.is_opponent(player, owner):
            raise Rejection("not-opponent", f"{target} belongs to {owner}, {player}'s partner.")
        if not state.in_game(owner):
            raise Rejection("player-out", f"{owner}'s crown is taken; their cards are out.")
        return owner, piece

    def _one_target(self, action: Action) -> str:
        if len(action.targets) != 1:
            raise Rejection("target-count", "This play takes exactly one target card.")
        return action.targets[0]

    def _kind(self, card: str) -> str:
        return card.split("/")[2]

    def _aims(
        self, state: OversiegeState, player: str, kind: str,
        by_side: list[tuple[str, list[str], list[str]]], ids: dict[Any, int],
    ) -> list[str]:
        """The targets `_check_hit` allows, of each side's (side, castle cards, cards in
        play). The verdicts on a side's castle cards depend on what is destroyed there and
        the crown, those on its cards in play on those cards and the crown, and both on the
        attacker's team: each is remembered under that part of the side (_side_id) and
        reused while it looks the same."""
        aims: list[str] = []
        team = tuple(state.team_of(player))
        verdicts = self._verdicts
        for other, castle, in_play in by_side:
            for part, targets in (("castle", castle), ("play", in_play)):
                if not targets:
                    continue
                key = ("aims", team, kind, self._side_id(state, other, ids, part))
                hit = verdicts.get(key)
                if hit is None:
                    hit = verdicts[key] = [t for t in targets
                                           if self._aim_ok(state, player, kind, t)]
                aims += hit
        return aims

    def _key_ok(self, state: OversiegeState, player: str, team: tuple[str, ...], chamber: str,
                victim: str, ids: dict[Any, int]) -> bool:
        """_key_fault's verdict on `victim`'s chamber, remembered under the attacker's team
        and the victim's side (all it reads)."""
        key = ("key", team, chamber, self._side_id(state, victim, ids))
        ok = self._verdicts.get(key)
        if ok is None:
            ok = self._verdicts[key] = self._key_fault(state, player, chamber) is None
        return ok

    def _aim_ok(self, state: OversiegeState, player: str, kind: str, target: str) -> bool:
        try:
            self._check_hit(state, player, kind, target)
        except Rejection:
            return False
        return True

    def _candidates(
        self, state: OversiegeState, aims_by_kind: dict[str, list[str]] | None = None,
        keep: Callable[[str, bool], bool] | None = None, ids: dict[Any, int] | None = None,
        judged: list[bool | None] | None = None,
    ) -> list[Action]:
        """Every play worth judging now, legal or not; the aims found for each kind of
        projectile are left in `aims_by_kind`. With `keep`, only the plays of cards it keeps
        ((card, playing) -> bool) are listed; it is asked about one card of each kind: every
        card listed is the player's own, neither in play nor discarded, and check_card's
        verdict on such a card depends on its kind alone.

        With `judged` (and `keep`: every card listed passed check_card), each candidate's
        verdict goes into it, in order: whether the play is legal, for the plays whose handler
        checks nothing else, or None: ask `apply`. They mirror `_discard`, `_blockade`,
        `_armament`, `_end_turn`, `_rebuild` and `_key` (through the faults they raise), a
        single-hit `_attack` (its aims) and a double at two sides (a hit changes only its
        victim's side, so each target is judged as if aimed at alone); a double at one side
        is `_noted`. The property tests compare legal_actions with `apply` on every
        candidate."""
        if aims_by_kind is None:
            aims_by_kind = {}
        if ids is None:
            ids = {}
        judge = judged is not None
        player = state.current
        side = state.sides[player]
        act = self._action
        known = set(side.in_play()) | set(side.discard)
        loose = [ck for ck in self._deck_kinds(player) if ck[0] not in known]
        out: list[Action] = [act("end-turn")]
        verdicts: list[bool | None] = [side.hand <= HAND_KEPT]
        if keep is None:
            out += [act("discard", c) for c, _ in loose]
        else:
            cards: dict[tuple[str, bool], bool] = {}

            def kept(card: str, kind: str, playing: bool) -> bool:
                ok = cards.get((kind, playing))
                if ok is None:
                    ok = cards[(kind, playing)] = keep(card, playing)
                return ok

            out += [act("discard", c) for c, k in loose if kept(c, k, False)]
            loose = [(c, k) for c, k in loose if kept(c, k, True)]
        verdicts += [True] * (len(out) - 1)
        targets: list[str] = []
        owner: dict[str, str] = {}  # each target's deck
        by_side: list[tuple[str, list[str], list[str]]] = []  # each opponent's targets
        chambers: list[str] = []
        rebuildable: list[str] = []
        team = state.team_of(player)
        for other in state.players:
            parts = self._castle(other)
            if other in team:
                rebuildable += parts
            else:
                in_play = peek(state.sides, other).in_play()
                mine = parts + in_play
                targets += mine
                owner.update(dict.fromkeys(mine, other))
                by_side.append((other, parts, in_play))
                chambers.append(self._chamber(other))
        rebuilds: list[bool | None] | None = None
        keys: list[bool | None] | None = None
        for card, kind in loose:
            if kind in ARMAMENTS:
                out.append(act("armament", card))
                verdicts.append(len(side.armaments) < 2)
                out += [act("armament", card, (old,)) for old in side.armaments]
                verdicts += [True] * len(side.armaments)
            elif kind in PROJECTILES:
                hits = self.cards.projectiles[kind].hits
                aims = aims_by_kind.get(kind)
                if aims is None:
                    aims = aims_by_kind[kind] = self._aims(state, player, kind, by_side, ids)
                if hits == 1:
                    out += [act("attack", card, (t,)) for t in aims]
                    verdicts += [True] * len(aims)
                    continue
                # a first hit can open the way for a second (the last tower, then the
                # entrance), so second aims are every aim or entrance; apply() judges.
                seconds = aims + [t for t in targets if t.endswith("/" + ENTRANCE)]
                aimed = set(aims)
                second = [(b, owner[b], b in aimed) for b in dict.fromkeys(seconds)]
                for a in aims:
                    deck = owner[a]
                    for b, other_deck, ok in second:
                        if a == b:
                            continue
                        action = act("attack", card, (a, b))
                        out.append(action)
                        if judge:
                            verdicts.append(ok if other_deck != deck else
                                            self._noted(state, action, a, b, ids))
                if len(aims) == 1:  # with two aims, each is the other's second target
                    out.append(act("attack", card, (aims[0],)))
                    verdicts.append(None)  # apply judges that no second is in reach
            elif kind == "rebuild":
                out += [act("rebuild", card, (t,)) for t in rebuildable]
                if judge and rebuilds is None:  # the same for every rebuild card
                    rebuilds = [self._rebuild_fault(state, player, t) is None
                                for t in rebuildable]
                verdicts += rebuilds or []
            elif kind == "key":
                out += [act("key", card, (c,)) for c in chambers]
                if judge and keys is None:
                    keys = [self._key_ok(state, player, tuple(team), c, o, ids)
                            for c, (o, _, _) in zip(chambers, by_side, strict=True)]
                verdicts += keys or []
            else:
                out.append(act("blockade", card))
                verdicts.append(True)
        if judged is not None:
            judged += verdicts
        return out

    def _action(self, kind: str, card: str | None = None, targets: tuple[str, ...] = ()
                ) -> Action:
        """The play as a shared value: a candidate listed again is the same object, so
        listing does not build a frozen Action for each one every time."""
        key = (kind, card, targets)
        action = self._actions.get(key)
        if action is None:
            if len(self._actions) > 200_000:
                self._actions.clear()
            action = self._actions[key] = Action(kind, card, targets)
        return action


def _still_standing(parts: list[str]) -> str:
    return f"{', '.join(parts)} still {'stands' if len(parts) == 1 else 'stand'}"


def _draw(side: Side, wanted: int) -> tuple[int, bool]:
    """Draw up to `wanted` cards, turning the discard pile over when the deck is empty."""
    drawn, turned = 0, False
    while drawn < wanted:
        if side.deck == 0:
            if not side.discard:
                break
            side.deck, side.discard, turned = len(side.discard), [], True
        take = min(wanted - drawn, side.deck)
        side.deck -= take
        side.hand += take
        drawn += take
    return drawn, turned
