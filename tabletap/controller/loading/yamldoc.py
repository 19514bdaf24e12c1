"""Safe YAML parsing that remembers where every key came from.

Config, scenario and game-data errors must name the file, line, column and key (a maker should
not have to guess which typo broke the box), so the YAML is composed once with the safe loader and
a map from key paths to their line and column is kept beside the plain data. A key given twice in
one mapping is refused with both lines named: YAML 1.2 requires unique keys, and PyYAML would
silently keep the later one (a second `game:` line would quietly start another game).
Pure (text in, data out), so the rules engines use it for their data files too; reading files is
controller.loading.source's job.
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
    place,
)
from tabletap.controller.loading.schema import Loc, SchemaError, check, loc_text

MAX_ALIASES = 100

M = TypeVar("M")


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


@dataclass
class YamlDoc:
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


def _walk(node: yaml.Node, loc: Loc, lines: dict[Loc, int], columns: dict[Loc, int]) -> None:
    if loc not in lines:
        lines[loc], columns[loc] = node.start_mark.line + 1, node.start_mark.column + 1
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node)
            mark = key_node.start_mark
            lines[loc + (key,)], columns[loc + (key,)] = mark.line + 1, mark.column + 1
            _walk(value_node, loc + (key,), lines, columns)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            mark = item.start_mark
            lines[loc + (i,)], columns[loc + (i,)] = mark.line + 1, mark.column + 1
            _walk(item, loc + (i,), lines, columns)


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

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        """A mapping whose keys are each given once. Keys are compared as constructed, the way
        the dict would (`yes` and `true` are one key); a merge (`<<: *base`) may still be
        overridden by a key written beside it, as YAML's merge type says."""
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, yaml.Node] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    first = seen.setdefault(key, key_node)
                except TypeError:  # an unhashable key: the constructor refuses it itself
                    continue
                if first is not key_node:
                    raise _Limit(key_node, f"the key {_key_text(key_node)} is given twice, on line "
                                 f"{first.start_mark.line + 1} and on line "
                                 f"{key_node.start_mark.line + 1}; YAML allows each key once "
                                 "in a mapping: keep the one you mean")
        return super().construct_mapping(node, deep)  # type: ignore[no-any-return]

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        try:
            check_int_text(str(node.value))
        except LimitError as exc:
            raise _Limit(node, str(exc)) from None
        return super().construct_yaml_int(node)  # type: ignore[no-any-return]


_BoundedLoader.add_constructor("tag:yaml.org,2002:int", _BoundedLoader.construct_yaml_int)


def _key_text(node: yaml.Node) -> str:
    """A key as the file writes it (`yes`, not the True it stands for)."""
    text = node.value if isinstance(node, yaml.ScalarNode) else node.tag
    return f"`{text:.60}`"


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
        raise SourceError(path, exc.line, None, str(exc), exc.column) from None
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
            path, mark.line + 1 if mark else None, None, f"not valid YAML: {exc.problem}",
            mark.column + 1 if mark else None,
        ) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow (a NUL, say)
        line, column = place(text, exc.position)
        raise SourceError(path, line, None, f"not accepted: the character "
                          f"U+{exc.character:04X} is not allowed in YAML text (is it a binary "
                          "file, or saved with the wrong encoding?)", column) from None
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
    columns: dict[Loc, int] = {}
    if node is not None:
        _walk(node, (), lines, columns)
    return YamlDoc(path, data, lines, columns)


def load_value(text: str, source: str = "<value>") -> Any:
    """One YAML value from the command line (`KEY=VALUE`), within the same limits; the error
    names `source` without a line (a value has one)."""
    try:
        return load_text(text, source).data
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
