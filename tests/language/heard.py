"""A scenario played in one language, and what was heard or shown that a child should not hear.

`play_in(path, language)` runs a scenario through the real runner with `config.language` set,
keeping every sentence the table said and every line it printed, and the messages its `Words`
had to say in English (`missed`). `leftovers` lists what breaks "words a child understands"
(issue 20, docs/LANGUAGES.md): a message left in English, a piece id, a coordinate, a bracket,
a backtick or a command.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path

from tabletap.sim.scenario.model import load
from tabletap.sim.scenario.runner import Failure, ScenarioRun

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ("de", "fr", "es", "ko")
# what no sentence for a child holds, in any language
FORBIDDEN = {
    "a piece id": re.compile(r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*/[a-z0-9-]+\b"),
    "a coordinate or bracket": re.compile(r"[\[\]{}]|\(\s*-?\d+\s*,\s*-?\d+\s*\)"),
    "a backtick": re.compile(r"`"),
    "a command": re.compile(r"\btabletap\s+[a-z-]+\b|--[a-z]"),
    "a row or column": re.compile(r"\b(?:column|row)\s+-?\d", re.IGNORECASE),
}


@dataclass
class Heard:
    failure: Failure | None
    said: list[str] = field(default_factory=list)  # what the voice was given
    lines: list[str] = field(default_factory=list)  # the printed play-by-play
    missed: list[str] = field(default_factory=list)  # messages said in English instead


def play_in(path: str | Path, language: str) -> Heard:
    scenario = load(str(path))
    scenario = dataclasses.replace(scenario, config={**scenario.config, "language": language})
    lines: list[str] = []
    run = ScenarioRun(scenario, lines.append)
    session = run.session
    failure = run.run()
    heard = Heard(failure, list(run.daemon.session.speaker.said), lines,
                  list(run.daemon.session.words.missed))
    if run.daemon.session is not session:  # a restart step: the first session spoke too
        heard.missed += session.words.missed
    return heard


def leftovers(heard: Heard) -> list[str]:
    """Every sentence said that a child should not hear, with why."""
    out = [f"said in English: {m!r}" for m in dict.fromkeys(heard.missed)]
    for sentence in dict.fromkeys(heard.said):
        for what, pattern in FORBIDDEN.items():
            if pattern.search(sentence):
                out.append(f"{what} in {sentence!r}")
    return out
