"""The content pack: everything the rulebook does not print, read from YAML and checked.

A pack is a folder of four files (pack.yaml, board.yaml, atlas.yaml, events.yaml). The engine
plays whatever pack the game names, so a maker who types in their own copy's atlas changes no
code. Loading fails on anything the engine could not play (a path to a space that does not
exist, an effect it does not know), always naming file, line and key; softer problems (a land
that cannot flip back, a space no hero can reach) are the content check's business
(`check.py`), because a half-typed pack should still be playable while it is being finished.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Annotated, Any, Literal

from tabletap.controller.language.said import Named
from tabletap.controller.loading import schema
from tabletap.controller.loading.bounded import LimitError, decode_utf8
from tabletap.controller.loading.schema import Invalid, Meta, Schema
from tabletap.controller.loading.yamldoc import SourceError, YamlDoc, load_text, validate

Status = Literal["confirmed", "likely", "guess"]
COLOURS: tuple[str, ...] = ("red", "green", "blue")
MAGIC_ITEMS: tuple[str, ...] = (
    "coffee-beans", "sticky-stick", "mood-ring", "kind-of-evil-knife", "bee-cannon",
)
SPACE_KINDS: tuple[str, ...] = (
    "start", "boring", "refresh", "event", "demon-die", "genie", "adventure", "whirlpool", "void",
)
EFFECTS: tuple[str, ...] = (
    "refresh", "exhaust", "exhaust-others", "magic", "demon-die", "flip", "steal", "sweep",
    "domain", "roll",
)
FILES: tuple[str, ...] = ("pack.yaml", "board.yaml", "atlas.yaml", "events.yaml")
MAX_FILE_BYTES = 512 * 1024  # a pack is a few pages of text; anything bigger is a mistake
DEFAULT_PACK = "default"
# a name in a data file: English only ("sword"), or one spelling per language ({en: sword, de:
# Schwert}); English is the fallback, so it is required
Words = str | dict[str, str]


class PackError(ValueError):
    """A pack the engine cannot play; the message names file, line and key."""


# -- the YAML schema ----------------------------------------------------------------------------


class _Strict(Schema, frozen=True):
    """The files' shapes: unknown keys refused (Schema), and read-only once loaded."""


_Target = Annotated[int, Meta(ge=0, le=30)]  # a roll to reach: die faces are 0 to 30
_Bonus5 = Annotated[int, Meta(ge=0, le=5)]  # what a hero's power or a companion adds


class _Die(_Strict):
    status: Status
    faces: Annotated[list[int], Meta(min_length=2, max_length=20)]


class _Dice(_Strict):
    hero: _Die
    demon: _Die


class _Keys(_Strict):
    status: Status
    per_colour: Annotated[int, Meta(ge=1, le=20)]


class _Item(_Strict):
    status: Status
    names: Words | None = None
    value: Annotated[int, Meta(ge=1, le=9)]


class _Magic(_Strict):
    status: Status
    names: Words | None = None
    values: Annotated[list[int], Meta(min_length=1, max_length=4)]


class _Bonus(_Strict):
    adventure: _Bonus5 = 0
    challenge: _Bonus5 = 0
    castle: _Bonus5 = 0


class _Power(_Strict):
    bonus: _Bonus = schema.field(default_factory=_Bonus)
    nap: Annotated[int, Meta(ge=1, le=13)] = 5
    refresh: _Bonus5 = 0


class _Hero(_Strict):
    status: Status
    names: Words | None = None
    text: str
    power: _Power = schema.field(default_factory=_Power)


class _PackFile(_Strict):
    # \Z, not $: msgspec searches with Python's re, whose $ also matches before a last "\n"
    name: Annotated[str, Meta(pattern=r"^[a-z0-9][a-z0-9-]*\Z")]
    title: str
    stand_in: bool = False
    dice: _Dice
    keys: _Keys
    items: Annotated[dict[str, _Item], Meta(min_length=1, max_length=12)]
    magic: dict[str, _Magic]
    heroes: dict[str, _Hero]

    def __post_init__(self) -> None:
        # Here rather than as the dict's Meta(min_length=2): the check that finds which hero a
        # deeper error is in tries each hero alone, and a lone hero would fail a minimum of 2.
        if not 2 <= len(self.heroes) <= 5:
            raise Invalid("heroes", f"a pack has 2 to 5 heroes, not {len(self.heroes)}")


