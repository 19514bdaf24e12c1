"""The board data (track.yaml): loaded once, validated, then read by the engine.

The rulebook gives the gem table and the win table but not the board's spaces, so the path lives
in a data file a maker can correct for their copy. A broken file must fail loudly with the reason
at start-up, never half-load: the engine's "moving past the golden key stops there" and "true
keys give gems by colour" both lean on the checks below.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Annotated, Literal

from tabletap.controller.loading.schema import Invalid, Meta, Schema
from tabletap.controller.loading.yamldoc import SourceError, parse_data

COLOURS: tuple[str, ...] = ("purple", "blue", "green", "yellow")
KEYS_PER_COLOUR = 5  # Components: "5 keys for each color"
GOLD = "gold"
START = "start"
RECOVERY = "recovery"

Status = Literal["confirmed", "likely", "guess"]
KEYS: tuple[str, ...] = tuple(f"{c}/{n}" for c in COLOURS for n in range(1, KEYS_PER_COLOUR + 1))


class TrackDataError(ValueError):
    """track.yaml is not usable; the message names the file and what is wrong."""


class _Strict(Schema, frozen=True):
    """A section of the file: unknown keys are errors, and it is read, never changed."""


class _TrackSection(_Strict):
    status: Status
    spaces: Annotated[list[str], Meta(min_length=3)]


class _GemSection(_Strict):
    status: Status
    per_key: dict[str, int]

    def __post_init__(self) -> None:
        wanted = set(COLOURS) | {GOLD}
        if set(self.per_key) != wanted:
            raise Invalid("per_key", f"needs exactly these keys: {', '.join(sorted(wanted))}")
        if any(v < 1 for v in self.per_key.values()):
            raise Invalid("per_key", "every key must be worth at least one gem")


class _WinSection(_Strict):
    status: Status
    gems_required: dict[int, int]

    def __post_init__(self) -> None:
        if set(self.gems_required) != {2, 3, 4}:
            raise Invalid("gems_required", "needs an entry for 2, 3 and 4 players")
        if any(v < 1 for v in self.gems_required.values()):
            raise Invalid("gems_required", "every threshold must be at least one gem")


class _ChestSection(_Strict):
    status: Status
    gems: Annotated[int, Meta(ge=1)]


class _TrackFile(_Strict):
    track: _TrackSection
    gems: _GemSection
    win: _WinSection
    chest: _ChestSection


@dataclass(frozen=True)
class Track:
    """The validated board: positions are indexes into `spaces`, 0 is the start."""

    spaces: tuple[str, ...]
    gems_per_key: dict[str, int]
    gems_required: dict[int, int]
    chest_gems: int
    status: dict[str, str]

    # positions and gems are read on every move: worked out once per board (a frozen
    # dataclass keeps cached_property's value in its __dict__)
    @cached_property
    def gold_position(self) -> int:
        return len(self.spaces) - 1

    @cached_property
    def recovery_position(self) -> int:
        return self.spaces.index(RECOVERY)

    @cached_property
    def key_at(self) -> tuple[str | None, ...]:
        """Per position, the key whose space it is (the golden key's too); None on the start
        and the recovery space."""
        return tuple(None if s in (START, RECOVERY) else s for s in self.spaces)

    @cached_property
    def gems_of(self) -> dict[str, int]:
        """`gems_for` of every key, the golden one included."""
        return {key: self.gems_for(key) for key in (*KEYS, GOLD)}

    @property
    def keys(self) -> tuple[str, ...]:
        """The 20 coloured keys in colour order, then slot order."""
        return KEYS

    def position_of(self, key: str) -> int:
        return self.spaces.index(key)

    def gems_for(self, key: str) -> int:
        return self.gems_per_key[GOLD if key == GOLD else key.split("/", 1)[0]]


def _check_spaces(spaces: list[str]) -> None:
    """The path's shape rules (see the comment at the top of track.yaml)."""
    if spaces[0] != START:
        raise ValueError(f"the first space must be {START!r}, not {spaces[0]!r}")
    if spaces[-1] != GOLD:
        raise ValueError(f"the last space must be {GOLD!r} (the golden key), not {spaces[-1]!r}")
    if spaces.count(START) != 1 or spaces.count(GOLD) != 1:
        raise ValueError("'start' and 'gold' must appear once each")
    if spaces.count(RECOVERY) != 1:
        raise ValueError(f"there must be exactly one {RECOVERY!r} space")
    expected_keys = {f"{c}/{n}" for c in COLOURS for n in range(1, KEYS_PER_COLOUR + 1)}
    key_spaces = [s for s in spaces if s not in (START, GOLD, RECOVERY)]
    unknown = [s for s in key_spaces if s not in expected_keys]
    if unknown:
        raise ValueError(
            f"unknown space {unknown[0]!r}: spaces are start, recovery, gold or <colour>/<n> "
            f"with colour in {', '.join(COLOURS)} and n in 1..{KEYS_PER_COLOUR}"
        )
    for key in sorted(expected_keys):
        if key_spaces.count(key) != 1:
            raise ValueError(f"key space {key} must appear exactly once")
    for colour in COLOURS:
        order = [int(s.split("/")[1]) for s in key_spaces if s.startswith(colour + "/")]
        if order != sorted(order):
            raise ValueError(
                f"the {colour} keys must be numbered 1..{KEYS_PER_COLOUR} in the order the pawn "
                f"meets them (found {order})"
            )


def parse_track(text: str, source: str = "track.yaml") -> Track:
    """Validate the file's text; raises TrackDataError naming `source` and the problem."""
    try:
        data = parse_data(text, source, _TrackFile)
    except SourceError as exc:
        raise TrackDataError(str(exc)) from None
    try:
        _check_spaces(data.track.spaces)
    except ValueError as exc:
        raise TrackDataError(f"{source}: track.spaces: {exc}") from None
    return Track(
        spaces=tuple(data.track.spaces),
        gems_per_key=dict(data.gems.per_key),
        gems_required=dict(data.win.gems_required),
        chest_gems=data.chest.gems,
        status={
            "track": data.track.status,
            "gems": data.gems.status,
            "win": data.win.status,
            "chest": data.chest.status,
        },
    )


@cache
def load_track() -> Track:
    """The packaged track.yaml (read once: the engine is pure after import)."""
    text = resources.files(__package__).joinpath("track.yaml").read_text(encoding="utf-8")
    return parse_track(text, "tabletap/games/magic_keys/rules/track.yaml")
