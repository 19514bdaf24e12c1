"""Bounded parsing of untrusted text: limits on size, depth and integers, UTF-8 only.

Every file and request tabletap reads comes from somewhere a mistake (or a curious child at the
console) can reach. Python's parsers will happily build a 1,000-level list (then RecursionError
somewhere later), an integer of 5,000 digits (ValueError deep inside), or keep a lone surrogate
that only fails when printed. These checks turn all of that into one ValueError with a sentence,
at the door. YAML's own limits (aliases, tags) live in yamlparse.
"""

from __future__ import annotations

import json
from typing import Any

MAX_BYTES = 1024 * 1024  # a config, scenario or request is a few kilobytes
MAX_DEPTH = 64  # nesting of lists and mappings
MAX_NODES = 200_000  # values in one document, aliases expanded
MAX_INT_DIGITS = 100  # no tabletap number is longer; Python refuses over 4,300 anyway


class LimitError(ValueError):
    """Input over one of the limits, or not valid text; the message says which, and `line` and
    `column` (1-based, None when the whole input is at fault) say where, for the caller to put
    in front of it beside the file's name (`file:line:column: message`)."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line, self.column = line, column


def place(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column (in characters) of the character at `offset` in `text`."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def decode_utf8(data: bytes | str, max_bytes: int = MAX_BYTES) -> str:
    """The text of `data`, or LimitError naming the size limit or the first bad byte."""
    if len(data) > max_bytes:
        raise LimitError(f"{len(data)} bytes is over the limit of {max_bytes}")
    if isinstance(data, str):
        check_text(data)
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        line = data.count(b"\n", 0, exc.start) + 1
        column = len(data[line_start:exc.start].decode("utf-8", "replace")) + 1
        raise LimitError(f"not UTF-8 text (the byte 0x{data[exc.start]:02x}); save the file as "
                         "UTF-8", line, column) from None


def check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        line, column = place(text, exc.start)
        raise LimitError(f"not valid text (a lone surrogate {text[exc.start]!r})", line, column
                         ) from None


def check_int_text(text: str) -> None:
    digits = len(text.lstrip("+-").replace("_", ""))
    if digits > MAX_INT_DIGITS:
        raise LimitError(f"an integer of {digits} digits is over the limit of {MAX_INT_DIGITS}")


def check_tree(data: Any, max_depth: int = MAX_DEPTH, max_nodes: int = MAX_NODES) -> None:
    """Depth, size and text of parsed data, walked without recursion (shared parts counted
    every time they are reached, as any later walk would)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    nodes = 0
    while stack:
        value, depth = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            raise LimitError(f"more than {max_nodes} values (an alias bomb?)")
        if isinstance(value, str):
            check_text(value)
        elif isinstance(value, dict | list | tuple):
            if depth > max_depth:
                raise LimitError(f"nested more than {max_depth} levels deep")
            if isinstance(value, dict):
                for key, item in value.items():
                    stack.append((key, depth + 1))
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in value)


def _int(text: str) -> int:
    check_int_text(text)
    return int(text)


def _constant(name: str) -> float:
    raise LimitError(f"{name} is not a number JSON allows")


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are each given once: `{"undo": true, "undo": false}` is refused,
    not read as its last value."""
    value: dict[str, Any] = {}
    for key, item in pairs:
        if key in value:
            raise LimitError(f"the key {json.dumps(key)[:60]} is given twice in one object")
        value[key] = item
    return value


def load_json(data: bytes | str, max_bytes: int = MAX_BYTES) -> Any:
    """Parse JSON within the limits; LimitError (a ValueError) with a sentence otherwise."""
    text = decode_utf8(data, max_bytes)
    try:
        value = json.loads(text, parse_int=_int, parse_constant=_constant,
                           object_pairs_hook=_unique)
    except RecursionError:
        raise LimitError(f"nested more than {MAX_DEPTH} levels deep") from None
    except json.JSONDecodeError as exc:
        raise LimitError(f"not valid JSON ({exc})", exc.lineno, exc.colno) from None
    check_tree(value)
    return value
