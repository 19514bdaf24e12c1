"""Oversiege: the castle-siege card game (rulebook "Official Rules, last updated 12.16.2020").

Decisions where the rulebook is silent are written in docs/games/oversiege.md.
"""

from __future__ import annotations

from tabletap.controller.rules.oversiege.actions import Action
from tabletap.controller.rules.oversiege.engine import OversiegeEngine
from tabletap.controller.rules.oversiege.state import OversiegeState

ENGINE = OversiegeEngine()

__all__ = ["ENGINE", "Action", "OversiegeEngine", "OversiegeState"]
