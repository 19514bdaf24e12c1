"""Scenario files: parsing and checking, with errors that name the file, step and line.

The format is docs/CONTRACTS.md's ("Scenario files"). A malformed scenario is the developer's
mistake, not a failed expectation, so it is reported separately (exit 2) and nothing is run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabletap.controller.loading.source import SourceError, YamlDoc, load_file

ACTIONS = ("tap", "place", "remove", "press", "hold", "lid", "roll", "do", "wait", "restart",
           "expect")
EXPECT_KEYS = ("accepted", "rejected", "turn", "score", "winner", "chest", "lights", "state",
               "said", "game", "seats")
MAX_WAIT = 3600  # seconds of virtual time in one wait step
TOP_KEYS = ("game", "players", "seed", "options", "setup", "config", "steps", "description")


@dataclass(frozen=True)
class TagSpec:
    """What is put on a reader: a piece's tag, a blank tag, or a tag of some other app."""

    reader: str | None
    piece: str | None = None
    uid: str | None = None  # a blank tag with this UID (hex)
    uri: str | None = None  # a foreign tag carrying this URI
    ndef: str | None = None  # with uid: this NDEF message (hex; "" for a blank formatted tag)


@dataclass(frozen=True)
class Step:
    index: int  # 1-based
    line: int | None
    action: str
    value: Any
    expect: dict[str, Any] | None


@dataclass
class Scenario:
    path: str
    game: str
    players: list[str]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    description: str = ""


def _tag(doc: YamlDoc, loc: tuple[Any, ...], value: Any) -> TagSpec:
    if isinstance(value, str):
        return TagSpec(None, piece=value)
    if not isinstance(value, dict):
        raise doc.error(loc, "expected a piece id or a mapping {piece: ..., reader: ...}")
    unknown = set(value) - {"piece", "reader", "uid", "uri", "ndef"}
    if "ndef" in value:
        if "uid" not in value:
            raise doc.error(loc + ("ndef",), "an ndef message goes on a tag given by its uid")
        try:
            bytes.fromhex(str(value["ndef"] or ""))
        except ValueError:
            raise doc.error(loc + ("ndef",), "expected the NDEF message in hex") from None
    if "uid" in value:
        try:
            uid = bytes.fromhex(str(value["uid"]).replace(":", ""))
        except ValueError:
            raise doc.error(loc + ("uid",),
                            "expected a UID in hex, like 04:de:ad:be:ef:00:01") from None
        if len(uid) not in (4, 7, 10):
            raise doc.error(loc + ("uid",), "an NFC UID has 4, 7 or 10 bytes")
    if unknown:
        raise doc.error(loc + (sorted(unknown)[0],), "unknown key (a typo?)")
    kinds = [k for k in ("piece", "uid", "uri") if k in value]
    if len(kinds) != 1:
        raise doc.error(loc, "give exactly one of piece, uid (a blank tag) or uri (a foreign tag)")
    reader = value.get("reader")
    if reader is not None and not isinstance(reader, str):
        raise doc.error(loc + ("reader",), "expected a reader name")
    ndef_hex = None if "ndef" not in value else str(value["ndef"] or "")
    return TagSpec(reader, ndef=ndef_hex, **{kinds[0]: str(value[kinds[0]])})


def _check_value(doc: YamlDoc, loc: tuple[Any, ...], action: str, value: Any) -> Any:
    if action in ("tap", "place", "remove"):
        return _tag(doc, loc, value)
    if action in ("press", "hold"):
        if not isinstance(value, str):
            raise doc.error(loc, "expected a button name, like end-turn")
        return value
    if action == "lid":
        if value not in ("open", "closed"):
            raise doc.error(loc, "expected open or closed (the chest's lid switch)")
        return value
    if action == "roll":
        ok = isinstance(value, list) and all(
            (isinstance(f, int) and not isinstance(f, bool)) or isinstance(f, str) for f in value
        )
        if not ok:
            raise doc.error(loc, "expected a list of die faces, like [3, moon, 1]")
        return value
    if action == "do":
        if not isinstance(value, dict) or "action" not in value:
            raise doc.error(loc, "expected a mapping with an `action:` key")
        return value
    if action == "restart":  # the daemon stops and starts again on the same state folder
        value = value or {}
        if not isinstance(value, dict) or set(value) - {"game", "players"}:
            raise doc.error(loc, "expected {} or {game: ..., players: [...]} (the config the "
                            "daemon restarts with)")
        return value
    if action == "wait":
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or not 0 <= value <= MAX_WAIT):
            raise doc.error(loc, f"expected a number of seconds from 0 to {MAX_WAIT}")
        return float(value)
    return _expectation(doc, loc, value)


