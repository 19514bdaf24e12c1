"""What the page and the table say of a game from its spec (its title, each option's sentence and
choice labels, how players sit) is in the game's own catalog (issue 20), so it is said in the
family's language: the controller and the page say them as `Said(<game>, <english>)`, which finds
a translation only if the game marked the same English with its `msg`."""

from __future__ import annotations

import pytest

from tabletap.controller.games import registry
from tabletap.controller.games.spec import GameSpec
from tabletap.controller.language.extract import template


def spec_sentences(spec: GameSpec) -> list[str]:
    out = [spec.title, spec.seating.how] if spec.seating is not None else [spec.title]
    for option in spec.options:
        out.append(option.help)
        out += [label for label in option.labels if label]
    return [text for text in out if text]


@pytest.mark.parametrize("spec", registry.games(), ids=lambda s: s.name)
def test_the_specs_words_are_in_the_games_catalog(spec: GameSpec) -> None:
    ids = {m.id for m in template(spec.name) if m.id and m.context is None}
    ids |= {m.id[0] for m in template(spec.name) if isinstance(m.id, tuple)}
    missing = [text for text in spec_sentences(spec) if text not in ids]
    assert not missing, (f"{spec.name}: mark these with the game's msg(...) so they are "
                         f"translated: {missing}")
