"""The games shipped with tabletap, one package each (tabletap/games/<game>/), every one
exporting its spec `GAME` and registered under the entry-point group `tabletap.games`
(pyproject.toml). Nothing here lists them: tabletap finds games by entry point only, so a game
from another distribution (examples/memory) is found the same way."""
