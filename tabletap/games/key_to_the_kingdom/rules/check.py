"""The content check: what in a loadable pack is unreachable or inconsistent.

Loading (pack.py) already refuses what the engine cannot play. This looks at the pack as a
board a family would play on, over every fold of the flaps a game can reach: a path that leads
nowhere, a space no hero can reach, a key adventure without steps, an adventure leaving to a
space that starts something, a whirlpool without an atlas entry, a land that cannot flip back.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from tabletap.games.key_to_the_kingdom.rules.pack import COLOURS, Pack


@dataclass(frozen=True)
class Finding:
    where: str  # file:line
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


def _shown(pack: Pack, config: dict[str, str], space: str) -> bool:
    where = pack.flap_of(pack.spaces[space].land)
    return where is None or config[where[0]] == where[1]


def _flips(pack: Pack) -> dict[str, set[str]]:
    """Flap -> the places that flip it: whirlpool spaces, adventures, or 'events'."""
    out: dict[str, set[str]] = {f: set() for f in pack.flaps}
    for w in pack.whirlpools.values():
        out[w.flip].add(w.space)
    for adv in pack.adventures.values():
        for eff in adv.on_success + adv.on_fail:
            if "flip" in eff:
                out[eff["flip"]].add(adv.start)
    for card in pack.cards:
        for eff in card.effects:
            inner = list(eff["roll"]["success"]) + list(eff["roll"]["fail"]) if "roll" in eff \
                else [eff]
            for one in inner:
                if "flip" in one:
                    out[one["flip"]].add("event")
    return out


def check_pack(pack: Pack) -> list[Finding]:
    found: list[Finding] = []
    flaps = list(pack.flaps)
    configs = [dict(zip(flaps, sides, strict=True))
               for sides in product(("closed", "open"), repeat=len(flaps))]
    flips = _flips(pack)
    # which fold configurations a game reaches, and the spaces reachable in each
    start = {f.id: f.starts for f in pack.flaps.values()}
    seen_configs = [start]
    reached: set[str] = set()
    queue = [start]
    while queue:
        config = queue.pop()
        spaces = _reach(pack, config)
        reached |= spaces
        has_event = any(pack.spaces[s].kind == "event" for s in spaces)
        for flap, sources in flips.items():
            if any(s in spaces for s in sources) or ("event" in sources and has_event):
                nxt = dict(config)
                nxt[flap] = "open" if config[flap] == "closed" else "closed"
                if nxt not in seen_configs:
                    seen_configs.append(nxt)
                    queue.append(nxt)
    for flap in flaps:
        sides = {c[flap] for c in seen_configs}
        if len(sides) == 1:
            other = "open" if sides == {"closed"} else "closed"
            found.append(Finding(pack.where(f"flaps.{flap}"), f"the {flap} flap never turns "
                                 f"{other}: no reachable whirlpool or effect flips it"))
        else:
            for side in ("closed", "open"):
                back = "open" if side == "closed" else "closed"
                if not any(c[flap] == side and _flips_here(pack, c, flips[flap])
                           for c in seen_configs):
                    land = pack.land_of_flap(flap, side)
                    found.append(Finding(pack.where(f"lands.{land}"), f"land {land} cannot "
                                         f"flip back: with the {flap} flap {side} nothing "
                                         f"reachable turns it {back}"))
    for sid, space in pack.spaces.items():
        if space.land == "courtyard" or space.kind == "void":
            continue
        if sid not in reached:
            found.append(Finding(pack.where(f"spaces.{sid}"), f"space {sid} cannot be "
                                 "reached from the start in any fold of the board"))
    for config in configs:
        for sid, space in pack.spaces.items():
            if space.land == "courtyard" or not _shown(pack, config, sid):
                continue
            ways = [n for n in pack.neighbours[sid] if _shown(pack, config, n)]
            if len(ways) == 1 and space.kind not in ("void",):
                fold = ", ".join(f"{f} {s}" for f, s in config.items())
                found.append(Finding(pack.where(f"spaces.{sid}"), f"the path at {sid} leads "
                                     f"nowhere when the board is {fold or 'as it is'} (its "
                                     "only neighbour is " + ways[0] + ")"))
            if not ways and space.kind != "void":
                found.append(Finding(pack.where(f"spaces.{sid}"),
                                     f"space {sid} has no path at all"))
    for sid, space in pack.spaces.items():
        if space.kind == "whirlpool" and sid not in pack.whirlpool_at:
            found.append(Finding(pack.where(f"spaces.{sid}"), f"whirlpool {sid} has no "
                                 "atlas entry (atlas.yaml whirlpools)"))
        if space.kind == "adventure" and sid not in pack.adventure_at:
            found.append(Finding(pack.where(f"spaces.{sid}"), f"adventure space {sid} has "
                                 "no atlas entry (atlas.yaml adventures)"))
    for aid, adv in pack.adventures.items():
        if adv.kind == "key" and not adv.steps:
            found.append(Finding(pack.where(f"adventures.{aid}"), f"adventure {aid} has no "
                                 "end: a key adventure needs at least one step"))
        for leave in {adv.leave_success, adv.leave_fail}:
            if pack.spaces[leave].kind in ("adventure", "whirlpool", "void"):
                found.append(Finding(pack.where(f"adventures.{aid}"), f"adventure {aid} "
                                     f"leaves to {leave}, a {pack.spaces[leave].kind} space"))
    for wid, w in pack.whirlpools.items():
        if w.to is None:
            continue
        for config in seen_configs:
            if not _shown(pack, config, w.space):
                continue
            after = _flipped(config, [w.flip])
            if not _shown(pack, after, w.to):
                land = pack.spaces[w.to].land
                found.append(Finding(pack.where(f"whirlpools.{wid}"), f"whirlpool {wid} "
                                     f"leads to {w.to}, but {land} is folded away once it "
                                     f"has flipped the {w.flip} flap ({_fold(after)})"))
                break
    for aid, adv in pack.adventures.items():
        outcomes = (("success", adv.on_success, adv.leave_success),
                    ("failure", adv.on_fail, adv.leave_fail))
        for what, effects, leave in outcomes:
            for config in seen_configs:
                if not _shown(pack, config, adv.start):
                    continue
                after = _flipped(config, [e["flip"] for e in effects if "flip" in e])
                if not _shown(pack, after, leave):
                    land = pack.spaces[leave].land
                    found.append(Finding(pack.where(f"adventures.{aid}"), f"adventure {aid} "
                                         f"leaves to {leave} after a {what}, but {land} may "
                                         f"be folded away then ({_fold(after)})"))
                    break
    colours = {a.colour for a in pack.adventures.values() if a.kind == "key"}
    for colour in COLOURS:
        if colour not in colours:
            found.append(Finding("", f"no {colour} key adventure: nobody can win"))
    if len(pack.courtyard) < 5:
        found.append(Finding("", f"the courtyard has {len(pack.courtyard)} spaces for up to "
                             "5 heroes"))
    if not pack.whirlpools:
        found.append(Finding("", "no whirlpool: a hero with the whole key cannot reach the "
                             "courtyard"))
    return found + rulebook_findings(pack)


# What the rulebook prints (its components list, its magic items, its sword example) and what
# several sources confirm (eight-sided hero dice, item values 1 to 4, the axe's 2). A pack typed
# in from a real copy matches all of it; a difference is most likely a typo.
RULEBOOK_MAGIC = {"coffee-beans": (2,), "sticky-stick": (2,), "mood-ring": (1, 2),
                  "kind-of-evil-knife": (2,), "bee-cannon": (5,)}
RULEBOOK_ITEMS = {"sword": 4, "axe": 2}
RULEBOOK_COUNTS = (("items", "item types", "every hero has a set of eight item tokens", 8),
                   ("heroes", "heroes", "5 hero cards", 5),
                   ("keys", "key pieces of each colour", "15 key pieces, 5 each", 5),
                   ("cards", "event cards", "36 event cards", 36),
                   ("castle", "Demon King board tokens", "9 of them", 9))


def rulebook_findings(pack: Pack) -> list[Finding]:
    """Where the pack differs from what the rulebook (or several sources) confirms."""
    found: list[Finding] = []
    have = {"items": len(pack.items), "heroes": len(pack.heroes),
            "keys": pack.keys_per_colour, "cards": len(pack.cards),
            "castle": sum(len(tokens) for _, tokens in pack.sections)}
    for key, noun, printed, want in RULEBOOK_COUNTS:
        if have[key] != want:
            found.append(Finding(pack.where(key), f"{have[key]} {noun}; the game has {want} "
                                 f"({printed})"))
    if tuple(pack.hero_faces) != tuple(range(1, 9)):
        found.append(Finding(pack.where("dice"), "the hero dice are eight-sided, 1 to 8"))
    for name, value in pack.items.items():
        if name in RULEBOOK_ITEMS and value != RULEBOOK_ITEMS[name]:
            found.append(Finding(pack.where(f"items.{name}"), f"the {name} is +/-{value}; "
                                 f"in the game it is +/-{RULEBOOK_ITEMS[name]}"))
        elif not 1 <= value <= 4:
            found.append(Finding(pack.where(f"items.{name}"), f"the {name} is +/-{value}; the "
                                 "game's items are +/-1 to +/-4"))
    for aid, adv in pack.adventures.items():
        if adv.kind != "key" or not adv.steps:
            continue
        items = sum(1 for st in adv.steps if st.item)
        companions = sum(1 for st in adv.steps if st.companion)
        if (items, companions) != (1, 2):
            found.append(Finding(pack.where(f"adventures.{aid}"), f"key adventure {aid} shows "
                                 f"{items} item and {companions} companion spaces; each key "
                                 "adventure has one item and two companion spaces"))
    for name, values in pack.magic.items():
        if tuple(sorted(values)) != RULEBOOK_MAGIC[name]:
            shown = " or ".join(map(str, RULEBOOK_MAGIC[name]))
            found.append(Finding(pack.where(f"magic.{name}"), f"the {name.replace('-', ' ')} "
                                 f"is +/-{shown} in the rulebook"))
    return found


def _flipped(config: dict[str, str], flaps: list[str]) -> dict[str, str]:
    """The fold after these flaps have each turned once."""
    out = dict(config)
    for flap in flaps:
        out[flap] = "open" if out[flap] == "closed" else "closed"
    return out


def _fold(config: dict[str, str]) -> str:
    return ", ".join(f"{f} {s}" for f, s in config.items()) or "as it is"


def _flips_here(pack: Pack, config: dict[str, str], sources: set[str]) -> bool:
    spaces = _reach(pack, config)
    has_event = any(pack.spaces[s].kind == "event" for s in spaces)
    return any(s in spaces for s in sources) or ("event" in sources and has_event)


def _reach(pack: Pack, config: dict[str, str]) -> set[str]:
    """Spaces connected to the start (or to any hero placed by a flip: every shown space of a
    land a flip shows counts from its voids) in one fold of the board."""
    seeds = [pack.start] + [sid for sid, sp in pack.spaces.items()
                            if sp.kind == "void" and _shown(pack, config, sid)]
    seeds += [w.to for w in pack.whirlpools.values()
              if w.to is not None and _shown(pack, config, w.to)]
    seen = set(seeds)
    stack = list(seeds)
    while stack:
        node = stack.pop()
        for nxt in pack.neighbours[node]:
            if nxt not in seen and _shown(pack, config, nxt):
                seen.add(nxt)
                stack.append(nxt)
    return seen
