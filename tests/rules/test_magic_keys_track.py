"""Magic Keys board data (games/magic_keys/rules/track.yaml): contents, marks, validation."""

from __future__ import annotations

import re
from importlib import resources

import pytest
import yaml

from tabletap.games.magic_keys.rules import (
    MagicKeysEngine,
    Move,
    Roll,
    TrackDataError,
    load_track,
    parse_track,
)

TEXT = resources.files("tabletap.games.magic_keys.rules").joinpath("track.yaml").read_text()


def edited(**changes: object) -> str:
    """track.yaml with some top-level sections replaced."""
    data = yaml.safe_load(TEXT)
    for path, value in changes.items():
        section, _, field = path.partition("__")
        data[section][field] = value
    return yaml.safe_dump(data)


def test_the_packaged_track():
    """docs/games/magic-keys.md: start + 10 key spaces + recovery + 10 key spaces + golden key
    = 23 positions, purple nearest the start, the golden key last."""
    track = load_track()
    assert len(track.spaces) == 23
    assert track.spaces[0] == "start" and track.spaces[1] == "purple/1"
    assert track.spaces[-1] == "gold" and track.gold_position == 22
    assert track.recovery_position == 11
    assert [s.split("/")[0] for s in track.spaces[1:11]] == ["purple"] * 5 + ["blue"] * 5


def test_the_rulebook_tables():
    """Number of gems by key color (purple 2, blue 2, green 3, yellow 4, gold 5); Gems required
    (2 players 15, 3 players 13, 4 players 11); Components: 42 gems of memory."""
    track = load_track()
    assert track.gems_per_key == {"purple": 2, "blue": 2, "green": 3, "yellow": 4, "gold": 5}
    assert track.gems_required == {2: 15, 3: 13, 4: 11}
    assert track.chest_gems == 42


def test_what_is_a_guess_says_so():
    """The layout is not published: it must be marked as a guess; the tables are confirmed."""
    assert load_track().status == {
        "track": "guess", "gems": "confirmed", "win": "confirmed", "chest": "confirmed"
    }


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("track: [", "not valid YAML"),
        ("{}", "track: required key is missing"),
        (edited(track__colour="red"), "track.colour: unknown key"),
        (edited(track__status="maybe"), "track.status"),
        (edited(gems__per_key={"purple": 2}), "gems.per_key"),
        (edited(win__gems_required={2: 15}), "2, 3 and 4 players"),
        (edited(chest__gems=0), "chest.gems"),
    ],
)
def test_a_broken_file_is_named(text, says):
    with pytest.raises(TrackDataError) as info:
        parse_track(text, "my-track.yaml")
    assert re.match(r"my-track\.yaml:\d+:\d+: ", str(info.value))  # file, line, column
    assert says in str(info.value)


SPACES = yaml.safe_load(TEXT)["track"]["spaces"]


@pytest.mark.parametrize(
    ("spaces", "says"),
    [
        (SPACES[1:], "first space must be 'start'"),
        (SPACES[:-1], "last space must be 'gold'"),
        ([s for s in SPACES if s != "recovery"], "exactly one 'recovery'"),
        (SPACES[:-1] + ["recovery", "gold"], "exactly one 'recovery'"),
        ([s for s in SPACES if s != "blue/3"], "blue/3 must appear exactly once"),
        (SPACES[:3] + ["purple/2"] + SPACES[3:], "purple/2 must appear exactly once"),
        (SPACES[:1] + ["purple/2", "purple/1"] + SPACES[3:], "in the order the pawn meets"),
        (SPACES[:-1] + ["red/1", "gold"], "unknown space 'red/1'"),
        (["start"] + SPACES, "'start' and 'gold' must appear once"),
    ],
)
def test_a_broken_path_is_named(spaces, says):
    with pytest.raises(TrackDataError) as info:
        parse_track(edited(track__spaces=spaces))
    assert "track.spaces" in str(info.value) and says in str(info.value)


def test_the_engine_reads_positions_from_the_data():
    """Recovery: the engine finds the red box where the data puts it, so a maker's corrected
    board plays right. Here recovery moves to just after purple/2."""
    moved = [s for s in SPACES if s != "recovery"]
    moved.insert(3, "recovery")
    engine = MagicKeysEngine(parse_track(edited(track__spaces=moved)))
    state = engine.new_game(["ana", "ben"], 1, {"dice": "digital"}, {})
    state = engine.apply(state, Roll((3, "moon", "moon"))).state
    result = engine.apply(state, Move(3))
    assert [e.kind for e in result.events] == ["move", "recovery"]
    assert result.state.dice == 3
