"""The Kingdomino engine (base game, its variants, and The Lost Treasures).

Turn structure (base rules): in the first round the kings, in the order they were drawn, each
claim a domino of the first line. Every later round, the kings act in the order of the dominoes
they stand on (lowest number first): the owner places that domino (or discards it when it fits
nowhere), resolves any treasure the placement discovered, then claims a domino of the new line.
In the last round there is no new line, so kings only place.

The table keeps the physical world in step with the state: a new line is not played until each of
its dominoes has been tapped (`confirm`), and a gem turned up to replace a claimed one is tapped
(`reveal`) before play goes on.
"""

from __future__ import annotations

from tabletap.controller.language.said import ListOf, Said
from tabletap.controller.rules.base import JSON, Event, Outcome, Rejection, chance
from tabletap.games.kingdomino.rules import actions as act
from tabletap.games.kingdomino.rules import state as st
from tabletap.games.kingdomino.rules.actions import Action
from tabletap.games.kingdomino.rules.board import SQUARE
from tabletap.games.kingdomino.rules.dominoes import dominoes
from tabletap.games.kingdomino.rules.kingdom import (
    FACING_NAMES,
    FACINGS,
    Placement,
    check_placement,
)
from tabletap.games.kingdomino.rules.kingdom_file import render_kingdom
from tabletap.games.kingdomino.rules.places import placement_words
from tabletap.games.kingdomino.rules.scoring import (
    Breakdown,
    PlacedGem,
    score_kingdom,
    variant_bonuses,
)
from tabletap.games.kingdomino.rules.setup import (
    DYNASTY_GAMES,
    lay_out_line,
    new_state,
    start_game,
)
from tabletap.games.kingdomino.rules.state import KingdominoState, Slot
from tabletap.games.kingdomino.rules.treasures import (
    gem_types_for_victory,
    oriented,
    token_kind,
)
from tabletap.games.kingdomino.words import gem, gems, landscapes_of, msg, msg_n


