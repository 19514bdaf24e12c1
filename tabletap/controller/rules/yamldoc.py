"""Safe YAML parsing that remembers where every key came from.

Config, scenario and game-data errors must name the file, line and key (a maker should not have
to guess which typo broke the box), so the YAML is composed once with the safe loader and a map
from key paths to line numbers is kept beside the plain data. Pure (text in, data out), so the
rules engines use it for their data files too; reading files is controller.yamlsource's job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

import yaml

Loc = tuple[str | int, ...]
M = TypeVar("M")


class SourceError(ValueError):
    """A problem in a YAML file, located: `file:line: key: message`."""

    def __init__(self, path: str, line: int | None, key: str | None, message: str) -> None:
        self.path, self.line, self.key, self.detail = path, line, key, message
        where = path if line is None else f"{path}:{line}"
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")


@dataclass
class YamlDoc:
    path: str
    data: Any
    lines: dict[Loc, int] = field(default_factory=dict)

    def line_of(self, loc: Loc) -> int | None:
        """The line of the deepest key on `loc` that the file actually has."""
        for cut in range(len(loc), -1, -1):
            if loc[:cut] in self.lines:
                return self.lines[loc[:cut]]
        return None

    def error(self, loc: Loc, message: str) -> SourceError:
        key = ".".join(str(p) for p in loc) or None
        return SourceError(self.path, self.line_of(loc), key, message)


def _walk(node: yaml.Node, loc: Loc, lines: dict[Loc, int]) -> None:
    lines.setdefault(loc, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node)
            lines[loc + (key,)] = key_node.start_mark.line + 1
            _walk(value_node, loc + (key,), lines)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            lines[loc + (i,)] = item.start_mark.line + 1
            _walk(item, loc + (i,), lines)


def load_text(text: str, path: str = "<string>") -> YamlDoc:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.load(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise SourceError(
            path, mark.line + 1 if mark else None, None, f"not valid YAML: {exc.problem}"
        ) from None
    except yaml.YAMLError as exc:
        raise SourceError(path, None, None, f"not valid YAML: {exc}") from None
    lines: dict[Loc, int] = {}
    if node is not None:
        _walk(node, (), lines)
    return YamlDoc(path, data, lines)


def validate(doc: YamlDoc, model: type[M]) -> M:
    """Validate with a pydantic model; the first error becomes a located SourceError."""
    from pydantic import ValidationError

    try:
        return model.model_validate(doc.data if doc.data is not None else {})  # type: ignore[attr-defined,no-any-return]
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(first["loc"])
        msg = first["msg"]
        if first["type"] == "extra_forbidden":
            msg = "unknown key (a typo?)"
        elif first["type"] == "missing":
            msg = "required key is missing"
        elif first["type"] == "value_error":  # our own validators: drop pydantic's prefix
            msg = str(first.get("ctx", {}).get("error", msg))
        raise doc.error(loc, msg) from None


def parse_data(text: str, source: str, model: type[M]) -> M:
    """Parse and validate a data file's text in one step (SourceError on any problem)."""
    return validate(load_text(text, source), model)