class _Flap(_Strict):
    status: Status
    board: Annotated[int, Meta(ge=1, le=9)]
    closed: str
    open: str
    starts: Literal["closed", "open"] = "closed"


class _Land(_Strict):
    status: Status
    names: Words | None = None
    spaces: Annotated[dict[str, Any], Meta(min_length=1)]


class _Path(_Strict):
    status: Status
    chain: Annotated[list[str], Meta(min_length=2)]


class _Courtyard(_Strict):
    status: Status
    spaces: Annotated[dict[str, Any], Meta(min_length=1)]


class _BoardFile(_Strict):
    start: str
    flaps: dict[str, _Flap] = {}
    lands: Annotated[dict[str, _Land], Meta(min_length=1)]
    paths: Annotated[list[_Path], Meta(min_length=1)]
    courtyard: _Courtyard


class _StepModel(_Strict):
    target: _Target
    item: str | None = None
    companion: str | None = None


class _Leave(_Strict):
    success: str
    fail: str


class _Adventure(_Strict):
    status: Status
    names: Words | None = None
    kind: Literal["key", "minor"]
    start: str
    colour: Literal["red", "green", "blue"] | None = None
    steps: list[_StepModel] = []
    fail: Any = None  # key: a space; minor: a list of effects
    success: Any = None
    target: _Target | None = None
    leave: str | _Leave | None = None


class _Whirlpool(_Strict):
    status: Status
    space: str
    flip: str
    to: str | None = None


class _Token(_Strict):
    name: str
    names: Words | None = None
    target: _Target
    item: str | None = None


class _Section(_Strict):
    name: Words
    tokens: Annotated[list[_Token], Meta(min_length=1, max_length=9)]


class _Castle(_Strict):
    status: Status
    sections: Annotated[list[_Section], Meta(min_length=1, max_length=9)]


class _AtlasFile(_Strict):
    adventures: dict[str, _Adventure]
    whirlpools: dict[str, _Whirlpool] = {}
    castle: _Castle


class _Card(_Strict):
    status: Status
    name: str
    names: Words | None = None
    kind: Literal["companion", "magic", "encounter"]
    text: Words = ""
    bonus: _Bonus5 = 0
    item: str | None = None
    effects: list[Any] = []


class _EventsFile(_Strict):
    cards: Annotated[list[_Card], Meta(min_length=1, max_length=99)]


# -- what the engine reads ----------------------------------------------------------------------

Effect = dict[str, Any]  # one validated effect, e.g. {"refresh": 2}


@dataclass(frozen=True)
class Space:
    id: str
    land: str  # a land name, or "courtyard"
    kind: str
    refresh: int = 0


@dataclass(frozen=True)
class Step:
    target: int
    item: str | None = None
    companion: str | None = None


@dataclass(frozen=True)
class Adventure:
    id: str
    kind: str  # key | minor
    start: str
    colour: str | None = None
    steps: tuple[Step, ...] = ()
    target: int = 0  # minor
    on_success: tuple[Effect, ...] = ()  # minor
    on_fail: tuple[Effect, ...] = ()
    leave_success: str = ""  # where the hero goes after a success / a failure
    leave_fail: str = ""


@dataclass(frozen=True)
class Whirlpool:
    id: str
    space: str
    flip: str
    to: str | None


@dataclass(frozen=True)
class Flap:
    id: str
    closed: str
    open: str
    starts: str


@dataclass(frozen=True)
class Card:
    n: int
    name: str
    kind: str
    text: str
    bonus: int = 0
    item: str | None = None
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class Token:
    name: str
    target: int
    item: str | None


@dataclass(frozen=True)
class Hero:
    name: str
    text: str
    adventure_bonus: int = 0
    challenge_bonus: int = 0
    castle_bonus: int = 0
    nap: int = 5
    refresh: int = 0


