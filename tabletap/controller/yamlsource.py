"""Reading YAML files with located errors (the parsing itself is controller.rules.yamldoc)."""

from __future__ import annotations

from pathlib import Path

from tabletap.controller.rules.yamldoc import Loc, SourceError, YamlDoc, load_text, validate

__all__ = ["Loc", "SourceError", "YamlDoc", "load_file", "load_text", "validate"]


def load_file(path: str | Path) -> YamlDoc:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise SourceError(str(p), None, None, f"cannot read: {exc.strerror or exc}") from None
    return load_text(text, str(p))
