"""Safe YAML parsing that remembers where every key came from.

Config, scenario and game-data errors must name the file, line and key (a maker should not have
to guess which typo broke the box), so the YAML is composed once with the safe loader and a map
from key paths to line numbers is kept beside the plain data. Pure (text in, data out), so the
rules engines use it for their data files too; reading files is controller.loading.source's job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

import yaml

from tabletap.controller.loading.bounded import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_NODES,
    LimitError,
    check_int_text,
    check_text,
    check_tree,
)

MAX_ALIASES = 100

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


class _BoundedLoader(yaml.SafeLoader):
    """The safe loader with limits on nesting, aliases and tags (see the module docstring)."""

    yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._aliases = 0

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise _Limit(event, f"more than {MAX_ALIASES} aliases (*name)")
            return super().compose_node(parent, index)  # type: ignore[no-any-return]
        tag = getattr(event, "tag", None)
        implicit = getattr(event, "implicit", True)
        if tag is not None and not (implicit is True or (isinstance(implicit, tuple)
                                                         and any(implicit))):
            raise _Limit(event, f"explicit YAML tags like {tag.replace('tag:yaml.org,2002:', '!!')}"
                         " are not accepted; write the plain value")
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise _Limit(event, f"nested more than {MAX_DEPTH} levels deep")
        try:
            return super().compose_node(parent, index)  # type: ignore[no-any-return]
        finally:
            self._depth -= 1

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        try:
            check_int_text(str(node.value))
        except LimitError as exc:
            raise _Limit(node, str(exc)) from None
        return super().construct_yaml_int(node)  # type: ignore[no-any-return]


_BoundedLoader.add_constructor("tag:yaml.org,2002:int", _BoundedLoader.construct_yaml_int)


class _Limit(yaml.MarkedYAMLError):
    def __init__(self, at: yaml.Event | yaml.Node, problem: str) -> None:
        super().__init__(problem=problem, problem_mark=at.start_mark)


def _expanded_size(node: yaml.Node) -> int:
    """How many values the document holds with every alias expanded (what any walk over the
    data will visit), without expanding them; a recursive alias is refused."""
    sizes: dict[int, int] = {}
    open_: set[int] = set()

    def size(n: yaml.Node) -> int:
        key = id(n)
        if key in sizes:
            return sizes[key]
        if key in open_:
            raise _Limit(n, "an alias refers to the value that contains it")
        open_.add(key)
        total = 1
        if isinstance(n, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in n.value)
        elif isinstance(n, yaml.SequenceNode):
            total += sum(size(item) for item in n.value)
        open_.discard(key)
        sizes[key] = min(total, MAX_NODES + 1)
        return sizes[key]

    return size(node)


def load_text(text: str, path: str = "<string>") -> YamlDoc:
    """Parse YAML within the limits; a located SourceError for anything else."""
    try:
        if len(text) > MAX_BYTES:
            raise LimitError(f"{len(text)} characters is over the limit of {MAX_BYTES}")
        check_text(text)
    except LimitError as exc:
        raise SourceError(path, None, None, str(exc)) from None
    loader: _BoundedLoader | None = None
    try:
        loader = _BoundedLoader(text)  # checks the characters: ReaderError for a control one
        node = loader.get_single_node()
        if node is not None and _expanded_size(node) > MAX_NODES:
            raise _Limit(node, f"more than {MAX_NODES} values with aliases expanded "
                         "(an alias bomb?)")
        data = loader.construct_document(node) if node is not None else None
        check_tree(data)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise SourceError(
            path, mark.line + 1 if mark else None, None, f"not valid YAML: {exc.problem}"
        ) from None
    except yaml.YAMLError as exc:
        raise SourceError(path, None, None, f"not valid YAML: {exc}") from None
    except (LimitError, RecursionError) as exc:
        reason = str(exc) if isinstance(exc, LimitError) else "nested too deeply"
        raise SourceError(path, None, None, f"not accepted: {reason}") from None
    except (ValueError, TypeError) as exc:  # a constructor's own complaint (a bad base64, ...)
        raise SourceError(path, None, None, f"not valid YAML: {exc}") from None
    finally:
        if loader is not None:
            loader.dispose()
    lines: dict[Loc, int] = {}
    if node is not None:
        _walk(node, (), lines)
    return YamlDoc(path, data, lines)


def load_value(text: str, source: str = "<value>") -> Any:
    """One YAML value from the command line (`KEY=VALUE`), within the same limits; the error
    names `source` without a line (a value has one)."""
    try:
        return load_text(text, source).data
    except SourceError as exc:
        raise SourceError(source, None, None, exc.detail) from None


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
