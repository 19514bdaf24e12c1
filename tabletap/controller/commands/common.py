"""What several sub-commands share: loading the config with a clear error, logging set-up."""

from __future__ import annotations

import argparse
import logging

from tabletap.controller.config import Config, load_config
from tabletap.controller.service import fatal, log_handler
from tabletap.controller.yamlsource import SourceError


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="the table's YAML config (default: a simulated table, ./state)")


def config_or_exit(args: argparse.Namespace) -> Config:
    """The config, or exit 2 with `file:line: key: message` on stderr."""
    try:
        return load_config(args.config)
    except SourceError as exc:
        fatal(f"tabletap: config error: {exc}")
        raise SystemExit(2) from None


def setup_logging(level: str) -> None:
    logging.basicConfig(level=getattr(logging, level.upper()), handlers=[log_handler()])