class KingdominoEngine:
    name = "kingdomino"

    def __init__(self) -> None:
        # A kingdom's breakdown, kept while the kingdom object lives unchanged: an action copies
        # the kingdom it changes (KingdominoState.fork), so an unchanged kingdom is the same
        # object and is not scored again for every scores(), winners() and public_view(). The
        # sizes guard against a kingdom edited in place by hand (tests do).
        self._scored: dict[tuple[object, ...], tuple[object, tuple[int, int], Breakdown]] = {}
        self._handlers = {name: getattr(self, f"_do_{name}") for name in act.ACTION_NAMES}

    # -- the Engine protocol ---------------------------------------------------------------

    def new_game(
        self, players: list[str], seed: int, options: JSON, setup: JSON
    ) -> KingdominoState:
        return new_state(players, seed, options, setup)

    def apply(self, state: KingdominoState, action: Action) -> Outcome[KingdominoState, Action]:
        if not isinstance(action, Action):
            # TRANSLATORS: a refusal: something that is no move of Kingdomino was entered
            raise Rejection("bad-action", msg("That is not a Kingdomino move."))
        if state.step == "over":
            # TRANSLATORS: a refusal: a move after the game ended
            raise Rejection("game-over", msg("This game is over; start a new one."))
        self._gate(state, action)
        s = state.fork()
        events: list[Event] = []
        resolved: Action = self._handlers[action.action](s, action, events)
        before, after = self.current_player(state), self.current_player(s)
        if after is not None and (after != before or s.round != state.round):
            events.append(Event("turn", lambda: _turn(after), {"player": after}))
        elif after is not None and s.order and state.order and s.order[0] != state.order[0]:
            # the same player's other king acts next: still said, so nobody waits for a turn
            events.append(Event("turn", lambda: _again(after), {"player": after}))
        if s.step == "over":
            won = self.winners(s)
            events.append(Event("win", lambda: _won(won),
                                {"winners": won, "scores": self.scores(s)}))
        return Outcome(s, resolved, tuple(events))

    def legal_actions(self, state: KingdominoState) -> list[Action]:
        if state.step == "over":
            return []
        if state.unconfirmed or state.reveals:
            out = [_shared("confirm", n) for n in state.unconfirmed]
            return out + ([_shared("reveal")] if state.reveals else [])
        if state.step == "claim":
            return [_shared("claim", s.domino) for s in state.next_line if s.king is None]
        if state.step == "treasure":
            return [_shared("treasure", t, k) for t in state.face_up for k in range(4)]
        number = self._acting_domino(state)
        player, domino = self._acting(state), dominoes()[number]
        codes = state.kingdoms[player].placement_codes(state.size, domino)
        if codes is None:  # a kingdom beyond the board (built by hand): the dict's answer
            out = [_place(number, r, c, f) for r, c, f in state.spots(player, domino)]
        else:
            base, known = number << 10, _CODED.get
            out = [known(base | code) or _coded(number, code) for code in codes]
        return out or [_shared("discard", number)]

    def state_to_json(self, state: KingdominoState) -> JSON:
        return st.state_to_json(state)

    def state_from_json(self, data: JSON) -> KingdominoState:
        return st.state_from_json(data)

    def action_to_json(self, action: Action) -> JSON:
        return act.action_to_json(action)

    def action_from_json(self, data: JSON) -> Action:
        return act.action_from_json(data)

    def public_view(self, state: KingdominoState, reveal: bool = False) -> JSON:
        view: JSON = {
            "game": "kingdomino",
            "players": list(state.players),
            "colours": dict(state.colours),
            "options": dict(state.options),
            "round": state.round,
            "step": state.step,
            "turn": self.current_player(state),
            "king": state.order[0] if state.order and state.step != "over" else None,
            "kings": dict(state.kings),
            "line": [{"domino": s.domino, "king": s.king} for s in state.line],
            "next_line": [{"domino": s.domino, "king": s.king} for s in state.next_line],
            "box": len(state.deck),
            "awaiting": {"dominoes": list(state.unconfirmed), "gems": state.reveals},
            "kingdoms": {},
            "scores": self.scores(state),
            "winners": self.winners(state),
        }
        if state.options["treasures"]:
            view["treasures"] = {
                "face_up": list(state.face_up),
                "chest_side_up": len(state.bag),
                "pending": [list(c) for c in state.treasures],
            }
        for p in state.players:
            k = state.kingdoms[p]
            b = self.breakdown(state, p)
            view["kingdoms"][p] = {
                "squares": len(k.cells) - 1,
                "placed": list(k.placed),
                "discards": list(k.discards),
                "gems": [
                    {"token": g.token, "corner": list(g.corner), "quarters": list(g.quarters)}
                    for g in k.gems
                ],
                "score": b.score,
                "bonuses": dict(b.bonuses),  # Middle Kingdom / Harmony, once the game is over
                "file": render_kingdom(k.cells, state.size, tuple(k.gems)),
            }
        if state.options["dynasty"]:
            view["dynasty"] = {
                "game": state.game,
                "of": DYNASTY_GAMES,
                "results": [{p: r[p][0] for p in r} for r in state.results],
            }
        if reveal:
            view["box_order"] = list(state.deck)
            view["chest_side_up_tokens"] = list(state.bag)
        return view

    def breakdown(self, state: KingdominoState, player: str) -> Breakdown:
        """This game's breakdown; variant bonuses only once the game is over (they judge the
        finished kingdom)."""
        k = state.kingdoms[player]
        finished = state.step == "over" or self._game_finished(state)
        key = (id(k), finished, state.size, state.options["middle_kingdom"],
               state.options["harmony"])
        known = self._scored.get(key)
        if known is not None and known[0] is k and known[1] == (len(k.cells), len(k.gems)):
            return known[2]
        bonuses: dict[str, int] = {}
        if finished:
            bonuses = variant_bonuses(
                k.cells, state.size, state.options["middle_kingdom"], state.options["harmony"]
            )
        scored = score_kingdom(k.cells, k.gems, bonuses)
        if len(self._scored) >= 4096:
            self._scored.clear()
        self._scored[key] = (k, (len(k.cells), len(k.gems)), scored)
        return scored

    def scores(self, state: KingdominoState) -> dict[str, int]:
        """Each player's points: the kingdom's territories (kept by the kingdom as it grows),
        the variant bonuses once the game is over, a Dynasty's earlier games; the same as
        `breakdown(...).score` (the property tests check it) without building the breakdown."""
        finished = state.step == "over" or self._game_finished(state)
        out = {}
        for p in state.players:
            k = state.kingdoms[p]
            points = k.points() + (self._bonus_points(state, k) if finished else 0)
            out[p] = sum(r[p][0] for r in state.results) + points
        return out

    def _bonus_points(self, state: KingdominoState, k: st.Kingdom) -> int:
        """The variant bonuses a finished kingdom earns in this game."""
        return sum(variant_bonuses(k.cells, state.size, state.options["middle_kingdom"],
                                   state.options["harmony"]).values())

    def tie_key(self, state: KingdominoState, player: str) -> tuple[int, int, int]:
        """This game's (points, largest territory, crowns): scoring.tie_key of the breakdown
        (the property tests check it), read from the territories the kingdom keeps."""
        k = state.kingdoms[player]
        regions = k.territories()
        points = k.points()
        if state.step == "over" or self._game_finished(state):
            points += self._bonus_points(state, k)
        return points, regions.largest(), regions.all_crowns(k.gems)

    def current_player(self, state: KingdominoState) -> str | None:
        if state.step == "over" or not state.order:
            return None
        return self._acting(state)

    def winners(self, state: KingdominoState) -> list[str]:
        """Immediate victory first; else most points, then the largest territory, then the most
        crowns, then a shared win (summed over a Dynasty's games)."""
        if state.gem_winner is not None:
            return [state.gem_winner]
        if state.step != "over":
            return []
        keys: dict[str, tuple[int, int, int]] = {}
        for p in state.players:
            past = [tuple(r[p]) for r in state.results]
            now = self.tie_key(state, p)
            keys[p] = tuple(sum(v) for v in zip(*past, now, strict=True))  # type: ignore[assignment]
        best = max(keys.values())
        return [p for p in state.players if keys[p] == best]

    def is_over(self, state: KingdominoState) -> bool:
        return state.step == "over"

    def opening_events(self, state: KingdominoState) -> tuple[Event, ...]:
        """What the table announces when a game starts: the first line out of the box and the
        gems to turn up (set-up makes no Outcome, so these have no other way out)."""
        events = [self._line_event(state)]
        if state.reveals:
            # TRANSLATORS: said as a game starts: gems to turn up for the first line
            events.append(Event("reveal-gems", msg_n(
                "Turn %(n)s treasure token gem side up and tap it.",
                "Turn %(n)s treasure tokens gem side up and tap them.", state.reveals),
                {"gems": state.reveals}))
        who = self.current_player(state)
        if who is not None:
            # TRANSLATORS: said as a game starts: whose king plays first; player is a name
            events.append(Event("turn", msg("%(player)s's king is drawn first.", player=who),
                                {"player": who}))
        return tuple(events)

    # -- helpers ---------------------------------------------------------------------------

    def _acting(self, state: KingdominoState) -> str:
        return state.kings[state.order[0]]

    def _acting_domino(self, state: KingdominoState) -> int:
        king = state.order[0]
        return next(s.domino for s in state.line if s.king == king)

    def _game_finished(self, state: KingdominoState) -> bool:
        return not state.order and not state.next_line

    def _gate(self, state: KingdominoState, action: Action) -> None:
        """The physical table must match the state before play goes on."""
        if action.action in ("confirm", "reveal"):
            return
        if state.unconfirmed or state.reveals:
            raise Rejection("confirm-first", _first(state.unconfirmed, state.reveals))
        if action.action not in _EXPECTED[state.step]:
            raise Rejection("wrong-step", self._what_now(state))

    def _what_now(self, state: KingdominoState) -> Said:
        who = self._acting(state)
        if state.step == "claim":
            # TRANSLATORS: a refusal of a move out of step; player is whose turn it is
            return msg("%(player)s now puts a king on a domino of the new line.", player=who)
        if state.step == "place":
            # TRANSLATORS: a refusal of a move out of step; landscapes are the domino's
            return msg("%(player)s now places the %(landscapes)s domino, or discards it if it "
                       "fits nowhere.", player=who,
                       landscapes=landscapes_of(self._acting_domino(state)))
        # TRANSLATORS: a refusal of a move out of step; gems are the face-up gems' names
        return msg("%(player)s now takes one of the face-up gems: %(gems)s.", player=who,
                   gems=gems(state.face_up))

    # -- actions ---------------------------------------------------------------------------

    def _do_confirm(self, s: KingdominoState, a: Action, events: list[Event]) -> Action:
        if not s.unconfirmed:
            # TRANSLATORS: a refusal: a domino was tapped when none was waiting
            raise Rejection("not-expected", msg("No domino is waiting to be confirmed."))
        if a.domino not in s.unconfirmed:
            # TRANSLATORS: a refusal; domino is the number on the back of the one tapped,
            # dominoes the numbers of those still to tap
            raise Rejection("wrong-domino", msg(
                "Domino %(domino)s is not one the box gave; still to tap: %(dominoes)s.",
                domino=a.domino, dominoes=ListOf(tuple(s.unconfirmed))))
        s.unconfirmed.remove(a.domino)  # type: ignore[arg-type]
        number = a.domino
        events.append(Event("confirmed", lambda: _confirmed(number), {"domino": number}))
        return a

    def _do_reveal(self, s: KingdominoState, a: Action, events: list[Event]) -> Action:
        if not s.reveals:
            # TRANSLATORS: a refusal: no gem is to be turned up now
            raise Rejection("no-reveal", msg("No treasure token needs turning over now."))
        token = a.token
        # One draw per reveal whether or not the table observed the token, so later draws do
        # not depend on how the gem was entered.
        drawn = chance(s.seed, s.counter, "gem").choice(sorted(s.bag))
        if token is None:
            token = drawn
        elif token not in s.bag:
            raise Rejection("not-chest-side", _not_chest_side(token, token in s.face_up))
        s.counter += 1
        s.bag.remove(token)
        s.face_up.append(token)
        s.reveals -= 1
        events.append(Event("revealed", lambda: _revealed(token), {"token": token}))
        return Action("reveal", token=token)

    def _do_claim(self, s: KingdominoState, a: Action, events: list[Event]) -> Action:
        slot = next((x for x in s.next_line if x.domino == a.domino), None)
        if slot is None:
            # TRANSLATORS: a refusal; domino is a number entered, dominoes the numbers of
            # the new line's dominoes
            raise Rejection("not-in-line", msg(
                "Domino %(domino)s is not in the new line; it holds %(dominoes)s.",
                domino=a.domino, dominoes=ListOf(tuple(x.domino for x in s.next_line))))
        if slot.king is not None:
            # TRANSLATORS: a refusal; player is whose king it is, landscapes the domino's
            raise Rejection("taken", msg(
                "%(player)s's king already stands on the %(landscapes)s domino.",
                player=s.kings[slot.king], landscapes=landscapes_of(slot.domino)))
        king = s.order[0]
        s.next_line[s.next_line.index(slot)] = Slot(slot.domino, king)
        events.append(Event("claimed", lambda: _claimed(s.kings[king], slot.domino),
                            {"player": s.kings[king], "king": king, "domino": a.domino}))
        self._finish_king(s, events)
        return a

    def _check_own(self, s: KingdominoState, a: Action) -> int:
        number = self._acting_domino(s)
        if a.domino != number:
            # TRANSLATORS: a refusal; player is whose turn it is, landscapes are those of
            # the domino their king stands on
            raise Rejection("not-your-domino", msg(
                "%(player)s's king stands on the %(landscapes)s domino: that is the one to "
                "place.", player=s.kings[s.order[0]], landscapes=landscapes_of(number)))
        return number

    def _do_place(self, s: KingdominoState, a: Action, events: list[Event]) -> Action:
        number = self._check_own(s, a)
        player = self._acting(s)
        k = s.own_kingdom(player)
        domino = dominoes()[number]
        facing = _FACING_INDEX.get(a.facing)  # type: ignore[arg-type]
        board = k.bits()
        if facing is None or board is None or not isinstance(a.at, tuple) or not board.allows(
                s.size, domino.left.terrain, domino.right.terrain, a.at, facing):
            # says why not (the board only ever tells a legal placement)
            check_placement(k.cells, s.size, domino, Placement(number, a.at, a.facing))  # type: ignore[arg-type]
        first = a.at
        dr, dc = FACINGS[a.facing]  # type: ignore[index]
        second = (first[0] + dr, first[1] + dc)  # type: ignore[index]
        k.place(first, domino.left)
        k.place(second, domino.right)
        k.placed.append(number)
        s.line = [x for x in s.line if x.domino != number]  # it left the line for the kingdom
        facing_now = a.facing
        events.append(Event(
            "placed", lambda: _placed(player, number, first, facing_now),  # type: ignore[arg-type]
            {"player": player, "domino": number, "at": list(first), "facing": a.facing},
        ))
        if s.options["treasures"]:
            taken = {g.corner for g in k.gems}
            corners = [c for c in k.treasure_corners((first, second)) if c not in taken]
            corners = corners[: len(s.face_up) + len(s.bag)]
            for corner in corners:
                events.append(Event("treasure-found", lambda: _found(player),
                                    {"player": player, "corner": list(corner)}))
            s.treasures = corners
            if corners:
                s.step = "treasure"
                return a
        self._after_place(s, events)
        return a

    def _do_discard(self, s: KingdominoState, a: Action, events: list[Event]) -> Action:
        number = self._check_own(s, a)
        player = self._acting(s)
        places = s.spots(player, dominoes()[number])
        if places:
            r, c, facing = places[0]
            # TRANSLATORS: a refusal of a discard; landscapes are the domino's, place a
            # place it fits ("two above the castle, pointing down")
            raise Rejection("can-place", msg(
                "The %(landscapes)s domino fits in %(player)s's kingdom, for example %(place)s; "
                "only a domino with nowhere to go is discarded.",
                landscapes=landscapes_of(number), player=player,
                place=placement_words((r, c), facing)))
        k = s.own_kingdom(player)
        k.discards.append(number)
        s.line = [x for x in s.line if x.domino != number]
        events.append(Event("discarded", lambda: _discarded(player, number),
                            {"player": player, "domino": number}))
        self._after_place(s, events)
        return a

    def _do_treasure(self, s: KingdominoState, a: Action, events: list[Event]) -> Action:
        token = a.token or ""
        if token not in s.face_up:
            # TRANSLATORS: a refusal; gem is the gem chosen, gems the face-up gems' names
            raise Rejection("not-face-up", msg(
                "That %(gem)s is not face up; the face-up gems are %(gems)s.", gem=gem(token),
                gems=ListOf(tuple(gem(t) for t in s.face_up))))
        player = self._acting(s)
        k = s.own_kingdom(player)
        corner = s.treasures.pop(0)
        placed = PlacedGem(token_kind(token), corner, oriented(token, a.turns or 0), token)
        k.gems.append(placed)
        s.face_up.remove(token)
        if s.bag:
            s.reveals += 1
        events.append(Event(
            "treasure", lambda: _set_gem(player, token),
            {"player": player, "token": token, "corner": list(corner),
             "quarters": list(placed.quarters)},
        ))
        if gem_types_for_victory([g.kind for g in k.gems]):
            s.gem_winner = player
            s.step = "over"
            events.append(Event("gem-victory", lambda: _five_gems(player), {"player": player}))
            return a
        if s.treasures and (s.face_up or s.bag):
            return a
        s.treasures = []
        self._after_place(s, events)
        return a

    # -- flow ------------------------------------------------------------------------------

    def _after_place(self, s: KingdominoState, events: list[Event]) -> None:
        if s.next_line:
            s.step = "claim"
        else:
            self._finish_king(s, events)

    def _finish_king(self, s: KingdominoState, events: list[Event]) -> None:
        s.order.pop(0)
        if s.order:
            s.step = "place" if s.line else "claim"
            return
        if not s.next_line:
            self._end_game(s, events)
            return
        s.line = s.next_line
        s.order = [slot.king for slot in s.line if slot.king is not None]
        s.next_line = lay_out_line(s)
        s.round += 1
        s.step = "place"
        if s.next_line:
            events.append(self._line_event(s))
        else:
            events.append(Event("last-round", _last_round, {"round": s.round}))

    def _line_event(self, s: KingdominoState) -> Event:
        numbers = [x.domino for x in s.next_line]
        line = tuple(numbers)
        return Event("line", lambda: _line(line), {"dominoes": numbers, "round": s.round})

    def _end_game(self, s: KingdominoState, events: list[Event]) -> None:
        if s.options["dynasty"] and s.game < DYNASTY_GAMES:
            result = {}
            for p in s.players:
                result[p] = list(self.tie_key(s, p))
            s.results.append(result)
            scores = ListOf(tuple(_points(p, v[0]) for p, v in result.items()))
            # TRANSLATORS: said between a Dynasty's games; game and of are numbers, scores
            # the players' points ("ana 25 points, ben 31 points")
            events.append(Event("dynasty-game", msg(
                "Game %(game)s of %(of)s is over: %(scores)s. Clear the kingdoms; the next game "
                "begins.", game=s.game, of=DYNASTY_GAMES, scores=scores),
                {"game": s.game, "scores": {p: v[0] for p, v in result.items()}}))
            s.game += 1
            start_game(s)
            events.extend(e for e in self.opening_events(s) if e.kind != "turn")
            return
        s.step = "over"
        s.order = []


