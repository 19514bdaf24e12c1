"""A parsed document that remembers where every key came from, and the located error.

Config, scenario and game-data errors must name the file, line, column and key (a maker should
not have to guess which typo broke the box), so a document keeps a map from key paths to their
line and column beside the plain data. It holds no parser: a document comes from PyYAML
(loading.yamlparse) or, unchanged since it was parsed, from the start's cache
(loading.doccache), and both give the same `YamlDoc`.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct, field

from tabletap.controller.loading.schema import Loc, loc_text


class SourceError(ValueError):
    """A problem in a YAML file, located: `file:line:column: key: message` (the column, like
    the line, left out only when the whole file is at fault)."""

    def __init__(self, path: str, line: int | None, key: str | None, message: str,
                 column: int | None = None) -> None:
        self.path, self.line, self.key, self.detail = path, line, key, message
        self.column = column if line is not None else None
        where = path if line is None else f"{path}:{line}"
        if self.column is not None:
            where += f":{self.column}"
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")


class YamlDoc(Struct):
    path: str
    data: Any
    lines: dict[Loc, int] = field(default_factory=dict)
    columns: dict[Loc, int] = field(default_factory=dict)

    def _deepest(self, loc: Loc) -> Loc | None:
        """The deepest key on `loc` that the file actually has."""
        for cut in range(len(loc), -1, -1):
            if loc[:cut] in self.lines:
                return loc[:cut]
        return None

    def line_of(self, loc: Loc) -> int | None:
        """The line of the deepest key on `loc` that the file actually has."""
        found = self._deepest(loc)
        return None if found is None else self.lines[found]

    def column_of(self, loc: Loc) -> int | None:
        found = self._deepest(loc)
        return None if found is None else self.columns.get(found)

    def error(self, loc: Loc, message: str) -> SourceError:
        key = loc_text(loc) or None
        return SourceError(self.path, self.line_of(loc), key, message, self.column_of(loc))
