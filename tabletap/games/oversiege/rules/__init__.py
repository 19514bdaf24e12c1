"""Oversiege: the castle-siege card game (rulebook "Official Rules, last updated 12.16.2020").

Decisions where the rulebook is silent are written in docs/games/oversiege.md.
"""

from __future__ import annotations

from tabletap.games.oversiege.rules.actions import Action
from tabletap.games.oversiege.rules.engine import OversiegeEngine
from tabletap.games.oversiege.rules.state import OversiegeState

ENGINE = OversiegeEngine()

__all__ = ["ENGINE", "Action", "OversiegeEngine", "OversiegeState"]