def _expectation(doc: YamlDoc, loc: tuple[Any, ...], value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise doc.error(loc, f"expected a mapping of expectations ({', '.join(EXPECT_KEYS)})")
    for key in value:
        if key not in EXPECT_KEYS:
            known = ", ".join(EXPECT_KEYS)
            raise doc.error(loc + (key,), f"unknown expectation; use one of {known}")
    if "chest" in value and value["chest"] not in ("open", "closed"):
        raise doc.error(loc + ("chest",), "expected open or closed")
    if "score" in value and not isinstance(value["score"], dict):
        raise doc.error(loc + ("score",), "expected a mapping of player to score")
    said = value.get("said", "")
    # `said:` is English; a mapping language -> sentence(s) names the language of each
    for lang, text in (said.items() if isinstance(said, dict) else [("en", said)]):
        if not isinstance(text, str) and not (
                isinstance(text, list) and all(isinstance(s, str) for s in text)):
            where = loc + ("said",) + ((lang,) if isinstance(said, dict) else ())
            raise doc.error(where, "expected a sentence (or a list of them) the table says "
                            "during the step, or a mapping of language to sentences")
    if "seats" in value and not isinstance(value["seats"], list):
        raise doc.error(loc + ("seats",), "expected the list of players seated so far")
    if "state" in value and not isinstance(value["state"], dict):
        raise doc.error(loc + ("state",), "expected a mapping (a partial public state)")
    return value


def parse(doc: YamlDoc) -> Scenario:
    data = doc.data
    if not isinstance(data, dict):
        raise doc.error((), "a scenario is a mapping with game, players and steps")
    for key in data:
        if key not in TOP_KEYS:
            raise doc.error((key,), "unknown key (a typo?)")
    for key in ("game", "players", "steps"):
        if key not in data:
            raise doc.error((key,), "required key is missing")
    if not isinstance(data["game"], str):
        raise doc.error(("game",), "expected a game name")
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise doc.error(("players",), "expected a list of player names")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise doc.error(("seed",), "expected a whole number")
    for key in ("options", "setup", "config"):
        if not isinstance(data.get(key, {}) or {}, dict):
            raise doc.error((key,), "expected a mapping")
    steps_raw = data["steps"]
    if not isinstance(steps_raw, list):
        raise doc.error(("steps",), "expected a list of steps")
    steps = []
    for i, raw in enumerate(steps_raw):
        loc: tuple[Any, ...] = ("steps", i)
        if not isinstance(raw, dict):
            raise _step_error(doc, loc, i, "a step is a mapping like {tap: PIECE}")
        actions = [k for k in raw if k in ACTIONS and k != "expect"] or (
            ["expect"] if "expect" in raw else []
        )
        unknown = [k for k in raw if k not in ACTIONS]
        if unknown:
            raise _step_error(doc, loc + (unknown[0],), i,
                              f"unknown step key {unknown[0]!r}; use one of {', '.join(ACTIONS)}")
        if len(actions) != 1:
            raise _step_error(doc, loc, i, "a step does exactly one thing "
                              f"(one of {', '.join(ACTIONS[:-1])}), optionally with expect")
        action = actions[0]
        try:
            value = _check_value(doc, loc + (action,), action, raw[action])
            expect = raw.get("expect") if action != "expect" else None
            if expect is not None:
                expect = _expectation(doc, loc + ("expect",), expect)
        except SourceError as err:  # say "step 3: expect.chest", as people count steps
            inner = (err.key or "").removeprefix(f"steps.{i}").lstrip(".")
            key = f"step {i + 1}: {inner}" if inner else f"step {i + 1}"
            raise SourceError(err.path, err.line, key, err.detail, err.column) from None
        steps.append(Step(i + 1, doc.line_of(loc), action, value, expect))
    return Scenario(doc.path, data["game"], list(players), seed, dict(data.get("options") or {}),
                    dict(data.get("setup") or {}), dict(data.get("config") or {}), steps,
                    str(data.get("description", "")))


def _step_error(doc: YamlDoc, loc: tuple[Any, ...], index: int, message: str) -> SourceError:
    err = doc.error(loc, message)
    return SourceError(err.path, err.line, f"step {index + 1}", message, err.column)


def load(path: str) -> Scenario:
    return parse(load_file(path))