@dataclass(frozen=True)
class Pack:
    """A loaded, validated pack. `ref` is how a game names it (journal headers keep it)."""

    ref: str
    name: str
    title: str
    stand_in: bool
    hero_faces: tuple[int, ...]
    demon_faces: tuple[int, ...]
    keys_per_colour: int
    items: dict[str, int]  # item type -> value
    magic: dict[str, tuple[int, ...]]
    heroes: dict[str, Hero]
    start: str
    spaces: dict[str, Space]  # every kingdom space and courtyard space
    lands: dict[str, tuple[str, ...]]  # land -> its spaces, in file order
    flaps: dict[str, Flap]
    neighbours: dict[str, tuple[str, ...]]
    courtyard: tuple[str, ...]
    adventures: dict[str, Adventure]
    adventure_at: dict[str, str]  # start space -> adventure id
    whirlpools: dict[str, Whirlpool]
    whirlpool_at: dict[str, str]  # space -> whirlpool id
    sections: tuple[tuple[str, tuple[Token, ...]], ...]
    cards: tuple[Card, ...]  # card n is cards[n - 1]
    companions: dict[str, int]  # companion name -> its card number
    status: dict[str, str] = field(default_factory=dict)
    lines: dict[str, tuple[str, int | None]] = field(default_factory=dict)  # key -> (file, line)
    # what people hear, per language: "items.sword", "magic.<id>", "heroes.<id>", "lands.<id>",
    # "adventures.<id>", "tokens.<id>", "sections.<n>", "cards.<n>", "texts.<n>" (from 1)
    names: dict[str, Named] = field(default_factory=dict)

    def named(self, key: str) -> Named:
        """An entry's name in every language the pack gives; the id in words if it has none
        (a pack made before names were translated still plays, in English)."""
        found = self.names.get(key)
        if found is not None:
            return found
        return Named.of(key.split(".", 1)[-1].replace("-", " "), source=self.ref)

    def token(self, name: str) -> Token:
        return next(t for _, tokens in self.sections for t in tokens if t.name == name)

    def card(self, n: int) -> Card:
        return self.cards[n - 1]

    def land_of_flap(self, flap: str, side: str) -> str:
        f = self.flaps[flap]
        return f.closed if side == "closed" else f.open

    def flap_of(self, land: str) -> tuple[str, str] | None:
        """(flap, side) for a folding land, None for a land that always shows."""
        for f in self.flaps.values():
            if land == f.closed:
                return f.id, "closed"
            if land == f.open:
                return f.id, "open"
        return None

    def where(self, key: str) -> str:
        """`file:line` of an entry (for the content check's messages)."""
        path, line = self.lines.get(key, ("", None))
        return f"{path}:{line}" if line else path


# -- loading ------------------------------------------------------------------------------------


def _read(folder: Traversable, name: str, label: str) -> YamlDoc:
    path = f"{label}/{name}"
    entry = folder.joinpath(name)
    try:
        raw = entry.read_bytes()
    except (OSError, FileNotFoundError) as exc:
        raise PackError(f"{path}: cannot read it ({getattr(exc, 'strerror', None) or exc})"
                        ) from None
    if len(raw) > MAX_FILE_BYTES:
        raise PackError(f"{path}: {len(raw)} bytes is too big for a pack file "
                        f"(at most {MAX_FILE_BYTES})")
    try:
        text = decode_utf8(raw, MAX_FILE_BYTES)
    except LimitError as exc:  # names the line and column of the first bad byte
        raise PackError(f"{path}:{exc.line}:{exc.column}: {exc}") from None
    try:
        return load_text(text, path)
    except SourceError as exc:
        raise PackError(str(exc)) from None


def _checked(doc: YamlDoc, model: type[Any]) -> Any:
    try:
        return validate(doc, model)
    except SourceError as exc:
        raise PackError(str(exc)) from None


class _Builder:
    """Cross-checks between the files, each failure located in the file that is wrong."""

    def __init__(self, docs: dict[str, YamlDoc]) -> None:
        self.docs = docs
        self.lines: dict[str, tuple[str, int | None]] = {}

    def fail(self, file: str, loc: tuple[Any, ...], message: str) -> PackError:
        return PackError(str(self.docs[file].error(loc, message)))

    def note(self, key: str, file: str, loc: tuple[Any, ...]) -> None:
        self.lines[key] = (self.docs[file].path, self.docs[file].line_of(loc))

    def named(self, file: str, loc: tuple[Any, ...], value: Any, fallback: str) -> Named:
        """A name of the data file (`Named`), the id in words when it gives none; a spelling
        per language needs its English (the fallback the table says in any other language)."""
        source = self.docs[file].path
        if value is None:
            return Named.of(fallback.replace("-", " "), source=source)
        try:
            return Named.of(value, source=source)
        except ValueError:
            raise self.fail(file, loc, "a name per language needs its English spelling (en:), "
                            "which any language without its own spelling says") from None

    def space_entry(self, file: str, loc: tuple[Any, ...], sid: str, land: str,
                    raw: Any) -> Space:
        if isinstance(raw, str) and raw in SPACE_KINDS and raw != "refresh":
            return Space(sid, land, raw)
        if isinstance(raw, dict) and set(raw) == {"refresh"}:
            n = raw["refresh"]
            if isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 13:
                return Space(sid, land, "refresh", n)
            raise self.fail(file, loc + ("refresh",), "a refresh space refreshes 1 to 13 items")
        kinds = ", ".join(k for k in SPACE_KINDS if k != "refresh")
        raise self.fail(file, loc, f"a space is one of {kinds}, or {{refresh: n}}")