ENGINE = KingdominoEngine()


# -- sentences (built only when someone reads the event) --------------------------------------

def _turn(player: str) -> Said:
    # TRANSLATORS: said after every turn: whose turn it is now; player is a name as entered
    return msg("%(player)s's turn.", player=player)


def _again(player: str) -> Said:
    # TRANSLATORS: said after a turn when the same player plays next with their other king
    return msg("%(player)s plays again, with the other king.", player=player)


def _won(players: list[str]) -> Said:
    # TRANSLATORS: said at the end; players are the winners' names ("ana and ben")
    return msg_n("%(players)s wins!", "%(players)s win!", len(players),
                 players=ListOf(tuple(players)))


def _claimed(player: str, number: int) -> Said:
    # TRANSLATORS: said after a claim; landscapes are the domino's ("wheat field and forest")
    return msg("%(player)s puts a king on the %(landscapes)s domino.", player=player,
               landscapes=landscapes_of(number))


def _placed(player: str, number: int, at: tuple[int, int], facing: str) -> Said:
    # TRANSLATORS: said after a placement; landscapes are the domino's, place where it lies
    # ("two above the castle, pointing down")
    return msg("%(player)s places the %(landscapes)s domino %(place)s.", player=player,
               landscapes=landscapes_of(number), place=placement_words(at, facing))


