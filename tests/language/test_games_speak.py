"""Every scenario of every game plays in every shipped language (issue 20): the scenario's own
expectations hold (a plain `said:` is English and is checked only in English; a mapping names its
languages), no sentence is said in English (Words.missed, checked against the catalogs), and no
sentence spoken holds an id, a coordinate, a bracket, a backtick or a command (heard.FORBIDDEN).

The whole games among them (a winner at the end) are the issue's "a whole game of each of the
four games in each language"; the rejection scenarios cover the refusals' sentences."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.language.heard import ROOT, SHIPPED, leftovers, play_in

SCENARIOS = sorted((ROOT / "scenarios").glob("*/*.yaml")) + sorted(
    (ROOT / "examples" / "memory" / "scenarios").glob("*.yaml"))


def _id(path: Path) -> str:
    game = path.parent.parent.name if path.parent.name == "scenarios" else path.parent.name
    return f"{game.replace('-', '_')}/{path.stem}"


@pytest.mark.parametrize("language", SHIPPED)
@pytest.mark.parametrize("path", SCENARIOS, ids=_id)
def test_the_table_speaks_only_the_familys_language(path: Path, language: str) -> None:
    heard = play_in(path, language)
    assert heard.failure is None, f"{_id(path)} in {language}: {heard.failure}"
    left = leftovers(heard)
    assert not left, f"{_id(path)} in {language}:\n" + "\n".join(left[:40])
    assert heard.said, "the scenario said nothing: there was nothing to check"


def test_english_is_checked_too() -> None:
    """The check can fail: a scenario in English names ids nowhere either, and in a language
    with no translation every sentence is counted as said in English."""
    heard = play_in(ROOT / "scenarios" / "magic-keys" / "demo-three-players.yaml", "en")
    assert heard.failure is None and not heard.missed
