"""`tabletap score kingdomino FILE [--json]` on the shipped examples and on impossible kingdoms.

Each example file states its hand-computed score in a `# score: N` comment; the command must
agree with it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletap.controller.cli import main
from tabletap.games.kingdomino.rules.kingdom_file import can_tile, parse_kingdom
from tabletap.games.kingdomino.scenarios import EXAMPLES as EXAMPLES_FROM_GAMES
from tabletap.games.kingdomino.scenarios import example_kingdom

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "kingdoms"


def _hand_score(path: Path) -> int:
    line = next(x for x in path.read_text().splitlines() if x.startswith("# score:"))
    return int(line.split(":", 1)[1])


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.txt")), ids=lambda p: p.name)
def test_examples_agree_with_hand_computed_scores(path: Path, capsys) -> None:
    assert main(["score", "kingdomino", str(path)]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[-1].startswith("score ") or "immediate victory" in text
    assert f"score {_hand_score(path)}" in text
    assert main(["score", "kingdomino", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["score"] == _hand_score(path)
    assert data["score"] == sum(t["points"] for t in data["territories"])
    assert isinstance(data["gems"], list)


def test_json_breakdown_of_the_treasure_example(capsys) -> None:
    assert main(["score", "kingdomino", str(EXAMPLES / "treasures.txt"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [g["gem"] for g in data["gems"]] == ["sapphire", "ruby", "topaz"]
    topaz = data["gems"][2]
    skulled = data["territories"][topaz["quarters"]["sw"]["territory"]]
    assert topaz["quarters"]["sw"]["value"] == "skull"
    assert skulled["terrain"] == "swamp" and skulled["crowns"] == 1 and skulled["points"] == 0
    assert data["immediate_victory"] is False


def test_variant_flags(capsys) -> None:
    """The hand-computed totals written in the example files' comments."""
    path = str(EXAMPLES / "complete-5x5.txt")
    assert main(["score", "kingdomino", path, "--json", "--middle-kingdom", "--harmony"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["score"] == 51 and data["bonuses"] == {"middle_kingdom": 10, "harmony": 5}
    path = str(EXAMPLES / "mighty-duel-7x7.txt")
    assert main(["score", "kingdomino", path, "--json", "--middle-kingdom", "--harmony"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["score"] == 73 and data["bonuses"] == {}


def test_five_gems_is_an_immediate_victory(capsys) -> None:
    assert main(["score", "kingdomino", str(EXAMPLES / "five-gems.txt"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["immediate_victory"] is True and len({g["gem"] for g in data["gems"]}) == 5


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.txt")), ids=lambda p: p.name)
def test_every_example_tiles_with_the_real_dominoes(path: Path) -> None:
    """Each example's squares pair into dominoes of the box, each of the 48 at most once."""
    kingdom = parse_kingdom(path.read_text())
    assert can_tile(kingdom.cells)


@pytest.mark.parametrize("name", sorted(EXAMPLES_FROM_GAMES))
def test_every_example_is_a_kingdom_the_engine_built(name: str) -> None:
    """The examples are taken from real games (tabletap/games/kingdomino/scenarios.py EXAMPLES): the
    file's grid and gem lines are the engine's own kingdom file for that game."""
    text = (EXAMPLES / f"{name}.txt").read_text()
    body = [x for x in text.splitlines() if x and not x.startswith("#")]
    assert body == example_kingdom(name).splitlines()


@pytest.mark.parametrize(
    ("text", "where", "needle"),
    [
        ("W W C\nW W W\n", ":2:", "2 rows"),
        ("W W . . .\n. . . . .\n. . C . .\n. . . . .\n. . . . Q\n", ":5:", "unknown letter"),
        ("C . . . .\n. . . . .\n. . C . .\n. . . . .\n. . . . .\n", ":3:", "second castle"),
        ("W . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n", ": ", "no castle"),
        ("W F . . .\nL G C . .\n. . . . .\n. . . . .\n. . . . .\ngem ruby 0 1 2 0 skull 0\n",
         ":6:", "four different landscapes"),
        # gem tokens that cannot exist (the Joker has one crown; no ruby shows 99)
        ("S1 W L F1 .\nS S M2 C G\nW1 W F1 S G\nW F F S .\nM3 G F1 F1 W\n"
         "gem joker 1 1 3 3 3 3\n", ":6:", "no joker token reads 3 3 3 3"),
        ("S1 W L F1 .\nS S M2 C G\nW1 W F1 S G\nW F F S .\nM3 G F1 F1 W\n"
         "gem ruby 1 1 99 99 99 99\n", ":6:", "no ruby token reads"),
        ("S1 W L F1 .\nS S M2 C G\nW1 W F1 S G\nW F F S .\nM3 G F1 F1 W\n"
         "gem ruby 1 1 2 0 skull ²\n", ":6:", "crown count or 'skull'"),
        # 45 squares besides the castle (the old mighty-duel example): odd, so no tiling
        ("W W W1 W F F F1\nW W W W F F F\nL L L1 W1 F F1 F\nL L L C G G G1\n"
         "S S S1 M1 G G G\nS S2 M2 M2 G2 G G\n. . M3 M2 G G .\n", ": ", "an odd number"),
        # the old five-gems example: no two neighbouring squares share a landscape
        ("W F L G S\nG1 L F1 W M2\nW S C F L\nL1 G W M S1\nF M1 S L G\n", ": ",
         "cannot be laid as dominoes"),
    ],
)
def test_impossible_kingdoms_exit_2_naming_file_and_line(tmp_path: Path, capsys, text: str,
                                                         where: str, needle: str) -> None:
    path = tmp_path / "k.txt"
    path.write_text(text)
    assert main(["score", "kingdomino", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}{where}" in err and needle in err


def test_missing_file(tmp_path: Path, capsys) -> None:
    assert main(["score", "kingdomino", str(tmp_path / "nope.txt")]) == 2
    assert "nope.txt: cannot read it" in capsys.readouterr().err


def test_only_kingdomino_has_kingdom_files(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["score", "magic-keys", "x.txt"])
    assert exit_.value.code == 2
