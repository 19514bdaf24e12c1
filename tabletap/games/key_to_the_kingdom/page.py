"""What the phone page needs of a Key to the Kingdom game beyond the engine's public view.

The public view names spaces, items and tokens by id; the page knows no rule and no pack, so the
board's lands (which side of each flap shows, each space's kind in words), every hero's items
with their values, the adventure or castle step under way (its target and the shortcut that
applies), the face-up Demon King tokens and the legal actions now are spelled out here, on the
daemon's side, where the pack is. Nothing hidden goes out: the event deck's order would show in
its legal draws, so draws are left out (the card is tapped at the table).

The board is drawn, not listed (issue 21): `map` carries where each land and space lies (the
pack's layout.yaml, layout.py) and `names` each space in words, "village space 3" as the voice
says it, since an id such as "v3" names nothing a family sees on the board.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.rules.base import JSON
from tabletap.games.key_to_the_kingdom.layout import layout_of
from tabletap.games.key_to_the_kingdom.rules import named
from tabletap.games.key_to_the_kingdom.rules.pack import Pack
from tabletap.games.key_to_the_kingdom.rules.play import Play
from tabletap.games.key_to_the_kingdom.rules.state import (
    MAGIC_PREFIX,
    CastleAsk,
    ChallengeAsk,
    KttkState,
    Phase,
    Purpose,
    StepAsk,
)
from tabletap.games.key_to_the_kingdom.table import describe

HIDDEN = ("draw",)  # legal actions that would tell the deck's order


def extras(engine: Any, state: KttkState) -> JSON:
    pack = state.pack
    return {
        # every name the view shows, in the table's language: the heroes, the items' kinds
        # ("sword", a magic item's own name; a companion's is in `companions`), the castle's
        # sections and the key colours
        "heroes": {hero: named.hero(pack, hero) for hero in state.players},
        "kinds": {k: named.kind(pack, k) for k in {state.item_kind(i) for i in state.items}},
        "sections": [named.section(pack, i) for i in range(len(pack.sections))],
        "colours": {c: named.colour(c) for c in named.KEY_COLOURS},
        "lands": [_land(state, land, spaces) for land, spaces in pack.lands.items()
                  if land != "courtyard"],
        "courtyard": [[s, describe(state, s)] for s in pack.courtyard],
        "map": layout_of(pack),
        "names": space_names(pack),
        # what each space is, for the picture's marks (the words are in `lands`/`courtyard`)
        "marks": {sid: {"kind": sp.kind, "refresh": sp.refresh} for sid, sp in pack.spaces.items()},
        "items": {hero: [_item(state, i) for i in state.owned(hero)] for hero in state.players},
        "companions": {hero: [{"card": n, "name": named.card(pack, n), "bonus": pack.card(n).bonus}
                              for n in state.companions[hero]] for hero in state.players},
        "keys": {hero: sorted(k for k, who in state.keys.items() if who == hero)
                 for hero in state.players},
        "step": _step(state),
        "tokens": {t: {"target": pack.token(t).target, "item": pack.token(t).item,
                       "name": named.token(pack, pack.token(t).name),
                       "item_name": named.shown(pack, pack.token(t).item)
                       if pack.token(t).item else None}
                   for t in state.revealed},
        "legal": [a for a in map(engine.action_to_json, engine.legal_actions(state))
                  if a["action"] not in HIDDEN],
    }


def space_names(pack: Pack) -> dict[str, Any]:
    """Every space in words: its land and its place there ("village space 3", "courtyard space
    2"), the way the table's voice says it (rules/named.py), in the table's language."""
    ids = [sid for spaces in pack.lands.values() for sid in spaces] + list(pack.courtyard)
    return {sid: named.space(pack, sid) for sid in ids}


def _land(state: KttkState, land: str, spaces: tuple[str, ...]) -> JSON:
    where = state.pack.flap_of(land)
    return {
        "land": land,
        "name": named.land(state.pack, land),
        "flap": where[0] if where else None,
        "side": where[1] if where else None,
        "shown": where is None or state.flaps[where[0]] == where[1],
        "spaces": [[s, describe(state, s)] for s in spaces],
    }


def _item(state: KttkState, item: str) -> JSON:
    return {"id": item, "name": named.kind(state.pack, state.item_kind(item)),
            "values": list(state.item_value(item)), "exhausted": state.items[item][1],
            "magic": item.startswith(MAGIC_PREFIX)}


def _step(state: KttkState) -> JSON | None:
    """The adventure step, castle token or challenge the hero faces now, with its target and
    what would let them in without rolling."""
    ask, pack, phase = state.ask, state.pack, state.phase
    purpose = state.roll.purpose if state.roll is not None else None
    if isinstance(ask, StepAsk) and (phase == Phase.ADVENTURE or purpose == Purpose.ADVENTURE):
        adventure = pack.adventures[ask.adventure]
        step = adventure.steps[ask.step]
        return {"kind": "adventure", "hero": ask.hero,
                "hero_name": named.hero(pack, ask.hero),
                "name": named.adventure(pack, adventure.id), "colour": adventure.colour,
                "colour_name": named.colour(adventure.colour) if adventure.colour else None,
                "step": ask.step + 1,
                "steps": len(adventure.steps), "target": step.target,
                "item": step.item, "companion": step.companion,
                "shortcut": Play(state).shortcut_help() if phase == Phase.ADVENTURE else None}
    if isinstance(ask, CastleAsk) and (phase == Phase.CASTLE or purpose == Purpose.CASTLE):
        token = pack.token(ask.token)
        section = next(i for i, (_, tokens) in enumerate(pack.sections)
                       if any(t.name == token.name for t in tokens))
        return {"kind": "castle", "hero": ask.hero, "hero_name": named.hero(pack, ask.hero),
                "name": named.token(pack, token.name), "section": named.section(pack, section),
                "step": section + 1,
                "steps": len(pack.sections), "target": token.target, "item": token.item,
                "companion": None,
                "shortcut": Play(state).shortcut_help() if phase == Phase.CASTLE else None}
    if isinstance(ask, ChallengeAsk) and (phase == Phase.CHALLENGE
                                          or purpose == Purpose.CHALLENGE):
        return {"kind": "challenge", "hero": ask.hero, "hero_name": named.hero(pack, ask.hero),
                "name": _source(pack, ask.source), "step": None,
                "steps": None, "target": ask.target, "item": None,
                "companion": None, "shortcut": None}
    return None


def _source(pack: Pack, source: str) -> Any:
    """What a challenge comes from (an adventure, or an event card by its name) in words."""
    if source in pack.adventures:
        return named.adventure(pack, source)
    for n, card in enumerate(pack.cards, 1):
        if card.name == source:
            return named.card(pack, n)
    return source.replace("-", " ")
