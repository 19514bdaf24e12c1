"""Key to the Kingdom (Restoration Games, 2021): heroes, adventures and the Demon King.

The rulebook gives the structure; the content (board, atlas, events, heroes, dice faces, the
Demon King's tokens) is a pack under packs/. Decisions where the rulebook is silent are written
in docs/games/key-to-the-kingdom.md.
"""

from __future__ import annotations

from tabletap.games.key_to_the_kingdom.rules.actions import Action
from tabletap.games.key_to_the_kingdom.rules.engine import KttkEngine
from tabletap.games.key_to_the_kingdom.rules.state import KttkState

ENGINE = KttkEngine()

__all__ = ["ENGINE", "Action", "KttkEngine", "KttkState"]
