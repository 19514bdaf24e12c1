"""Safe YAML parsing that remembers where every key came from.

Config, scenario and game-data errors must name the file, line, column and key (a maker should
not have to guess which typo broke the box), so the YAML is composed once with the safe loader and
a map from key paths to their line and column is kept beside the plain data (loading.located).
A key given twice in one mapping is refused with both lines named (loading.yamlparse).
Pure (text in, data out), so the rules engines use it for their data files too; reading files is
controller.loading.source's job.

A document whose text has not changed since it was last parsed comes from the start's cache
(loading.doccache) where the process has one (the daemon under systemd), without importing
PyYAML at all: PyYAML's import and the parse of the config and the game's data were 18 % of
the daemon's start in instructions (docs/BENCHMARKS.md, "The start without PyYAML").
"""

from __future__ import annotations

from typing import Any, TypeVar

from tabletap.controller.loading import doccache
from tabletap.controller.loading.bounded import MAX_BYTES, LimitError, check_text
from tabletap.controller.loading.located import SourceError, YamlDoc
from tabletap.controller.loading.schema import Loc, SchemaError, check

__all__ = ["Loc", "SourceError", "YamlDoc", "load_text", "load_value", "parse_data", "validate"]

M = TypeVar("M")


def load_text(text: str, path: str = "<string>") -> YamlDoc:
    """Parse YAML within the limits; a located SourceError for anything else. A file's text
    parsed at an earlier start comes back from the start's cache (loading.doccache)."""
    _check(text, path)
    kept = doccache.recall(text, path)
    if kept is not None:
        return kept
    doc = _parse(text, path)
    doccache.keep(text, doc)
    return doc


def _check(text: str, path: str) -> None:
    try:
        if len(text) > MAX_BYTES:
            raise LimitError(f"{len(text)} characters is over the limit of {MAX_BYTES}")
        check_text(text)
    except LimitError as exc:
        raise SourceError(path, exc.line, None, str(exc), exc.column) from None


def _parse(text: str, path: str) -> YamlDoc:
    # Imported here, not above: PyYAML is needed only for a document not parsed before.
    from tabletap.controller.loading.yamlparse import parse

    return parse(text, path)


def load_value(text: str, source: str = "<value>") -> Any:
    """One YAML value from the command line (`KEY=VALUE`), within the same limits; the error
    names `source` without a line (a value has one)."""
    try:
        _check(text, source)
        return _parse(text, source).data  # a value is not a file: nothing is kept
    except SourceError as exc:
        raise SourceError(source, None, None, exc.detail) from None


def validate(doc: YamlDoc, model: type[M]) -> M:
    """Check the document against a Schema (loading.schema); the first problem becomes a
    SourceError located at its key."""
    try:
        return check(doc.data if doc.data is not None else {}, model)
    except SchemaError as exc:
        raise doc.error(exc.loc, exc.message) from None


def parse_data(text: str, source: str, model: type[M]) -> M:
    """Parse and validate a data file's text in one step (SourceError on any problem)."""
    return validate(load_text(text, source), model)