def _confirmed(number: int) -> Said:
    # TRANSLATORS: said when a domino of the new line is tapped; domino is its number
    return msg("Domino %(domino)s is on the table.", domino=number)


def _revealed(token: str) -> Said:
    # TRANSLATORS: said when a treasure token is turned gem side up; gem is its gem's name
    return msg("A gem is turned face up: %(gem)s.", gem=gem(token))


def _found(player: str) -> Said:
    # TRANSLATORS: said after a placement; player is a name
    return msg("%(player)s discovers a treasure where four landscapes meet: tap one of the "
               "face-up gems, then turn it the way you like.", player=player)


def _discarded(player: str, number: int) -> Said:
    # TRANSLATORS: said when a domino fits nowhere; landscapes are the domino's
    return msg("%(player)s discards the %(landscapes)s domino: it fits nowhere.",
               player=player, landscapes=landscapes_of(number))


def _set_gem(player: str, token: str) -> Said:
    # TRANSLATORS: said when a gem is set on a kingdom; gem is its name (ruby, ...)
    return msg("%(player)s sets the %(gem)s where the four landscapes meet.", player=player,
               gem=gem(token))


def _five_gems(player: str) -> Said:
    # TRANSLATORS: said when a player wins at once by gems; player is a name
    return msg("%(player)s holds five different gems: an immediate victory!", player=player)


