"""`tabletap content check` on the stand-in pack and on broken copies of it, with messages."""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from tabletap.controller.rules.base import Rejection
from tabletap.games.key_to_the_kingdom.rules.check import check_pack
from tabletap.games.key_to_the_kingdom.rules.pack import PackError, load_pack

DEFAULT = Path(str(resources.files("tabletap.games.key_to_the_kingdom.rules")
                   .joinpath("packs", "default")))


def copy(tmp_path: Path) -> Path:
    folder = tmp_path / "mypack"
    shutil.copytree(DEFAULT, folder, ignore=shutil.ignore_patterns("__*"))
    return folder


def edit(folder: Path, name: str, old: str, new: str) -> None:
    path = folder / name
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def drop_entry(folder: Path, name: str, start: str, lines: int) -> None:
    """Remove the entry whose first line starts with `start` (it spans `lines` lines)."""
    path = folder / name
    text = path.read_text().split("\n")
    at = [i for i, line in enumerate(text) if line.startswith(start)]
    assert len(at) == 1, start
    del text[at[0]:at[0] + lines]
    path.write_text("\n".join(text))


def test_a_name_without_english_is_refused_with_file_line_and_key(tmp_path):
    """Names per language (issue 20): English is the fallback, so a spelling per language
    without it stops the pack with the file, line and key; a plain name is English only."""
    folder = copy(tmp_path)
    edit(folder, "pack.yaml", 'names: {en: "sword", ', "names: {")
    with pytest.raises(PackError, match=r"pack.yaml:\d+:\d+: items.sword.names: a name per "
                                        r"language needs its English spelling"):
        load_pack(str(folder))
    folder2 = copy(tmp_path / "b")
    edit(folder2, "atlas.yaml", '{en: "the gate", de: "Das Tor"', '{de: "Das Tor"')
    with pytest.raises(PackError, match=r"atlas.yaml:\d+:\d+: castle.sections.0.name"):
        load_pack(str(folder2))
    folder3 = copy(tmp_path / "c")
    edit(folder3, "board.yaml", 'names: {en: "village", ', 'names: {en: "the village", ')
    from tabletap.controller.language.words import Words

    pack = load_pack(str(folder3))
    assert Words("en").name(pack.named("lands.village")) == "the village"
    assert Words("de").name(pack.named("lands.village")) == "Dorf"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tabletap.controller.cli", *args],
                          capture_output=True, text=True, timeout=60)


def test_default_pack_is_whole():
    assert check_pack(load_pack("default")) == []
    done = cli("content", "check", "default")
    assert done.returncode == 0 and "playable and whole" in done.stdout


def test_unknown_space_in_a_path_is_located(tmp_path):
    folder = copy(tmp_path)
    edit(folder, "board.yaml", "[v3, m1, m2", "[v3, m1, mx")
    with pytest.raises(PackError, match=r"board.yaml:\d+:\d+: paths.2.chain.2: no kingdom space "
                                        r"called 'mx'"):
        load_pack(str(folder))
    done = cli("content", "check", str(folder))
    assert done.returncode == 2 and "board.yaml:" in done.stderr and "'mx'" in done.stderr


def test_typo_in_a_key_and_unknown_effect(tmp_path):
    folder = copy(tmp_path)
    edit(folder, "atlas.yaml", "    target: 4\n    success: [{flip: west}]",
         "    target: 4\n    success: [{teleport: west}]")
    with pytest.raises(PackError, match=r"atlas.yaml:\d+:\d+: adventures.old-well.success.0."
                                        r"teleport: unknown effect"):
        load_pack(str(folder))
    folder2 = copy(tmp_path / "b")
    edit(folder2, "pack.yaml", "  sword: {status: confirmed, value: 4,",
         "  sword: {status: confirmed, valeu: 4,")
    # the misspelt key itself is named, at its own line and column (msgspec meets it before it
    # finds `value` missing; pydantic named the missing key instead)
    with pytest.raises(PackError, match=r"pack.yaml:\d+:\d+: items.sword.valeu: unknown key "
                                        r"\(a typo\?\)"):
        load_pack(str(folder2))


def test_path_that_leads_nowhere(tmp_path):
    folder = copy(tmp_path)
    edit(folder, "board.yaml", "[v3, m1, m2, m3, m4, m5, m6, m7, v9]",
         "[v3, m1, m2, m3, m4, m5, m6, m7]")
    found = [str(f) for f in check_pack(load_pack(str(folder)))]
    assert any("the path at m7 leads nowhere" in f and "board.yaml:" in f for f in found)
    done = cli("content", "check", str(folder))
    assert done.returncode == 1 and "leads nowhere" in done.stdout