def _effects(b: _Builder, file: str, loc: tuple[Any, ...], raw: Any, pack: dict[str, Any],
             depth: int = 0) -> tuple[Effect, ...]:
    """Validate a list of effects against the vocabulary and the pack's names."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise b.fail(file, loc, "expected a list of effects, like [{refresh: 2}]")
    out: list[Effect] = []
    for i, eff in enumerate(raw):
        here = loc + (i,)
        if not isinstance(eff, dict) or len(eff) != 1:
            raise b.fail(file, here, f"an effect is one key of {', '.join(EFFECTS)}")
        (name, value), = eff.items()
        here = here + (name,)
        count = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 13
        if name in ("refresh", "exhaust", "exhaust-others", "steal"):
            if not count:
                raise b.fail(file, here, "expected a number of items, 1 to 13")
        elif name == "magic":
            if value != "any" and value not in MAGIC_ITEMS:
                raise b.fail(file, here, f"expected any or one of {', '.join(MAGIC_ITEMS)}")
        elif name in ("demon-die", "domain"):
            if value is not True:
                raise b.fail(file, here, "expected true")
        elif name == "flip":
            if value not in pack["flaps"]:
                raise b.fail(file, here, f"no flap called {value!r} in board.yaml")
        elif name == "sweep":
            if (not isinstance(value, list) or not value
                    or any(w not in pack["whirlpools"] for w in value)):
                raise b.fail(file, here, "expected a list of whirlpool entries of atlas.yaml")
        elif name == "roll":
            if depth or not isinstance(value, dict) or set(value) - {"target", "success", "fail"}:
                raise b.fail(file, here, "a roll is {target: n, success: [...], fail: [...]} "
                             "(not inside another roll)")
            target = value.get("target")
            if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= 30:
                raise b.fail(file, here + ("target",), "expected a target from 0 to 30")
            value = {
                "target": target,
                "success": _effects(b, file, here + ("success",), value.get("success"), pack, 1),
                "fail": _effects(b, file, here + ("fail",), value.get("fail"), pack, 1),
            }
        else:
            raise b.fail(file, here, f"unknown effect; effects are {', '.join(EFFECTS)}")
        out.append({name: value})
    return tuple(out)


def parse_pack(docs: dict[str, YamlDoc], ref: str) -> Pack:
    """Build a Pack from the four parsed files; PackError names the first problem."""
    top = _checked(docs["pack.yaml"], _PackFile)
    board = _checked(docs["board.yaml"], _BoardFile)
    atlas = _checked(docs["atlas.yaml"], _AtlasFile)
    events = _checked(docs["events.yaml"], _EventsFile)
    b = _Builder(docs)
    status: dict[str, str] = {}

    if sorted(top.magic) != sorted(MAGIC_ITEMS):
        missing = [m for m in MAGIC_ITEMS if m not in top.magic]
        extra = [m for m in top.magic if m not in MAGIC_ITEMS]
        what = f"missing {', '.join(missing)}" if missing else f"unknown {extra[0]!r}"
        raise b.fail("pack.yaml", ("magic",), f"the five magic items of the rulebook: {what}")
    for name in list(top.items) + list(top.heroes):
        if not name or not all(c.islower() or c.isdigit() or c == "-" for c in name):
            raise b.fail("pack.yaml", ("items" if name in top.items else "heroes", name),
                         "names are lower-case letters, digits and '-' (they are piece ids)")
    for die in ("hero", "demon"):
        if any(f < 0 or f > 30 for f in getattr(top.dice, die).faces):
            raise b.fail("pack.yaml", ("dice", die, "faces"), "die faces are 0 to 30")
        status[f"dice.{die}"] = getattr(top.dice, die).status
    status["keys"] = top.keys.status
    for section in ("dice", "keys", "items", "magic", "heroes"):
        b.note(section, "pack.yaml", (section,))
    for name in list(top.items) + list(top.magic):
        section = "items" if name in top.items else "magic"
        b.note(f"{section}.{name}", "pack.yaml", (section, name))
    names: dict[str, Named] = {}
    for section in ("items", "magic", "heroes"):
        for key, entry in getattr(top, section).items():
            names[f"{section}.{key}"] = b.named("pack.yaml", (section, key, "names"),
                                                entry.names, key)
    status.update({f"items.{k}": v.status for k, v in top.items.items()})
    status.update({f"magic.{k}": v.status for k, v in top.magic.items()})
    status.update({f"heroes.{k}": v.status for k, v in top.heroes.items()})

    # board: lands and spaces
    spaces: dict[str, Space] = {}
    lands: dict[str, tuple[str, ...]] = {}
    for land, entry in board.lands.items():
        status[f"lands.{land}"] = entry.status
        names[f"lands.{land}"] = b.named("board.yaml", ("lands", land, "names"), entry.names,
                                         land)
        b.note(f"lands.{land}", "board.yaml", ("lands", land))
        for sid, raw in entry.spaces.items():
            loc = ("lands", land, "spaces", sid)
            if sid in spaces:
                raise b.fail("board.yaml", loc, f"space {sid!r} is named twice")
            spaces[sid] = b.space_entry("board.yaml", loc, sid, land, raw)
            b.note(f"spaces.{sid}", "board.yaml", loc)
        lands[land] = tuple(entry.spaces)
    courtyard = []
    for sid, raw in board.courtyard.spaces.items():
        loc = ("courtyard", "spaces", sid)
        if sid in spaces:
            raise b.fail("board.yaml", loc, f"space {sid!r} is named twice")
        space = b.space_entry("board.yaml", loc, sid, "courtyard", raw)
        if space.kind not in ("boring", "refresh"):
            raise b.fail("board.yaml", loc, "courtyard spaces are refresh spaces or boring")
        spaces[sid] = space
        courtyard.append(sid)
    status["courtyard"] = board.courtyard.status
    if board.start not in spaces or spaces[board.start].land == "courtyard":
        raise b.fail("board.yaml", ("start",), f"no kingdom space called {board.start!r}")
    if spaces[board.start].kind != "start":
        raise b.fail("board.yaml", ("start",), f"{board.start} is not a start space")
    if board.flaps and spaces[board.start].land in {
        land for f in board.flaps.values() for land in (f.closed, f.open)
    }:
        raise b.fail("board.yaml", ("start",), "the start must lie on a land that always "
                     "shows, not on one that folds")

    flaps: dict[str, Flap] = {}
    folding: set[str] = set()
    for fid, f in board.flaps.items():
        for side in ("closed", "open"):
            land = getattr(f, side)
            if land not in lands:
                raise b.fail("board.yaml", ("flaps", fid, side), f"no land called {land!r}")
            if land in folding:
                raise b.fail("board.yaml", ("flaps", fid, side), f"{land} folds twice")
            folding.add(land)
        flaps[fid] = Flap(fid, f.closed, f.open, f.starts)
        status[f"flaps.{fid}"] = f.status
        b.note(f"flaps.{fid}", "board.yaml", ("flaps", fid))

    links: dict[str, list[str]] = {sid: [] for sid in spaces}
    for i, path in enumerate(board.paths):
        status[f"paths.{i}"] = path.status
        b.note(f"paths.{i}", "board.yaml", ("paths", i))
        for j, sid in enumerate(path.chain):
            if sid not in spaces or spaces[sid].land == "courtyard":
                raise b.fail("board.yaml", ("paths", i, "chain", j),
                             f"no kingdom space called {sid!r}")
        for a, c in zip(path.chain, path.chain[1:], strict=False):
            if a == c:
                raise b.fail("board.yaml", ("paths", i, "chain"), f"{a} is joined to itself")
            if c not in links[a]:
                links[a].append(c)
                links[c].append(a)

    pack_names = {"flaps": flaps, "whirlpools": atlas.whirlpools}
    item_names = set(top.items) | set(MAGIC_ITEMS)
    companion_names = {c.name for c in events.cards if c.kind == "companion"}

    # atlas
    adventures: dict[str, Adventure] = {}
    adventure_at: dict[str, str] = {}

    def board_space(loc: tuple[Any, ...], sid: Any, what: str) -> str:
        if not isinstance(sid, str) or sid not in spaces or spaces[sid].land == "courtyard":
            raise b.fail("atlas.yaml", loc, f"{what}: no kingdom space called {sid!r}")
        return sid

    def claim(section: str, key: str, field: str, sid: Any, kind: str,
              taken: dict[str, str], entry: Any) -> str:
        """An atlas entry's own space: it exists, is of its kind, and has no other entry."""
        loc = (section, key)
        status[f"{section}.{key}"] = entry.status
        b.note(f"{section}.{key}", "atlas.yaml", loc)
        space = board_space(loc + (field,), sid, field)
        if spaces[space].kind != kind:
            raise b.fail("atlas.yaml", loc + (field,), f"{space} is not a {kind} space")
        if space in taken:
            raise b.fail("atlas.yaml", loc + (field,),
                         f"{space} already has the entry {taken[space]}")
        taken[space] = key
        return space

    for aid, adv in atlas.adventures.items():
        loc = ("adventures", aid)
        names[f"adventures.{aid}"] = b.named("atlas.yaml", loc + ("names",), adv.names, aid)
        start = claim("adventures", aid, "start", adv.start, "adventure", adventure_at, adv)
        if adv.kind == "key":
            if adv.colour is None:
                raise b.fail("atlas.yaml", loc, "a key adventure needs its colour")
            for key in ("target", "leave"):
                if getattr(adv, key) is not None:
                    raise b.fail("atlas.yaml", loc + (key,), "only minor adventures have it")
            steps = []
            for j, st in enumerate(adv.steps):
                if st.item is not None and st.item not in item_names:
                    raise b.fail("atlas.yaml", loc + ("steps", j, "item"),
                                 f"no item called {st.item!r}")
                if st.companion is not None and st.companion not in companion_names:
                    raise b.fail("atlas.yaml", loc + ("steps", j, "companion"),
                                 f"no companion card called {st.companion!r} in events.yaml")
                steps.append(Step(st.target, st.item, st.companion))
            fail = board_space(loc + ("fail",), adv.fail, "fail")
            success = board_space(loc + ("success",), adv.success, "success")
            adventures[aid] = Adventure(aid, "key", start, adv.colour, tuple(steps),
                                        leave_success=success, leave_fail=fail)
        else:
            if adv.colour is not None or adv.steps:
                raise b.fail("atlas.yaml", loc, "a minor adventure has no colour and no steps")
            if adv.target is None:
                raise b.fail("atlas.yaml", loc + ("target",), "required key is missing")
            if adv.leave is None:
                raise b.fail("atlas.yaml", loc + ("leave",), "required key is missing")
            if isinstance(adv.leave, str):
                leave_s = leave_f = board_space(loc + ("leave",), adv.leave, "leave")
            else:
                leave_s = board_space(loc + ("leave", "success"), adv.leave.success, "leave")
                leave_f = board_space(loc + ("leave", "fail"), adv.leave.fail, "leave")
            adventures[aid] = Adventure(
                aid, "minor", start, target=adv.target,
                on_success=_effects(b, "atlas.yaml", loc + ("success",), adv.success,
                                    pack_names),
                on_fail=_effects(b, "atlas.yaml", loc + ("fail",), adv.fail, pack_names),
                leave_success=leave_s, leave_fail=leave_f)

    whirlpools: dict[str, Whirlpool] = {}
    whirlpool_at: dict[str, str] = {}
    for wid, w in atlas.whirlpools.items():
        loc = ("whirlpools", wid)
        space = claim("whirlpools", wid, "space", w.space, "whirlpool", whirlpool_at, w)
        if w.flip not in flaps:
            raise b.fail("atlas.yaml", loc + ("flip",), f"no flap called {w.flip!r}")
        to = board_space(loc + ("to",), w.to, "to") if w.to is not None else None
        whirlpools[wid] = Whirlpool(wid, space, w.flip, to)

    sections = []
    seen_tokens: set[str] = set()
    for i, sec in enumerate(atlas.castle.sections):
        for j, tok in enumerate(sec.tokens):
            if tok.name in seen_tokens:
                raise b.fail("atlas.yaml", ("castle", "sections", i, "tokens", j, "name"),
                             f"token {tok.name!r} is named twice")
            seen_tokens.add(tok.name)
            names[f"tokens.{tok.name}"] = b.named(
                "atlas.yaml", ("castle", "sections", i, "tokens", j, "names"), tok.names,
                tok.name)
            if tok.item is not None and tok.item not in item_names:
                raise b.fail("atlas.yaml", ("castle", "sections", i, "tokens", j, "item"),
                             f"no item called {tok.item!r}")
        said = b.named("atlas.yaml", ("castle", "sections", i, "name"), sec.name, "")
        names[f"sections.{i + 1}"] = said
        sections.append((said.english(),
                         tuple(Token(t.name, t.target, t.item) for t in sec.tokens)))
    status["castle"] = atlas.castle.status
    b.note("castle", "atlas.yaml", ("castle",))
    b.note("cards", "events.yaml", ("cards",))

    cards = []
    companions: dict[str, int] = {}
    for i, card in enumerate(events.cards):
        loc = ("cards", i)
        n = i + 1
        status[f"cards.{n}"] = card.status
        b.note(f"cards.{n}", "events.yaml", loc)
        if card.kind == "companion":
            if card.effects or card.item:
                raise b.fail("events.yaml", loc, "a companion has no effects and no item")
            if card.name in companions:
                raise b.fail("events.yaml", loc + ("name",),
                             f"companion {card.name!r} is card {companions[card.name]} already")
            companions[card.name] = n
        elif card.kind == "magic":
            if card.item != "any" and card.item not in MAGIC_ITEMS:
                raise b.fail("events.yaml", loc + ("item",),
                             f"expected any or one of {', '.join(MAGIC_ITEMS)}")
            if card.effects or card.bonus:
                raise b.fail("events.yaml", loc, "a magic card has only its item")
        elif card.item or card.bonus:
            raise b.fail("events.yaml", loc, "an encounter has only effects")
        effects = _effects(b, "events.yaml", loc + ("effects",), card.effects, pack_names)
        names[f"cards.{n}"] = b.named("events.yaml", loc + ("names",), card.names, card.name)
        text = b.named("events.yaml", loc + ("text",), card.text, "")
        names[f"texts.{n}"] = text
        cards.append(Card(n, card.name, card.kind, text.english(), card.bonus, card.item,
                          effects))

    return Pack(
        ref=ref, name=top.name, title=top.title, stand_in=top.stand_in,
        hero_faces=tuple(top.dice.hero.faces), demon_faces=tuple(top.dice.demon.faces),
        keys_per_colour=top.keys.per_colour,
        items={k: v.value for k, v in top.items.items()},
        magic={k: tuple(v.values) for k, v in top.magic.items()},
        heroes={
            name: Hero(name, h.text, h.power.bonus.adventure, h.power.bonus.challenge,
                       h.power.bonus.castle, h.power.nap, h.power.refresh)
            for name, h in top.heroes.items()
        },
        start=board.start, spaces=spaces, lands=lands, flaps=flaps,
        neighbours={k: tuple(v) for k, v in links.items()}, courtyard=tuple(courtyard),
        adventures=adventures, adventure_at=adventure_at, whirlpools=whirlpools,
        whirlpool_at=whirlpool_at, sections=tuple(sections), cards=tuple(cards),
        companions=companions, status=status, lines=b.lines, names=names,
    )


def read_pack(folder: Traversable, label: str, ref: str) -> Pack:
    docs = {name: _read(folder, name, label) for name in FILES}
    return parse_pack(docs, ref)


def packaged_packs() -> list[str]:
    root = resources.files(__package__).joinpath("packs")
    return sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("_"))


@cache
def load_pack(ref: str = DEFAULT_PACK) -> Pack:
    """A pack by name (one shipped under packs/) or by folder path (a maker's own).

    Cached: a pack is read once per process, so replaying a journal or listing legal moves
    never touches the disk again."""
    if "/" not in ref and ref in packaged_packs():
        folder = resources.files(__package__).joinpath("packs", ref)
        return read_pack(folder, f"packs/{ref}", ref)
    path = Path(ref)
    if not path.is_dir():
        known = ", ".join(packaged_packs())
        raise PackError(f"{ref}: no such pack (a shipped pack is one of {known}; "
                        "a pack of your own is a folder holding " + ", ".join(FILES) + ")")
    return read_pack(path, str(path), ref)
