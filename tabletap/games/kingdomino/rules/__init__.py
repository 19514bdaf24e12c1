"""Kingdomino with The Lost Treasures: the rules engine, the scoring shared with
`tabletap score kingdomino`, and the game's data (dominoes.csv, treasures.yaml)."""

from tabletap.games.kingdomino.rules.engine import ENGINE, KingdominoEngine
from tabletap.games.kingdomino.rules.state import KingdominoState

__all__ = ["ENGINE", "KingdominoEngine", "KingdominoState"]