def test_adventure_without_an_end(tmp_path):
    folder = copy(tmp_path)
    text = (folder / "atlas.yaml").read_text()
    start = text.index("    steps:", text.index("ice-caves:"))
    end = text.index("    fail: c2")
    (folder / "atlas.yaml").write_text(text[:start] + "    steps: []\n" + text[end:])
    found = [str(f) for f in check_pack(load_pack(str(folder)))]
    assert any("adventure ice-caves has no end" in f for f in found)


def test_whirlpool_without_an_atlas_entry(tmp_path):
    folder = copy(tmp_path)
    edit(folder, "board.yaml", "      f7: boring", "      f7: whirlpool")
    found = [str(f) for f in check_pack(load_pack(str(folder)))]
    assert any("whirlpool f7 has no atlas entry" in f for f in found), found


def test_land_that_cannot_flip_back(tmp_path):
    folder = copy(tmp_path)
    edit(folder, "atlas.yaml", "whirl-marsh: {status: guess, space: s5, flip: west, to: m5}",
         "whirl-marsh: {status: guess, space: s5, flip: east}")
    edit(folder, "atlas.yaml", "success: [{flip: west}]", "success: []")
    edit(folder, "events.yaml", "effects: [{flip: west}]", "effects: []")
    found = [str(f) for f in check_pack(load_pack(str(folder)))]
    assert any("land marsh cannot flip back" in f for f in found), found


def test_not_utf8_and_missing_file(tmp_path):
    folder = copy(tmp_path)
    (folder / "events.yaml").write_bytes(b"cards: \xff\xfe")
    with pytest.raises(PackError, match="events.yaml:1:8: not UTF-8"):
        load_pack(str(folder))
    (folder / "events.yaml").unlink()
    with pytest.raises(PackError, match="events.yaml: cannot read"):
        load_pack(str(folder))
    with pytest.raises(PackError, match="no such pack"):
        load_pack(str(tmp_path / "nothing"))


def test_a_makers_own_pack_plays_without_code(tmp_path):
    """Done means: 'a maker can swap in a pack of their own copy's content without touching
    code'. A copy with another hero, another sword value and other Demon die faces plays a
    complete game."""
    import random

    from tabletap.games.key_to_the_kingdom.rules import ENGINE as E
    from tabletap.games.key_to_the_kingdom.rules.actions import Roll, Use
    from tabletap.games.key_to_the_kingdom.rules.selfplay import purposeful_action

    folder = copy(tmp_path)
    edit(folder, "pack.yaml", "name: default", "name: my-copy")
    edit(folder, "pack.yaml", "stand_in: true", "stand_in: false")
    edit(folder, "pack.yaml", "  knight: {status: guess,", "  elf: {status: confirmed,")
    edit(folder, "pack.yaml", 'names: {en: "knight", de: "Ritter",',
         'names: {en: "elf", de: "Elfe",')
    edit(folder, "pack.yaml", "bow: {status: guess, value: 3,",
         "bow: {status: confirmed, value: 4,")
    edit(folder, "pack.yaml", "faces: [0, 0, 1, 2, 8, 9, 10, 12]",
         "faces: [0, 1, 2, 9, 10, 11]")
    assert check_pack(load_pack(str(folder))) == []
    options = {"pack": str(folder)}
    state = E.new_game(["elf", "wizard"], 4, options, {"first": "elf"})
    assert E.public_view(state)["pack"] == "my-copy"
    assert E.apply(E.apply(state, Roll(2)).state, Use("elf/bow")).state.roll.result == 6
    rng = random.Random(4)
    for _ in range(5000):
        if E.is_over(state):
            break
        state = E.apply(state, purposeful_action(state, rng)).state
    assert E.winners(state) and state.pack.name == "my-copy"
    with pytest.raises(Rejection) as info:
        E.new_game(["knight", "wizard"], 4, options, {})
    assert info.value.code == "bad-setup" and "elf" in info.value.message


