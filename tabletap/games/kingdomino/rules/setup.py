"""New games: players, options and `setup` checked, then the box, the kings and the gems drawn.

Everything impossible is refused with `bad-setup` and a sentence naming the key, before any state
exists, so a scenario with a typo fails at its first line rather than mid-game.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.language.said import Said
from tabletap.controller.rules.base import JSON, Rejection, chance
from tabletap.games.kingdomino.rules.actions import normalise_token
from tabletap.games.kingdomino.rules.dominoes import DOMINO_COUNT
from tabletap.games.kingdomino.rules.kingdom import CASTLE_SQUARE
from tabletap.games.kingdomino.rules.state import COLOURS, Kingdom, KingdominoState, Slot
from tabletap.games.kingdomino.rules.treasures import all_tokens
from tabletap.games.kingdomino.words import msg

OPTIONS: dict[str, bool] = {
    "treasures": True,  # The Lost Treasures (our box has it); false plays the base game
    "dynasty": False,  # three games, scores summed
    "middle_kingdom": False,  # +10 for the castle in the centre
    "harmony": False,  # +5 for a complete kingdom
    "mighty_duel": False,  # 2 players, all 48 dominoes, 7×7 kingdoms
}
SETUP_KEYS = ("draw", "king_order", "face_up")
DYNASTY_GAMES = 3


def _bad(message: str | Said) -> Rejection:
    return Rejection("bad-setup", message)


def check_options(players: list[str], options: JSON) -> dict[str, bool]:
    if not isinstance(options, dict):
        raise _bad("options must be a mapping, e.g. {middle_kingdom: true}.")
    unknown = sorted(map(str, set(options) - set(OPTIONS)))
    if unknown:
        raise _bad(
            f"Kingdomino has no option {', '.join(map(str, unknown))}; "
            f"it knows {', '.join(OPTIONS)}."
        )
    out = dict(OPTIONS)
    for key, value in options.items():
        if not isinstance(value, bool):
            raise _bad(f"option {key} must be true or false, not {value!r}.")
        out[key] = value
    if out["mighty_duel"] and len(players) != 2:
        # TRANSLATORS: a set-up refusal
        raise _bad(msg("The Mighty Duel is for exactly 2 players."))
    return out


def check_players(players: Any) -> list[str]:
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        # TRANSLATORS: a set-up refusal
        raise _bad(msg("Kingdomino is for 2, 3 or 4 players."))
    if any(not isinstance(p, str) or not p for p in players) or len(set(players)) != len(players):
        # TRANSLATORS: a set-up refusal: two players with one name, or a player with none
        raise _bad(msg("Players need distinct, non-empty names."))
    return list(players)


def domino_count(players: int, mighty_duel: bool) -> int:
    """Base rules: 24 dominoes for 2 players, 36 for 3, 48 for 4; the Mighty Duel uses all 48."""
    if mighty_duel:
        return DOMINO_COUNT
    return {2: 24, 3: 36, 4: 48}[players]


def colours_for(players: list[str]) -> list[str]:
    """The king colour of each seat: in seat order, unless every player is named after a king
    colour (a set-up at the table seats each player by tapping their own king): then their own."""
    if all(p in COLOURS for p in players):
        return list(players)
    return list(COLOURS[: len(players)])


def kings_for(players: list[str]) -> dict[str, str]:
    """2 players: two kings each; 3 or 4 players: one each."""
    per = 2 if len(players) == 2 else 1
    colours = colours_for(players)
    return {f"{colours[i]}/{n}": p for i, p in enumerate(players) for n in range(1, per + 1)}


def _draw(setup: JSON, count: int) -> list[int]:
    draw = setup.get("draw", [])
    if not isinstance(draw, list) or any(
        isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= DOMINO_COUNT for n in draw
    ):
        raise _bad("setup.draw lists domino numbers 1..48 in the order they leave the box.")
    if len(set(draw)) != len(draw):
        raise _bad("setup.draw names a domino twice.")
    if len(draw) > count:
        raise _bad(f"setup.draw lists {len(draw)} dominoes; this game uses only {count}.")
    return list(draw)


def _king_order(setup: JSON, kings: dict[str, str]) -> list[str] | None:
    if "king_order" not in setup:
        return None
    names = setup["king_order"]
    owners = list(kings.values())
    if (
        not isinstance(names, list)
        or not all(isinstance(n, str) for n in names)  # [1, 2] is not ["1", "2"]
        or sorted(names) != sorted(owners)
    ):
        per = owners.count(owners[0])
        raise _bad(
            "setup.king_order lists the players in the order their kings were drawn"
            + (f", each player {per} times (two kings each)." if per > 1 else ", once each.")
        )
    order: list[str] = []
    for name in names:
        order.append(next(k for k, p in kings.items() if p == name and k not in order))
    return order


def _face_up(setup: JSON, treasures: bool) -> list[str] | None:
    if "face_up" not in setup:
        return None
    if not treasures:
        raise _bad("setup.face_up needs The Lost Treasures (option treasures).")
    value = setup["face_up"]
    if not isinstance(value, list) or len(value) != 2:
        raise _bad("setup.face_up lists the two treasure tokens turned gem side up.")
    try:
        tokens = [normalise_token(t) for t in value]
    except Rejection as exc:
        raise _bad(f"setup.face_up: {exc.message}") from None
    if tokens[0] == tokens[1]:
        raise _bad("setup.face_up names the same token twice.")
    return tokens


def new_state(players: Any, seed: int, options: JSON, setup: JSON) -> KingdominoState:
    names = check_players(players)
    opts = check_options(names, options or {})
    setup = setup or {}
    if not isinstance(setup, dict):
        raise _bad("setup must be a mapping.")
    unknown = sorted(map(str, set(setup) - set(SETUP_KEYS)))
    if unknown:
        raise _bad(
            f"Kingdomino's setup has no {', '.join(unknown)}; it knows {', '.join(SETUP_KEYS)}."
        )
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise _bad("seed must be a whole number.")
    kings = kings_for(names)
    count = domino_count(len(names), opts["mighty_duel"])
    state = KingdominoState(
        players=names,
        seed=seed,
        counter=0,
        options=opts,
        size=7 if opts["mighty_duel"] else 5,
        colours=dict(zip(names, colours_for(names), strict=True)),
        kings=kings,
        deck=[],
        line=[],
        next_line=[],
        order=[],
        step="claim",
        round=1,
        kingdoms={},
    )
    start_game(
        state,
        draw=_draw(setup, count),
        king_order=_king_order(setup, kings),
        face_up=_face_up(setup, opts["treasures"]),
    )
    return state


def lay_out_line(state: KingdominoState) -> list[Slot]:
    """The next line out of the box, laid out in number order; the table must tap each."""
    k = len(state.kings)
    drawn = sorted(state.deck[:k])
    state.deck = state.deck[k:]
    state.unconfirmed = list(drawn)
    return [Slot(n) for n in drawn]


def start_game(
    state: KingdominoState,
    draw: list[int] | None = None,
    king_order: list[str] | None = None,
    face_up: list[str] | None = None,
) -> None:
    """Set up one game (the first, or the next of a Dynasty) in place, on a fresh copy."""
    count = domino_count(len(state.players), state.options["mighty_duel"])
    prefix = list(draw or [])
    rest = [n for n in range(1, DOMINO_COUNT + 1) if n not in prefix]
    chance(state.seed, state.counter, "box").shuffle(rest)
    state.counter += 1
    state.deck = prefix + rest[: count - len(prefix)]
    # Draw even when the order is given, so the counter (and every later draw, such as a
    # Dynasty's next box) does not depend on whether a scenario fixed this one.
    drawn = list(state.kings)
    chance(state.seed, state.counter, "kings").shuffle(drawn)
    state.counter += 1
    king_order = king_order or drawn
    state.kingdoms = {p: Kingdom(cells={(0, 0): CASTLE_SQUARE}) for p in state.players}
    state.gem_winner = None
    state.treasures = []
    if state.options["treasures"]:
        state.face_up = list(face_up) if face_up else []
        state.bag = [t for t in all_tokens() if t not in state.face_up]
        state.reveals = 0 if face_up else 2
    else:
        state.face_up, state.bag, state.reveals = [], [], 0
    state.line = []
    state.next_line = lay_out_line(state)
    state.order = list(king_order)
    state.step = "claim"
    state.round = 1


__all__ = ["DYNASTY_GAMES", "OPTIONS", "lay_out_line", "new_state", "start_game"]
