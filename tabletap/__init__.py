"""tabletap: a companion controller for augmented physical board games.

The one import package the distribution installs. Its sub-packages are the architecture, ground
first: `controller` (the brain: rules engines, the table session, the journal, the CLI), `hw`
(adapters to real hardware), `sim` (simulated chips under those adapters) and `firmware`
(MicroPython for the Pico, importing none of the others).
"""

__version__ = "0.1.0"  # kept equal to pyproject.toml's version (a test checks)
