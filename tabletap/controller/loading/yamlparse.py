"""PyYAML behind the limits: the safe loader with bounds on nesting, aliases and tags, and a
key given twice in one mapping refused with both lines named.

YAML 1.2 requires unique keys, and PyYAML would silently keep the later one (a second `game:`
line would quietly start another game). Timestamps stay text (no implicit dates), explicit tags
are refused, and every key's line and column is kept beside the data (loading.located).
Importing PyYAML is a tenth of the daemon's start on a small Pi (its reader compiles a large
character class at import), so this module is imported only when a document must really be
parsed: a document unchanged since the last start comes from loading.doccache instead.
"""

from __future__ import annotations

from typing import Any

import yaml

from tabletap.controller.loading.bounded import (
    MAX_DEPTH,
    MAX_NODES,
    LimitError,
    check_int_text,
    check_tree,
    place,
)
from tabletap.controller.loading.located import SourceError, YamlDoc
from tabletap.controller.loading.schema import Loc

MAX_ALIASES = 100


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


def parse(text: str, path: str) -> YamlDoc:
    """Parse checked text (loading.yamldoc.load_text checks its size and characters first);
    a located SourceError for anything YAML or the limits refuse."""
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
