"""Memory played by the engine alone: a player who turns cards over at random, and one with a
perfect memory (controller.selfplay.play runs them; the same rng gives the same game).

Neither peeks. The engine's legal actions name each card's picture (the table knows a card
only by its tag), so a policy must not choose by the picture of a card nobody has seen: the
greedy player reads only the cards seen this game (the state's `seen`, what everyone at the
table watched being turned over) and chooses among unseen cards at random, as a child does.
"""

from __future__ import annotations

import random
from typing import Any


def uniform(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
    """Any card still face down, each as likely."""
    return rng.choice(legal)


def _partner(card: str) -> str:
    picture, _, side = card.rpartition("/")
    return f"{picture}/{'b' if side == 'a' else 'a'}"


def greedy(engine: Any, state: Any, legal: list[Any], rng: random.Random) -> Any:
    """A perfect memory of the cards seen this game:
    - first card of a turn: one card of a pair already seen both ways, if one is known;
      otherwise a card nobody has seen (a seen card would only show what everyone knows);
    - second card: the partner of the card face up, if it was seen; otherwise an unseen card
      (it may be the partner); with nothing unseen left the partner is one of the seen.
    Ties are broken by `rng`, over the legal actions in the engine's order, so a seed gives
    one game."""
    seen = state.seen
    unseen = [a for a in legal if a.card not in seen]
    if state.turned is None:
        known = {a.card for a in legal if a.card in seen}
        pairs = [a for a in legal if a.card in known and _partner(a.card) in known]
        if pairs:
            return rng.choice(pairs)
        return rng.choice(unseen or legal)
    partner = _partner(state.turned)
    if partner in seen:
        for action in legal:
            if action.card == partner:
                return action
    return rng.choice(unseen or legal)

