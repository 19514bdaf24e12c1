"""The Oversiege rules engine (rulebook: "Official Rules, last updated 12.16.2020").

Every play is checked against the rulebook's sections (ORDER, TURNS, ARMAMENTS, PROJECTILES,
REBUILD, KEY, BLOCKADE, GROUP PLAY) and the decisions written in docs/games/oversiege.md.

Each kind of play has one check (`_check_armament`, `_check_attack`, ...) and one effect
(`_armament`, `_attack`, ...). `apply` asks the check, raises the refusal it returns, and only
then works the effect out on a fork of the state (OversiegeState.fork: the castles a play
touches are copied, the others shared), so a refused play leaves the caller's state as it was.
`legal_actions` asks the very same checks about every candidate play (python-chess's way),
remembering their verdicts under what they read, so no rule is written twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletap.controller.language.said import ListOf, Said
from tabletap.controller.rules.base import JSON, Event, Outcome, Rejection
from tabletap.controller.rules.sharing import peek
from tabletap.games.oversiege.rules import actions as act
from tabletap.games.oversiege.rules.actions import Action
from tabletap.games.oversiege.rules.data import (
    ARMAMENTS,
    CASTLE_CARDS,
    CHAMBER,
    ENTRANCE,
    PROJECTILES,
    TOWERS,
    Cards,
    load_cards,
)
from tabletap.games.oversiege.rules.pieces import Piece, castle_id, parse_piece
from tabletap.games.oversiege.rules.setup import build_state
from tabletap.games.oversiege.rules.state import HAND_KEPT, OversiegeState, Side, draw_count
from tabletap.games.oversiege.words import card as named
from tabletap.games.oversiege.words import first as opening
from tabletap.games.oversiege.words import msg, msg_n
from tabletap.games.oversiege.words import piece as said

Fault = tuple[str, Callable[[], Said]]
"""A refusal as a check returns it: (code, the message). The message is built only when asked
for: legal-move generation asks the checks about hundreds of plays, most of them refused, and
reads no sentence."""

Check = Callable[[OversiegeState, Action], Fault | None]
Effect = Callable[[OversiegeState, Action], list[Event]]
Targets = tuple[str, ...]
Play = tuple[str, str | None, str]  # (play, card, card kind) as _loose_plays lists them

# The plays made from hand: the card kinds each one takes.
_FROM_HAND: dict[str, tuple[str, ...]] = {
    "armament": ARMAMENTS,
    "attack": PROJECTILES,
    "rebuild": ("rebuild",),
    "key": ("key",),
    "blockade": ("blockade",),
}
_PLAY_OF = {kind: play for play, kinds in _FROM_HAND.items() for kind in kinds}
VERDICTS_KEPT = 200_000  # remembered verdicts (and side numbers) before they are all dropped


def _refused(refusal: Rejection) -> Fault:
    """A Rejection raised by a helper (parse_piece) as a check's Fault."""
    code, message = refusal.code, refusal.said
    return code, lambda: message


def _game_over() -> Rejection:
    # TRANSLATORS: a refusal: a card was played after the siege was won
    return Rejection("game-over", msg("The game is over; start a new one to play again."))


def _wrong_card(play: str, card: str) -> Said:
    """Why a card cannot make `play` (a whole sentence per play: the card is said as a
    card, the kind of card it should be by the catalog)."""
    if play == "armament":
        # TRANSLATORS: a refusal; card is the card tapped ("the red stone")
        return msg("%(card)s is not an armament.", card=opening(card))
    if play == "attack":
        # TRANSLATORS: a refusal; card is the card tapped ("the red key")
        return msg("%(card)s is not a projectile.", card=opening(card))
    if play == "rebuild":
        # TRANSLATORS: a refusal; card is the card tapped ("the red key")
        return msg("%(card)s is not a rebuild card.", card=opening(card))
    if play == "key":
        # TRANSLATORS: a refusal; card is the card tapped ("the red stone")
        return msg("%(card)s is not the key.", card=opening(card))
    # TRANSLATORS: a refusal; card is the card tapped ("the red stone")
    return msg("%(card)s is not a blockade.", card=opening(card))


def _still_standing(player: str, parts: list[str], before: str) -> Said:
    """Why the entrance (`before` "entrance") or the chamber cannot fall yet: the castle
    cards of `player` still standing."""
    names = ListOf(tuple(named(p) for p in parts))
    if before == ENTRANCE:
        # TRANSLATORS: a refusal; player is a name, parts the castle cards still standing
        # ("tower 1 and tower 3"); n how many
        return msg_n("All four towers must be destroyed before the entrance; %(player)s's "
                     "%(parts)s still stands.", "All four towers must be destroyed before the "
                     "entrance; %(player)s's %(parts)s still stand.", len(parts),
                     player=player, parts=names)
    # TRANSLATORS: a refusal; player is a name, parts the castle cards still standing
    # ("tower 4 and entrance"); n how many
    return msg_n("The chamber opens only when every tower and the entrance are destroyed; "
                 "%(player)s's %(parts)s still stands.", "The chamber opens only when every "
                 "tower and the entrance are destroyed; %(player)s's %(parts)s still stand.",
                 len(parts), player=player, parts=names)


