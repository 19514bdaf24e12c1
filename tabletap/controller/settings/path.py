"""Which config file a command reads: `--config FILE`, else `$TABLETAP_CONFIG`, else
/etc/tabletap/table.yaml (where the Pi image puts it); None means the built-in simulated table.

Kept apart from the config schema so that a command's parser can offer `--config` without
loading the schema: `tabletap --help` registers the entry-point commands (the page's too).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

DEFAULT_CONFIG = "/etc/tabletap/table.yaml"
CONFIG_ENV = "TABLETAP_CONFIG"


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help=f"the table's YAML config (default: ${CONFIG_ENV}, else "
                        f"{DEFAULT_CONFIG}; only --sim may go on without one)")


def config_source(args: argparse.Namespace) -> str | None:
    """The config file this command reads, or None for the built-in simulated table."""
    chosen = getattr(args, "config", None) or os.environ.get(CONFIG_ENV)
    if chosen:
        return chosen
    return DEFAULT_CONFIG if Path(DEFAULT_CONFIG).exists() else None
