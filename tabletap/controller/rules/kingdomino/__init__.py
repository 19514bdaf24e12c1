"""Kingdomino with The Lost Treasures: the rules engine, the scoring shared with
`tabletap score kingdomino`, and the game's data (dominoes.csv, treasures.yaml)."""

from tabletap.controller.rules.kingdomino.engine import ENGINE, KingdominoEngine
from tabletap.controller.rules.kingdomino.state import KingdominoState

__all__ = ["ENGINE", "KingdominoEngine", "KingdominoState"]