class OversiegeEngine:
    name = "oversiege"

    def __init__(self, cards: Cards | None = None) -> None:
        self.cards = cards if cards is not None else load_cards()
        self._decks: dict[str, list[tuple[Play, Play]]] = {}  # _deck_plays
        self._castles: dict[str, list[str]] = {}  # player -> castle card ids, built once
        self._castle_targets: dict[str, list[Targets]] = {}  # the same, as 1-tuples
        # Verdicts legal_actions reuses from state to state, keyed by everything the check
        # they stand for reads (see _Listing). Bounded: cleared when full.
        self._verdicts: dict[Any, Any] = {}
        self._actions: dict[tuple[str, str | None, Targets], Action] = {}
        self._plays: dict[str, tuple[Check, Effect]] = {
            "armament": (self._check_armament, self._armament),
            "attack": (self._check_attack, self._attack),
            "rebuild": (self._check_rebuild, self._rebuild),
            "key": (self._check_key, self._key),
            "blockade": (self._check_blockade, self._blockade),
            "discard": (self._check_discard, self._discard),
            "end-turn": (self._check_end_turn, self._end_turn),
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
        """The play's check first (`check`), on the state as it is; the effect only once the
        check has passed, on a fork."""
        self.check(state, action)
        work = state.fork()
        events = self._plays[action.kind][1](work, action)
        return Outcome(work.settled(), action, tuple(events))

    def check(self, state: OversiegeState, action: Action) -> None:
        """Raise the Rejection `apply` raises for `action`, or return if `apply` accepts it:
        the play's kind's check, which reads the state and never changes it."""
        if state.over:
            raise _game_over()
        play = self._plays.get(action.kind)
        if play is None:
            # TRANSLATORS: a refusal of a play sent from the phone that Oversiege does not have
            raise Rejection("bad-action", msg("Oversiege has no such play."))
        fault = play[0](state, action)
        if fault is not None:
            raise Rejection(fault[0], fault[1]())

    def legal_actions(self, state: OversiegeState) -> list[Action]:
        """Every play `apply` accepts now, in the order of `_candidates`: the candidates that
        pass their kind's check. The daemon does not know the hand, so every card that may be
        in it (neither in play nor discarded) is a candidate.

        The checks are asked in parts, each once for all the candidates it judges alike (see
        _Listing): a check is its card's part (`_hand_fault`, or the whole of a discard's)
        and then its targets' part, and a play is legal when both pass. The card's part reads
        only the card's kind and the player's side, so it is asked once per kind of card and
        a refused card's targets are not looked at; the targets' part does not read the card
        beyond its kind, so all cards of a kind share it; and it is remembered from state to
        state under what it reads of each side."""
        if state.over:
            return []
        if len(self._verdicts) > VERDICTS_KEPT:
            self._verdicts.clear()
        listing = _Listing(self, state)
        action = self._action
        # (play, card kind) -> the targets that pass, none when the card's part refuses
        passing: dict[tuple[str, str], list[Targets]] = {}
        out: list[Action] = []
        for play, card, kind in self._loose_plays(state):
            targets = passing.get((play, kind))
            if targets is None:
                targets = passing[(play, kind)] = (
                    listing.targets_passing(play, kind)
                    if listing.card_passes(play, card, kind) else [])
            if targets:
                out += [action(play, card, t) for t in targets]
        return out

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
            raise _game_over()
        piece = parse_piece(card, self.cards)
        fault = self._card_fault(state, piece, playing)
        if fault is not None:
            raise Rejection(fault[0], fault[1]())
        return piece

    def needs_targets(self, card: str) -> int:
        """How many cards a play taps after the card itself (0 for one-tap plays)."""
        part = parse_piece(card, self.cards).part
        if part in PROJECTILES:
            return self.cards.projectiles[part].hits
        return 1 if part in ("rebuild", "key") else 0

    # -- the checks: one per kind of play -------------------------------------------------------
    #
    # A play from hand is checked in two parts, card first: `_hand_fault` (which reads the
    # card and the player's side), then its targets' part (which reads the targets, the
    # card's kind and the table). legal_actions leans on that split (see _Listing).

    def _check_armament(self, state: OversiegeState, action: Action) -> Fault | None:
        """ARMAMENTS: two in play at most; one may be discarded and replaced from hand."""
        return (self._hand_fault(state, action, "armament")
                or self._replace_fault(state, state.current, action.targets))

    def _check_attack(self, state: OversiegeState, action: Action) -> Fault | None:
        """PROJECTILES and BLOCKADE: fired from hand with the armament in play (check_card),
        at the targets `_aim_fault` allows."""
        fault = self._hand_fault(state, action, "attack")
        if fault is not None or action.card is None:  # a card is named once the hand passes
            return fault
        return self._aim_fault(state, state.current, self._kind(action.card), action.targets)

    def _check_rebuild(self, state: OversiegeState, action: Action) -> Fault | None:
        """REBUILD: one destroyed tower or the entrance (see _rebuild_target_fault)."""
        return (self._hand_fault(state, action, "rebuild")
                or self._rebuild_targets_fault(state, state.current, action.targets))

    def _check_key(self, state: OversiegeState, action: Action) -> Fault | None:
        """KEY and ORDER 3: a chamber whose castle is down and unshielded (_key_target_fault);
        TURNS: a key kept from the last turn waits for the following one (check_card)."""
        return (self._hand_fault(state, action, "key")
                or self._key_targets_fault(state, state.current, action.targets))

    def _check_blockade(self, state: OversiegeState, action: Action) -> Fault | None:
        """BLOCKADE: placed in front of your own castle; one at a time (check_card). It names
        no target: any given are not looked at."""
        return self._hand_fault(state, action, "blockade")

    def _check_discard(self, state: OversiegeState, action: Action) -> Fault | None:
        """TURNS: any card may be discarded, as long as two stay in hand (check_card)."""
        if action.targets:
            # TRANSLATORS: a refusal of a discard sent with targets
            return ("bad-action", lambda: msg("A discard names one card and nothing else."))
        if action.card is None:
            # TRANSLATORS: a refusal of a discard sent without its card
            return ("bad-action", lambda: msg("A discard needs the card."))
        try:
            piece = parse_piece(action.card, self.cards)
        except Rejection as refusal:
            return _refused(refusal)
        return self._card_fault(state, piece, False)

    def _check_end_turn(self, state: OversiegeState, action: Action) -> Fault | None:
        """TURNS: "You must ALWAYS end your turn with two cards in your hand."""
        if action.card is not None or action.targets:
            # TRANSLATORS: a refusal of an end of the turn sent with a card
            return ("bad-action", lambda: msg("Ending the turn names no card."))
        player = state.current
        side = _look(state, player)
        if side.hand > HAND_KEPT:
            extra = side.hand - HAND_KEPT
            # TRANSLATORS: a refusal of end-turn; player is a name, hand the cards held (3 or
            # more), n how many must still go
            return ("hand-too-full", lambda: msg_n(
                "%(player)s holds %(hand)s cards: play or discard %(n)s more before ending the "
                "turn.", "%(player)s holds %(hand)s cards: play or discard %(n)s more before "
                "ending the turn.", extra, player=player, hand=side.hand))
        return None

    # -- the checks' parts ----------------------------------------------------------------------

    def _hand_fault(self, state: OversiegeState, action: Action, play: str) -> Fault | None:
        """The card part of a play from hand: a card of the kind `play` takes, which the
        current player may play now (check_card). Reads the card and nothing of the
        targets."""
        kinds = _FROM_HAND[play]
        card = action.card
        if card is None:
            # TRANSLATORS: a refusal of a play sent from the phone without its card
            return ("bad-action", lambda: msg("This play needs a card from the hand."))
        try:
            piece = parse_piece(card, self.cards)
        except Rejection as refusal:
            return _refused(refusal)
        if piece.castle or piece.part not in kinds:
            return ("wrong-card", lambda: _wrong_card(play, card))
        return self._card_fault(state, piece, True)

    def _card_fault(
        self, state: OversiegeState, piece: Piece, playing: bool
    ) -> Fault | None:
        """Why `check_card` refuses a parsed card, or None. Of the player's side it reads
        whether the card is in play or discarded, the hand, this turn's draw, the kinds of
        armaments in play and whether a blockade stands (_Listing.situation)."""
        card = piece.id
        if piece.castle:
            # TRANSLATORS: a refusal; card is a castle card tapped first ("blue's tower 1")
            return ("not-a-play", lambda: msg("%(card)s is part of a castle: play a card from "
                                              "your hand first, then tap it.", card=opening(card)))
        owner = piece.deck
        if owner not in state.sides:
            return ("unknown-deck", lambda: _unknown_deck(state, owner))
        if owner != state.current:
            # TRANSLATORS: a refusal; player is whose turn it is, card the card tapped ("the
            # blue stone"), owner the name of the player whose deck it is
            return ("not-your-turn", lambda: msg(
                "It is %(player)s's turn; %(card)s belongs to %(owner)s's deck.",
                player=state.current, card=said(card), owner=owner))
        side = _look(state, owner)
        if card in side.in_play():
            # TRANSLATORS: a refusal; card is the card tapped ("the red catapult")
            return ("card-in-play", lambda: msg("%(card)s is already in play, not in a hand.",
                                                card=opening(card)))
        if card in side.discard:
            # TRANSLATORS: a refusal; card is the card tapped ("the red stone")
            return ("card-discarded", lambda: msg(
                "%(card)s is in the discard pile; it comes back only when the pile is turned "
                "over to become the deck.", card=opening(card)))
        # TURNS: a player who drew nothing holds just the cards kept at the end of their last
        # turn, and this is the "following turn" a key among them waited for. Playing it never
        # shrinks the hand (GROUP PLAY: it stays; two players: the game is won).
        kept_key = playing and piece.part == "key" and state.drawn == 0
        if side.hand <= HAND_KEPT and not kept_key:
            if piece.part == "key" and playing:
                # TRANSLATORS: a refusal; player is a name, n the cards they hold (two or fewer)
                return ("keep-two", lambda: msg_n(
                    "%(player)s holds %(n)s card: a key among the two cards kept at the end of "
                    "a turn must wait for the following turn; play it then.",
                    "%(player)s holds %(n)s cards: a key among the two cards kept at the end of "
                    "a turn must wait for the following turn; play it then.", side.hand,
                    player=owner))
            return ("keep-two", lambda: _keep_two(owner, side.hand))
        if playing and piece.part in PROJECTILES:
            needs = self.cards.projectiles[piece.part].armament
            if not any(self._kind(a) == needs for a in side.armaments):
                # TRANSLATORS: a refusal; card is a projectile ("stone"), armament the armament
                # that fires it ("catapult")
                return ("no-armament", lambda: msg(
                    "A %(card)s needs a %(armament)s in play; place one first.",
                    card=named(piece.part), armament=named(needs)))
        if playing and piece.part == "blockade" and side.blockade is not None:
            # TRANSLATORS: a refusal; player is a name
            return ("blockade-standing", lambda: msg(
                "%(player)s's castle already has a blockade; a second one cannot be placed "
                "until it is hit.", player=owner))
        return None

    def _replace_fault(
        self, state: OversiegeState, player: str, targets: Targets
    ) -> Fault | None:
        """ARMAMENTS: the targets' part of an armament: with one named, it is one of the
        player's armaments in play, which the new one replaces; with none, fewer than two are
        in play. Reads the player's armaments."""
        side = _look(state, player)
        if targets:
            old = targets[0]
            if old not in side.armaments:
                # TRANSLATORS: a refusal; card is the card tapped ("the blue stone"), player a
                # name
                return ("not-your-armament", lambda: msg(
                    "%(card)s is not one of %(player)s's armaments in play, so it cannot be "
                    "replaced.", card=opening(old), player=player))
        elif len(side.armaments) >= 2:
            # TRANSLATORS: a refusal; player is a name
            return ("armaments-full", lambda: msg(
                "%(player)s already has two armaments in play; tap the new one, then the one "
                "it replaces.", player=player))
        return None

    def _aim_fault(
        self, state: OversiegeState, attacker: str, kind: str, targets: Targets
    ) -> Fault | None:
        """PROJECTILES: the targets' part of an attack with a projectile of `kind`: as many
        as it hits (or a double's one, _short_double_fault), different, and each hit allowed
        in turn on what the hits before leave (_hits_fault)."""
        projectile = self.cards.projectiles[kind]
        if len(targets) != projectile.hits:
            fault = self._short_double_fault(state, attacker, kind, targets)
            if fault is not None:
                return fault
        if len(set(targets)) != len(targets):
            # TRANSLATORS: a refusal: a double projectile aimed twice at the same card
            return ("same-target", lambda: msg("A double projectile needs two different "
                                               "targets."))
        return self._hits_fault(state, attacker, kind, targets)

    def _short_double_fault(
        self, state: OversiegeState, attacker: str, kind: str, targets: Targets
    ) -> Fault | None:
        """PROJECTILES: "Double projectiles can destroy two cards at once": a power, not a
        duty. A double names one target only when no second card is in its reach (the last
        standing tower, say); otherwise it names two, so a tap-by-tap table knows when the
        play is complete. `target-count` for any other count."""
        hits = self.cards.projectiles[kind].hits
        if hits != 2 or len(targets) != 1:
            # TRANSLATORS: a refusal; card is a projectile ("stone"), n how many cards it hits
            return ("target-count", lambda: msg_n(
                "A %(card)s hits %(n)s card, no more and no fewer.",
                "A %(card)s hits %(n)s cards, no more and no fewer.", hits, card=named(kind)))
        second = self._second_target(state, attacker, kind, targets[0])
        if second is not None:
            # TRANSLATORS: a refusal; card is a double projectile ("double stone"), second a
            # card it could also hit ("blue's tower 2")
            return ("target-count", lambda: msg(
                "A %(card)s hits two cards and %(second)s can be its second target; tap both.",
                card=named(kind), second=said(second)))
        return None

    def _second_target(
        self, state: OversiegeState, attacker: str, kind: str, first: str
    ) -> str | None:
        """The first card on the table (`_table_cards`) other than `first` that a double
        aimed at `first` could also hit, judged before and after the first hit (which may
        open the way: the last tower, then the entrance), or None; None too when `first`
        is refused on its own (the hit's check then says why)."""
        if self._hit_fault(state, attacker, kind, first) is not None:
            return None
        after = self._after_hit(state, first)
        for card in self._table_cards(state):
            if card == first:
                continue
            for where in (state, after):
                if self._hit_fault(where, attacker, kind, card) is None:
                    return card
        return None

    def _hits_fault(
        self, state: OversiegeState, attacker: str, kind: str, targets: Targets
    ) -> Fault | None:
        """Each hit of the attack in `_hit_order`, judged by `_hit_fault` on the state the
        hits before it leave."""
        order = self._hit_order(state, targets)
        where = state
        for n, target in enumerate(order, 1):
            fault = self._hit_fault(where, attacker, kind, target)
            if fault is not None:
                return fault
            if n < len(order):
                where = self._after_hit(where, target)
        return None

    def _hit_fault(
        self, state: OversiegeState, attacker: str, kind: str, target: str
    ) -> Fault | None:
        """Whether a projectile may be aimed at `target`, blockade or not (an aim the rules
        forbid is refused even behind a blockade). Reads the attacker's team and the target
        owner's side: its castle for a castle card, its cards in play for the others."""
        fault = self._opponent_fault(state, attacker, target)
        if fault is not None:
            return fault
        projectile = self.cards.projectiles[kind]
        piece = parse_piece(target, self.cards)
        victim = piece.deck
        side = _look(state, victim)
        if piece.castle:
            if piece.part == CHAMBER:
                # TRANSLATORS: a refusal: a projectile aimed at a chamber
                return ("chamber-not-attackable", lambda: msg(
                    "The chamber cannot be attacked: it is opened with the key once the towers "
                    "and the entrance are down."))
            if projectile.icon not in self.cards.red[piece.part]:
                # TRANSLATORS: a refusal; target is a castle card ("blue's tower 3"), icon the
                # red icon a projectile matches ("stone"), card the projectile ("stone")
                return ("wrong-icon", lambda: msg(
                    "%(target)s does not show the red %(icon)s icon, so a %(card)s cannot "
                    "destroy it.", target=opening(target), icon=named(projectile.icon),
                    card=named(kind)))
            if not side.standing(piece.part):
                # TRANSLATORS: a refusal; target is a castle card ("blue's tower 1")
                return ("already-destroyed", lambda: msg("%(target)s is already destroyed.",
                                                         target=opening(target)))
            if piece.part == ENTRANCE:
                standing = [t for t in TOWERS if side.standing(t)]
                if standing:
                    return ("towers-standing",
                            lambda: _still_standing(victim, standing, ENTRANCE))
        elif target == side.blockade:
            pass
        elif target in side.armaments:
            if self._kind(target) != projectile.armament:
                # TRANSLATORS: a refusal; card is a projectile ("stone"), armament the armament
                # it destroys ("catapult"), target the armament aimed at ("crossbow")
                return ("wrong-icon", lambda: msg(
                    "A %(card)s destroys a %(armament)s, not a %(target)s.", card=named(kind),
                    armament=named(projectile.armament), target=named(self._kind(target))))
        else:
            # TRANSLATORS: a refusal; target is the card aimed at ("the blue stone")
            return ("not-a-target", lambda: msg(
                "%(target)s is not in play: a projectile hits a castle card, an armament or a "
                "blockade.", target=opening(target)))
        return None

    def _opponent_fault(
        self, state: OversiegeState, player: str, target: str
    ) -> Fault | None:
        """A card of an opponent still in the game (ORDER; GROUP PLAY: a partner's cards and
        an out player's are not targets)."""
        try:
            piece = parse_piece(target, self.cards)
        except Rejection as refusal:
            return _refused(refusal)
        owner = piece.deck
        if owner not in state.sides:
            return ("unknown-deck", lambda: _unknown_deck(state, owner))
        if owner == player:
            # TRANSLATORS: a refusal; target is the card aimed at ("blue's tower 1"), player
            # the name of the player who aimed at their own card
            return ("not-opponent", lambda: msg("%(target)s is %(player)s's own card.",
                                                target=opening(target), player=player))
        if not state.is_opponent(player, owner):
            # TRANSLATORS: a refusal; target is the card aimed at, owner and player names of
            # two partners
            return ("not-opponent", lambda: msg("%(target)s belongs to %(owner)s, %(player)s's "
                                                "partner.", target=opening(target), owner=owner,
                                                player=player))
        if not state.in_game(owner):
            # TRANSLATORS: a refusal; player is the name of a player who is out
            return ("player-out", lambda: msg("%(player)s's crown is taken; their cards are "
                                              "out.", player=owner))
        return None

    def _one_target_fault(self, targets: Targets) -> Fault | None:
        if len(targets) != 1:
            # TRANSLATORS: a refusal of a rebuild or a key sent with several targets
            return ("target-count", lambda: msg("This play takes exactly one target card."))
        return None

    def _rebuild_targets_fault(
        self, state: OversiegeState, player: str, targets: Targets
    ) -> Fault | None:
        """The targets' part of a rebuild: one card, which `_rebuild_target_fault` allows."""
        return (self._one_target_fault(targets)
                or self._rebuild_target_fault(state, player, targets[0]))

    def _rebuild_target_fault(
        self, state: OversiegeState, player: str, target: str
    ) -> Fault | None:
        """REBUILD: a destroyed tower or entrance of the player's own castle; in bridge-style
        play a partner's too (GROUP PLAY), while they are in the game. Reads the player's
        team and the target's castle."""
        try:
            tp = parse_piece(target, self.cards)
        except Rejection as refusal:
            return _refused(refusal)
        owner = tp.deck
        if owner not in state.sides:
            return ("unknown-deck", lambda: _unknown_deck(state, owner))
        if not tp.castle or tp.part == CHAMBER:
            # TRANSLATORS: a refusal; target is the card tapped ("blue's chamber")
            return ("not-rebuildable", lambda: msg(
                "%(target)s cannot be rebuilt: only a tower or the entrance can.",
                target=opening(target)))
        if owner != player and (not state.bridge or state.is_opponent(player, owner)):
            return ("not-partner", lambda: _not_partner(player, state.bridge))
        if not state.in_game(owner):
            # TRANSLATORS: a refusal; player is the name of a player who is out
            return ("player-out", lambda: msg("%(player)s's crown is taken; their castle is "
                                              "out.", player=owner))
        if _look(state, owner).standing(tp.part):
            # TRANSLATORS: a refusal; target is the castle card tapped ("red's tower 2")
            return ("not-destroyed", lambda: msg("%(target)s is not destroyed; nothing to "
                                                 "rebuild.", target=opening(target)))
        return None

    def _key_targets_fault(
        self, state: OversiegeState, player: str, targets: Targets
    ) -> Fault | None:
        """The targets' part of a key: one card, which `_key_target_fault` allows."""
        return self._one_target_fault(targets) or self._key_target_fault(state, player, targets[0])

    def _key_target_fault(
        self, state: OversiegeState, player: str, target: str
    ) -> Fault | None:
        """KEY and ORDER 3: an opponent's chamber, once every tower and the entrance are down
        (ORDER) and no blockade shields it (BLOCKADE). Reads the player's team and the
        target owner's whole side."""
        fault = self._opponent_fault(state, player, target)
        if fault is not None:
            return fault
        tp = parse_piece(target, self.cards)
        victim = tp.deck
        if tp.part != CHAMBER:
            # TRANSLATORS: a refusal: the key was tapped on another castle card
            return ("not-a-chamber", lambda: msg("The key opens a chamber: tap the chamber "
                                                 "card."))
        side = _look(state, victim)
        if side.blockade is not None:
            # TRANSLATORS: a refusal; player is the name of the player whose chamber it is
            return ("blockaded", lambda: msg("%(player)s's blockade stands: the key cannot open "
                                             "the chamber until it is hit.", player=victim))
        standing = [p for p in (*TOWERS, ENTRANCE) if side.standing(p)]
        if standing:
            return ("castle-standing", lambda: _still_standing(victim, standing, CHAMBER))
        return None

    # -- the plays' effects (each runs only once its check has passed) -------------------------

    def _armament(self, state: OversiegeState, action: Action) -> list[Event]:
        """ARMAMENTS: the new armament goes into play; the one it replaces, if named, goes to
        the discard pile."""
        piece = self._card_of(action)
        side = state.sides[piece.deck]
        events: list[Event] = []
        if action.targets:
            old = action.targets[0]
            side.armaments.remove(old)
            side.discard.append(old)
            # TRANSLATORS: said when an armament is replaced; card is the old armament ("the
            # red crossbow"), player a name
            events.append(Event("discard", lambda: msg(
                "%(card)s goes to %(player)s's discard pile.", card=opening(old),
                player=piece.deck), {"player": piece.deck, "card": old}))
        side.armaments.append(piece.id)
        side.hand -= 1
        # TRANSLATORS: said when an armament is placed; player is a name, card the armament
        # ("catapult")
        events.insert(0, Event("armament", lambda: msg(
            "%(player)s places the %(card)s.", player=piece.deck, card=named(piece.part)),
            {"player": piece.deck, "card": piece.id}))
        return events

    def _attack(self, state: OversiegeState, action: Action) -> list[Event]:
        """PROJECTILES and BLOCKADE: the projectile destroys a castle card with its red icon
        or an opponent's armament of its type; a blockade takes the hit instead (a double also
        hits its second target). The projectile is discarded."""
        piece = self._card_of(action)
        attacker = piece.deck
        # TRANSLATORS: said when a projectile is fired; player is a name, card the projectile
        # ("stone")
        events = [Event("attack", lambda: msg("%(player)s fires the %(card)s.", player=attacker,
                                              card=named(piece.part)),
                        {"player": attacker, "card": piece.id})]
        for target in self._hit_order(state, action.targets):
            events.append(self._strike(state, target))
        side = state.sides[attacker]
        side.hand -= 1
        side.discard.append(piece.id)
        return events

    def _hit_order(self, state: OversiegeState, targets: Targets) -> list[str]:
        """A blockade named as a target is hit first, whatever order it was tapped in: "the
        blockade and another element" is one shot, not a race between the two."""
        first = self._hit_first(state)
        return sorted(targets, key=lambda target: self._hit_later(first, target))

    def _hit_first(self, state: OversiegeState) -> set[str | None]:
        """The cards a shot hits before the others it names: the blockades."""
        return {side.blockade for side in state.sides.values()}

    def _hit_later(self, first: set[str | None], target: str) -> bool:
        """`_hit_order`'s sort key: targets keep their order but for those in `first`."""
        return target not in first

    def _after_hit(self, state: OversiegeState, target: str) -> OversiegeState:
        """A fork of `state` with `target` hit (for the checks that judge a second hit)."""
        after = state.fork()
        self._strike(after, target)
        return after

    def _strike(self, state: OversiegeState, target: str) -> Event:
        """One hit on an allowed target: a blockade standing in front of its castle takes the
        hit and is discarded (BLOCKADE); otherwise the castle card turns to its destroyed side,
        or the armament is discarded."""
        piece = parse_piece(target, self.cards)
        victim = piece.deck
        side = state.sides[victim]
        if side.blockade is not None:
            blockade = side.blockade
            side.blockade = None
            side.discard.append(blockade)
            # TRANSLATORS: said when a shot lands on a blockade; player is the name of its owner
            return Event("blockade-hit", lambda: msg(
                "%(player)s's blockade takes the hit and is discarded.", player=victim),
                {"player": victim, "card": blockade, "aimed": target})
        part = piece.part
        if piece.castle:
            side.destroyed.append(part)
            # TRANSLATORS: said when a castle card falls; player is its owner's name, card the
            # castle card ("tower 1", "entrance")
            return Event("destroyed", lambda: msg("%(player)s's %(card)s is destroyed.",
                                                  player=victim, card=named(part)),
                         {"player": victim, "card": target})
        side.armaments.remove(target)
        side.discard.append(target)
        # TRANSLATORS: said when an armament is shot down; player is its owner's name, card the
        # armament ("crossbow")
        return Event("destroyed", lambda: msg("%(player)s's %(card)s is destroyed and "
                                              "discarded.", player=victim, card=named(part)),
                     {"player": victim, "card": target})

    def _rebuild(self, state: OversiegeState, action: Action) -> list[Event]:
        """REBUILD: flip the destroyed tower or entrance back; the card is discarded."""
        piece = self._card_of(action)
        player = piece.deck
        target = action.targets[0]
        tp = parse_piece(target, self.cards)
        owner = tp.deck
        side = state.sides[owner]
        side.destroyed.remove(tp.part)
        mine = state.sides[player]
        mine.hand -= 1
        mine.discard.append(piece.id)
        return [Event("rebuilt", lambda: _rebuilt(player, owner, tp.part),
                      {"player": player, "card": target})]

    def _key(self, state: OversiegeState, action: Action) -> list[Event]:
        """KEY and ORDER 3: the chamber opens and the crown is captured; the victim is out,
        and the last team standing (or, with first_crown_wins, the key's) wins. TURNS: a key
        among the two cards kept at the end of a turn waits for the following turn: while this
        turn's draw is in hand it counts against the two cards kept like any card, and with
        nothing drawn it is played from the two kept cards (see check_card). It then stays in
        hand (GROUP PLAY), so the hand size does not change."""
        player = self._card_of(action).deck
        victim = parse_piece(action.targets[0], self.cards).deck
        side = state.sides[victim]
        side.chamber_open = True
        events = [
            # TRANSLATORS: said when the key opens a chamber; player and victim are names
            Event("chest-open", lambda: msg("%(player)s opens %(victim)s's chamber and captures "
                                            "the crown!", player=player, victim=victim),
                  {"player": player, "chamber": victim}),
        ]
        alive = [t for t in state.teams if any(state.in_game(p) for p in t)]
        if state.first_crown_wins:
            alive = [state.team_of(player)]
        if len(alive) == 1:
            winners = state.winners = list(alive[0])
            # TRANSLATORS: said when the siege is won; winners are the names of the winning
            # side ("red", "red and blue"), n how many
            events.append(Event("win", lambda: msg_n(
                "%(winners)s wins the siege!", "%(winners)s win the siege!", len(winners),
                winners=ListOf(tuple(winners))), {"winners": list(winners)}))
        else:
            # TRANSLATORS: said when a player's crown is taken and others play on; player is
            # a name
            events.append(Event("out", lambda: msg("%(player)s is out of the game.",
                                                   player=victim), {"player": victim}))
        return events

    def _blockade(self, state: OversiegeState, action: Action) -> list[Event]:
        """BLOCKADE: the blockade stands in front of the player's castle."""
        piece = self._card_of(action)
        side = state.sides[piece.deck]
        side.blockade = piece.id
        side.hand -= 1
        # TRANSLATORS: said when a blockade is placed; player is a name
        return [Event("blockade", lambda: msg("%(player)s places a blockade.",
                                              player=piece.deck),
                      {"player": piece.deck, "card": piece.id})]

    def _discard(self, state: OversiegeState, action: Action) -> list[Event]:
        """TURNS: the card goes from hand to the discard pile."""
        piece = self._card_of(action)
        side = state.sides[piece.deck]
        side.hand -= 1
        side.discard.append(piece.id)
        # TRANSLATORS: said when a card is discarded; player is a name, card the card's name
        # ("bolt")
        return [Event("discard", lambda: msg("%(player)s discards the %(card)s.",
                                             player=piece.deck, card=named(piece.part)),
                      {"player": piece.deck, "card": piece.id})]

    def _end_turn(self, state: OversiegeState, action: Action) -> list[Event]:
        """TURNS: the next player still in the game draws from their castle's blue icons,
        turning the discard pile over when the deck runs out."""
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
        player = state.current
        if turned:
            # TRANSLATORS: said when a deck runs out; player is a name
            events.append(Event("turnover", lambda: msg(
                "%(player)s's discard pile becomes the deck.", player=player),
                {"player": player}))
        # TRANSLATORS: said after every turn: whose turn it is (player, a name) and how many
        # cards they draw (n, maybe 0)
        events.append(Event("turn", lambda: msg_n(
            "%(player)s's turn: draw %(n)s.", "%(player)s's turn: draw %(n)s.", drawn,
            player=player), {"player": player, "draw": drawn}))
        return events

    # -- candidates -----------------------------------------------------------------------------

    def _candidates(self, state: OversiegeState) -> list[Action]:
        """Every play the current player could name now, legal or not, in the order
        legal_actions lists the legal ones: ending the turn; discarding each loose card (one
        neither in play nor discarded: it may be in hand); then each loose card played, with
        every target its kind names (`_targets`). Which of them are legal is for the checks
        alone."""
        action = self._action
        return [action(play, card, targets)
                for play, card, kind in self._loose_plays(state)
                for targets in self._targets(state, play, kind)]

    def _loose_plays(self, state: OversiegeState) -> list[Play]:
        """(play, card, card kind) for ending the turn (no card), each loose card's discard,
        then each loose card's play, in deck order."""
        player = state.current
        side = _look(state, player)
        known = {*side.in_play(), *side.discard}
        loose = [plays for plays in self._deck_plays(player) if plays[0][1] not in known]
        return [("end-turn", None, ""), *(discard for discard, _ in loose),
                *(play for _, play in loose)]

    def _targets(self, state: OversiegeState, play: str, kind: str) -> list[Targets]:
        """Every target tuple a play of a `kind` card can name, from every player's cards,
        whoever's they are and whatever state they are in: a replaced armament is a card in
        play (or none); a rebuild or a key names a castle card; a projectile hits castle
        cards or cards in play, a double two different ones (in seat order, each side's
        castle then its cards in play) or one. Ending the turn, a discard and a blockade name
        none."""
        if play == "armament":
            return [(), *((c,) for p in state.players for c in _look(state, p).in_play())]
        if play in ("rebuild", "key"):
            return [t for p in state.players for t in self._castle_targets_of(p)]
        if play != "attack":
            return [()]
        cards = self._table_cards(state)
        if self.cards.projectiles[kind].hits == 1:
            return [(t,) for t in cards]
        return [*((a, b) for a in cards for b in cards if a != b), *((a,) for a in cards)]

    def _table_cards(self, state: OversiegeState) -> list[str]:
        """Every card on the table, in seat order: each player's castle, then their cards in
        play."""
        return [c for p in state.players for c in self._cards_of(state, p)]

    def _cards_of(self, state: OversiegeState, player: str) -> list[str]:
        return self._castle(player) + _look(state, player).in_play()

    def _castle(self, player: str) -> list[str]:
        """The ids of a player's castle cards (built once per name)."""
        ids = self._castles.get(player)
        if ids is None:
            ids = self._castles[player] = [castle_id(player, p) for p in CASTLE_CARDS]
        return ids

    def _castle_targets_of(self, player: str) -> list[Targets]:
        """_castle as one-target tuples (built once per name)."""
        targets = self._castle_targets.get(player)
        if targets is None:
            targets = self._castle_targets[player] = [(c,) for c in self._castle(player)]
        return targets

    def _deck_plays(self, player: str) -> list[tuple[Play, Play]]:
        """For each card of a player's deck, its discard and its play as _loose_plays lists
        them (built once per name)."""
        deck = self._decks.get(player)
        if deck is None:
            deck = self._decks[player] = [
                (("discard", c, k), (_PLAY_OF[k], c, k))
                for c, k in ((c, self._kind(c)) for c in self.cards.deck_cards(player))]
        return deck

    def _card_of(self, action: Action) -> Piece:
        """The card a play from hand names (an effect runs once the check found it)."""
        return parse_piece(action.card or "", self.cards)

    def _kind(self, card: str) -> str:
        return card.split("/")[2]

    def _action(self, kind: str, card: str | None = None, targets: Targets = ()) -> Action:
        """The play as a shared value: a candidate listed again is the same object, so
        listing does not build a frozen Action for each one every time."""
        key = (kind, card, targets)
        action = self._actions.get(key)
        if action is None:
            if len(self._actions) > VERDICTS_KEPT:
                self._actions.clear()
            action = self._actions[key] = Action(kind, card, targets)
        return action


class _Listing:
    """The checks' verdicts on one state's candidates (`OversiegeEngine.legal_actions`), each
    asked once for every candidate it judges alike, and the engine's memory of the verdicts it
    found in other states, keyed by everything the check part they stand for reads:

    - a card's part (`_hand_fault`, or a discard's whole check) on one of the player's loose
      cards reads its kind and `situation`, so it is asked about one card of each kind;
    - a target's part reads the targets and the card's kind, not the card: it is asked once
      for all cards of a kind, and a one-target part is remembered per side, under the
      player, their team and the number of what it reads of the side (`side_id`);
    - a double (see `doubles`) is judged hit by hit, as `_hits_fault` does.
    """

    __slots__ = ("engine", "state", "player", "team", "verdicts", "ids", "situation", "targets")

    def __init__(self, engine: OversiegeEngine, state: OversiegeState) -> None:
        self.engine = engine
        self.state = state
        self.player = state.current
        self.team = tuple(state.team_of(self.player))
        self.verdicts = engine._verdicts
        self.ids: dict[tuple[str, str], int] = {}  # (player, part) -> side_id, this state
        side = _look(state, self.player)
        # all `_card_fault` reads for a loose card of the player's, besides its kind
        self.situation = (side.hand, state.drawn,
                          tuple(sorted(engine._kind(a) for a in side.armaments)),
                          side.blockade is None)
        self.targets: dict[str, list[Targets]] = {}  # play (or projectile kind) -> passing

    def card_passes(self, play: str, card: str | None, kind: str) -> bool:
        """The verdict of the card's part of `play`'s check on a loose `card` of `kind`."""
        engine, state = self.engine, self.state
        if card is None:  # end-turn: its check is all there is, asked once per state
            return engine._check_end_turn(state, engine._action(play)) is None
        key = ("card", self.situation, play, kind)
        ok = self.verdicts.get(key)
        if ok is None:
            action = engine._action(play, card)
            fault = (engine._check_discard(state, action) if play == "discard"
                     else engine._hand_fault(state, action, play))
            ok = self.verdicts[key] = fault is None
        return ok

    def targets_passing(self, play: str, kind: str) -> list[Targets]:
        """`_targets(play, kind)` that pass the targets' part of `play`'s check, in order
        (asked once per play and projectile kind: the other kinds' targets' parts do not read
        the kind)."""
        slot = kind if play == "attack" else play
        passing = self.targets.get(slot)
        if passing is None:
            passing = self.targets[slot] = self._work_out(play, kind)
        return passing

    def _work_out(self, play: str, kind: str) -> list[Targets]:
        engine, state, player = self.engine, self.state, self.player
        if play == "armament":  # a handful of candidates: each asked
            return [t for t in engine._targets(state, play, kind)
                    if engine._replace_fault(state, player, t) is None]
        if play == "rebuild":
            def rebuild(t: Targets) -> Fault | None:
                return engine._rebuild_targets_fault(state, player, t)

            return [t for other in state.players
                    for t in self.passing(("rebuild", state.bridge), other, "castle",
                                          engine._castle_targets_of(other), rebuild)]
        if play == "key":
            def key(t: Targets) -> Fault | None:
                return engine._key_targets_fault(state, player, t)

            return [t for other in state.players
                    for t in self.passing(("key",), other, "chamber",
                                          engine._castle_targets_of(other), key)]
        if play != "attack":
            return [()]
        if engine.cards.projectiles[kind].hits == 2:
            return self.doubles(kind)
        out: list[Targets] = []
        for other in state.players:
            out += self.aims(("aim", kind), other, engine._castle_targets_of(other),
                             [(c,) for c in _look(state, other).in_play()],
                             lambda t: engine._aim_fault(state, player, kind, t))
        return out

    def aims(self, what: tuple[Any, ...], other: str, castle: list[Any], in_play: list[Any],
             fault: Callable[[Any], Fault | None]) -> list[Any]:
        """The candidates at `other`'s castle, then at their cards in play, that `fault` (a
        projectile's check part) passes: it reads only the target's part of the side."""
        got = self.passing(what, other, "castle", castle, fault)
        if in_play:
            got = got + self.passing(what, other, "play", in_play, fault)
        return got

    def passing(self, what: tuple[Any, ...], other: str, part: str, candidates: list[Any],
                fault: Callable[[Any], Fault | None]) -> list[Any]:
        """The `candidates` at `other`'s side that `fault` passes, remembered under `what`,
        the player, their team and the number of the `part` of the side `fault` reads."""
        key = (what, self.player, self.team, self.side_id(other, part))
        got = self.verdicts.get(key)
        if got is None:
            got = self.verdicts[key] = [c for c in candidates if fault(c) is None]
        return got

    def doubles(self, kind: str) -> list[Targets]:
        """The double's target tuples `_aim_fault` passes, in `_targets` order, judged as
        `_hits_fault` judges them: the first hit (`_hit_order`) on the state, the second on
        what the first leaves. A hit changes its victim's side alone and `_hit_fault` reads
        only its target's side, so at two sides a pair passes when both cards pass on the
        state; at one side, the cards a second hit may take after the first (`_after_hit`)
        are remembered under the first card and the side's number. A double with one target
        passes when `_second_target` finds nothing: with two cards in reach on the state,
        each is the other's second; with one, its check is asked."""
        engine, state, player = self.engine, self.state, self.player
        players = state.players
        cards = {other: engine._cards_of(state, other) for other in players}
        aims_at = {other: self.aims(("hit", kind), other, engine._castle(other),
                                    _look(state, other).in_play(),
                                    lambda t: engine._hit_fault(state, player, kind, t))
                   for other in players}
        aims = [t for other in players for t in aims_at[other]]
        if not aims:
            return []
        first = engine._hit_first(state)
        later = engine._hit_later
        seconds: dict[str, set[str]] = {}  # a named first -> the cards at its side named second
        for other in players:
            for x in aims_at[other]:
                key = (("after", kind), player, self.team, x, self.side_id(other, "all"))
                ys = self.verdicts.get(key)
                if ys is None:
                    after = engine._after_hit(state, x)
                    ys = self.verdicts[key] = [
                        y for y in cards[other]
                        if y != x and engine._hit_fault(after, player, kind, y) is None]
                x_later = later(first, x)
                for y in ys:  # x is hit first when named (x, y), and when named (y, x) if y
                    y_later = later(first, y)  # is hit later
                    if x_later <= y_later:
                        seconds.setdefault(x, set()).add(y)
                    if x_later < y_later:
                        seconds.setdefault(y, set()).add(x)
        reach = set(aims)
        out: list[Targets] = []
        for other in players:
            mine = cards[other]
            for a in mine:
                same = seconds.get(a, ())
                if a in reach:
                    for side in players:
                        bs = [b for b in mine if b in same] if side == other else aims_at[side]
                        out += [(a, b) for b in bs]
                elif same:
                    out += [(a, b) for b in mine if b in same]
        if len(aims) == 1 and engine._aim_fault(state, player, kind, (aims[0],)) is None:
            out.append((aims[0],))
        return out

    def side_id(self, player: str, part: str) -> int:
        """A number for what a check part reads of a player's side (`_SIDE_PARTS[part]`),
        the same for the same values in any state."""
        number = self.ids.get((player, part))
        if number is None:
            signature = (part, player, *_SIDE_PARTS[part](_look(self.state, player)))
            number = self.verdicts.get(signature)
            if number is None:
                number = self.verdicts[signature] = len(self.verdicts)
            self.ids[(player, part)] = number
        return number


# What the target parts of the checks read of a side, by the part of the side they look at
# (the castle parts destroyed are read one by one, so their order does not count; the cards in
# play are listed as candidates in their order, so it does):
_SIDE_PARTS: dict[str, Callable[[Side], tuple[Any, ...]]] = {
    # _hit_fault on a castle card, _rebuild_target_fault
    "castle": lambda side: (frozenset(side.destroyed), side.chamber_open),
    # _hit_fault on a card in play
    "play": lambda side: (tuple(side.armaments), side.blockade, side.chamber_open),
    # _key_target_fault
    "chamber": lambda side: (frozenset(side.destroyed), side.chamber_open, side.blockade),
    # a hit and then _hit_fault on what it leaves (_Listing.doubles)
    "all": lambda side: (frozenset(side.destroyed), side.chamber_open, tuple(side.armaments),
                         side.blockade),
}


def _look(state: OversiegeState, player: str) -> Side:
    """A player's side as it is, never copied (`peek`); a settled state's plain dict is read
    directly, since the checks and the listing look sides up hundreds of times a state and
    `peek`'s isinstance test of an abstract class is slow by comparison."""
    sides = state.sides
    return sides[player] if type(sides) is dict else peek(sides, player)


def _unknown_deck(state: OversiegeState, deck: str) -> Said:
    # TRANSLATORS: a refusal; deck is a deck's colour nobody plays, players the players' names
    return msg("No player has the %(deck)s deck; the players are %(players)s.", deck=deck,
               players=ListOf(tuple(state.players)))


def _keep_two(player: str, hand: int) -> Said:
    # TRANSLATORS: a refusal; player is a name, n the cards they hold (two or fewer)
    return msg_n("%(player)s holds %(n)s card and must end the turn with two: no more cards "
                 "can be played or discarded this turn.", "%(player)s holds %(n)s cards and "
                 "must end the turn with two: no more cards can be played or discarded this "
                 "turn.", hand, player=player)


def _not_partner(player: str, bridge: bool) -> Said:
    if bridge:
        # TRANSLATORS: a refusal in a game of teams; player is a name
        return msg("%(player)s may rebuild only their own castle or a partner's.", player=player)
    # TRANSLATORS: a refusal; player is a name
    return msg("%(player)s may rebuild only their own castle.", player=player)


def _rebuilt(player: str, owner: str, part: str) -> Said:
    if owner == player:
        # TRANSLATORS: said after a rebuild; player is a name, card the castle card ("tower 1")
        return msg("%(player)s rebuilds their %(card)s.", player=player, card=named(part))
    # TRANSLATORS: said after a rebuild of a partner's castle; player and owner are names,
    # card the castle card ("tower 1")
    return msg("%(player)s rebuilds %(owner)s's %(card)s.", player=player, owner=owner,
               card=named(part))


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
