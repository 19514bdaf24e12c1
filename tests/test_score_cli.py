"""`tabletap score kingdomino FILE [--json]` on the shipped examples and on impossible kingdoms.

Each example file states its hand-computed score in a `# score: N` comment; the command must
agree with it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main

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
    assert [g["gem"] for g in data["gems"]] == ["ruby", "topaz", "emerald", "joker"]
    topaz = data["gems"][1]
    skulled = data["territories"][topaz["quarters"]["sw"]["territory"]]
    assert topaz["quarters"]["sw"]["value"] == "skull"
    assert skulled["terrain"] == "forest" and skulled["crowns"] == 1 and skulled["points"] == 0
    assert data["immediate_victory"] is False


def test_variant_flags(capsys) -> None:
    """The hand-computed totals written in the example files' comments."""
    path = str(EXAMPLES / "complete-5x5.txt")
    assert main(["score", "kingdomino", path, "--json", "--middle-kingdom", "--harmony"]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == 39
    path = str(EXAMPLES / "mighty-duel-7x7.txt")
    assert main(["score", "kingdomino", path, "--json", "--middle-kingdom", "--harmony"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["score"] == 150 and data["bonuses"] == {"middle_kingdom": 10}


@pytest.mark.parametrize(
    ("text", "where", "needle"),
    [
        ("W W C\nW W W\n", ":2:", "2 rows"),
        ("W W . . .\n. . . . .\n. . C . .\n. . . . .\n. . . . Q\n", ":5:", "unknown letter"),
        ("C . . . .\n. . . . .\n. . C . .\n. . . . .\n. . . . .\n", ":3:", "second castle"),
        ("W . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n", ": ", "no castle"),
        ("W F . . .\nL G C . .\n. . . . .\n. . . . .\n. . . . .\ngem ruby 0 1 1 0 0 0\n",
         ":6:", "four different landscapes"),
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