def _last_round() -> Said:
    # TRANSLATORS: said when the box has no dominoes left
    return msg("The box is empty: the last round, place only.")


def _line(dominoes: tuple[int, ...]) -> Said:
    # TRANSLATORS: said as a new line comes out of the box; dominoes are the numbers
    # on their backs
    return msg("From the box: %(dominoes)s. Lay them out in number order and tap each.",
               dominoes=ListOf(dominoes))


def _points(player: str, points: int) -> Said:
    # TRANSLATORS: one player's score inside a list; player is a name
    return msg_n("%(player)s %(n)s point", "%(player)s %(n)s points", points, player=player)


def _first(dominoes: list[int], reveals: int) -> Said:
    """What the table waits for before play goes on: the new line tapped, gems turned up."""
    numbers = ListOf(tuple(dominoes))
    if dominoes and reveals:
        # TRANSLATORS: a refusal; dominoes are numbers on the backs of the new line's
        return msg_n(
            "First tap the new line's dominoes, %(dominoes)s, and turn %(n)s treasure token "
            "gem side up and tap it.",
            "First tap the new line's dominoes, %(dominoes)s, and turn %(n)s treasure tokens "
            "gem side up and tap them.", reveals, dominoes=numbers)
    if dominoes:
        # TRANSLATORS: a refusal; dominoes are numbers on the backs of the new line's dominoes
        return msg("First tap the new line's dominoes: %(dominoes)s.", dominoes=numbers)
    # TRANSLATORS: a refusal: gems must be turned up before play goes on
    return msg_n("First turn %(n)s treasure token gem side up and tap it.",
                 "First turn %(n)s treasure tokens gem side up and tap them.", reveals)