def test_whirlpool_or_adventure_leading_to_a_folded_land(tmp_path):
    """'Whenever you enter a whirlpool, immediately stop moving and turn to the whirlpool entry
    in the Adventure Atlas.' 'The adventure description will tell you where to move.' Where it
    sends a hero must be on the table then: a whirlpool of the east board coming out in the
    meadow (folded away while the west board is open), an adventure that unfolds the west board
    and leaves to the meadow it has just hidden."""
    folder = copy(tmp_path)
    edit(folder, "atlas.yaml", "space: f5, flip: east, to: c5", "space: f5, flip: east, to: m4")
    edit(folder, "atlas.yaml", "    success: [{flip: west}]\n    fail: []\n    leave: v8",
         "    success: [{flip: west}]\n    fail: []\n    leave: m4")
    found = [str(f) for f in check_pack(load_pack(str(folder)))]
    assert any("atlas.yaml:" in f and "whirlpool whirl-forest leads to m4, but meadow is "
               "folded away" in f for f in found), found
    assert any("adventure old-well leaves to m4 after a success, but meadow may be folded "
               "away" in f for f in found), found
    # failing, it flips nothing, but the meadow is away whenever the west board is open
    assert any("adventure old-well leaves to m4 after a failure" in f for f in found), found
    done = cli("content", "check", str(folder))
    assert done.returncode == 1 and "whirl-forest leads to m4" in done.stdout
    # the engine keeps the hero on the table all the same: out into the voids, not onto m4
    from tabletap.games.key_to_the_kingdom.rules import ENGINE as E
    from tabletap.games.key_to_the_kingdom.rules.actions import Move, Roll
    state = E.new_game(["knight", "wizard"], 1, {"pack": str(folder)},
                       {"first": "knight", "positions": {"knight": "f4"},
                        "flaps": {"west": "open"}})
    state = E.apply(E.apply(state, Roll(1)).state, Move("f5")).state
    assert state.positions["knight"] in ("c4", "c7") and state.flaps["east"] == "open"


def test_start_on_a_folding_land_is_refused(tmp_path):
    """'Place the two game boards on the table ... so the dotted paths connect and the starting
    space is visible.' A start on a land that folds away would not stay visible."""
    folder = copy(tmp_path)
    edit(folder, "board.yaml", "start: v1", "start: m9")
    edit(folder, "board.yaml", "      m7: {refresh: 2}", "      m7: {refresh: 2}\n      m9: start")
    with pytest.raises(PackError, match=r"board.yaml:\d+:\d+: start: the start must lie on a land "
                                        "that always shows"):
        load_pack(str(folder))


def test_values_the_rulebook_confirms_are_checked(tmp_path):
    """'40 Item Tokens (5 each of 8 different types)', '36 Event Cards', '9 Demon King Board
    Tokens', 'Bee Cannon (+/-5)', 'The sword adds +4': a pack typed in from a real copy has
    them; a difference is reported (most likely a typo), and the pack still plays."""
    folder = copy(tmp_path)
    edit(folder, "pack.yaml", "sword: {status: confirmed, value: 4,",
         "sword: {status: confirmed, value: 3,")
    drop_entry(folder, "pack.yaml", "  shield: {status: guess, value: 1,", lines=2)
    edit(folder, "atlas.yaml", "target: 5, item: shield}", "target: 5}")
    edit(folder, "pack.yaml", "bee-cannon: {status: confirmed, values: [5],",
         "bee-cannon: {status: confirmed, values: [6],")
    edit(folder, "pack.yaml", "  bow: {status: guess, value: 3,",
         "  bow: {status: guess, value: 7,")
    drop_entry(folder, "events.yaml", "  - {status: guess, name: quiet-meadow,", lines=1)
    found = [str(f) for f in check_pack(load_pack(str(folder)))]
    for message in ("7 item types; the game has 8", "the sword is +/-3; in the game it is "
                    "+/-4", "the bow is +/-7; the game's items are +/-1 to +/-4",
                    "the bee cannon is +/-5 in the rulebook", "35 event cards; the game has 36"):
        assert any(message in f and "yaml:" in f for f in found), (message, found)
    assert not any("Demon King board tokens" in f for f in found)
    done = cli("content", "check", str(folder))
    assert done.returncode == 1 and "the sword is +/-3" in done.stdout


def test_key_adventure_with_other_than_one_item_and_two_companions(tmp_path):
    """'Each key adventure has one corresponding item that can help you.' 'There are also two
    spaces on each key adventure where a companion can help you.'"""
    folder = copy(tmp_path)
    edit(folder, "atlas.yaml", "      - {target: 5, companion: mercenary}",
         "      - {target: 5}")
    found = [str(f) for f in check_pack(load_pack(str(folder)))]
    assert any("atlas.yaml:" in f and "key adventure fire-mountain shows 1 item and 1 "
               "companion spaces" in f for f in found), found