def _not_chest_side(token: str, face_up: bool) -> Said:
    if face_up:
        # TRANSLATORS: a refusal; gem is a gem's name: that token lies gem side up already
        return msg("That %(gem)s is already face up.", gem=gem(token))
    # TRANSLATORS: a refusal; gem is a gem's name: that token was set on a kingdom
    return msg("That %(gem)s is already in a kingdom.", gem=gem(token))


# Actions are frozen values: a placement offered again (the same domino, square and facing)
# is the same object, so listing legal placements does not build a new Action for each one
# every time (the frozen dataclass's __init__ was most of legal_actions' time in self-play).
# Bounded: squares lie within a few steps of the castle, and the cap keeps a stray caller out.
_PLACES: dict[tuple[int, int, int, str], Action] = {}


# the actions each step takes (the table's confirm and reveal aside)
_EXPECTED = {"claim": ("claim",), "place": ("place", "discard"), "treasure": ("treasure",)}
_FACING_INDEX: dict[str, int] = {name: i for i, name in enumerate(FACING_NAMES)}
# the same Actions by board code (number << 10 | Board.codes' code), for legal_actions
_CODED: dict[int, Action] = {}


# confirm, reveal, claim, discard and treasure actions likewise (a few hundred at most)
_SHARED: dict[tuple[str, int | str | None, int | None], Action] = {}


def _shared(kind: str, what: int | str | None = None, turns: int | None = None) -> Action:
    """Action(kind, domino=what) or, for a treasure, Action(kind, token=what, turns=turns),
    as a shared value."""
    key = (kind, what, turns)
    action = _SHARED.get(key)
    if action is None:
        if kind == "treasure":
            action = Action(kind, token=what, turns=turns)  # type: ignore[arg-type]
        else:
            action = Action(kind, domino=what)  # type: ignore[arg-type]
        if len(_SHARED) < 10_000:
            _SHARED[key] = action
    return action


def _coded(number: int, code: int) -> Action:
    r, c = SQUARE[code >> 2]
    action = _CODED[number << 10 | code] = _place(number, r, c, FACING_NAMES[code & 3])
    return action


def _place(number: int, r: int, c: int, facing: str) -> Action:
    key = (number, r, c, facing)
    action = _PLACES.get(key)
    if action is None:
        action = Action("place", domino=number, at=(r, c), facing=facing)
        if len(_PLACES) < 100_000:
            _PLACES[key] = action
    return action
