"""Bounded parsing of untrusted text: limits on size, depth and integers, UTF-8 only.

Every file and request tabletap reads comes from somewhere a mistake (or a curious child at the
console) can reach. Python's parsers will happily build a 1,000-level list (then RecursionError
somewhere later), an integer of 5,000 digits (ValueError deep inside), or keep a lone surrogate
that only fails when printed. These checks turn all of that into one ValueError with a sentence,
at the door. YAML's own limits (aliases, tags) live in yamldoc.
"""

from __future__ import annotations

import json
from typing import Any

MAX_BYTES = 1024 * 1024  # a config, scenario or request is a few kilobytes
MAX_DEPTH = 64  # nesting of lists and mappings
MAX_NODES = 200_000  # values in one document, aliases expanded
MAX_INT_DIGITS = 100  # no tabletap number is longer; Python refuses over 4,300 anyway


class LimitError(ValueError):
    """Input over one of the limits, or not valid text; the message says which."""


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
        line = data.count(b"\n", 0, exc.start) + 1
        raise LimitError(f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}, "
                         f"line {line}); save the file as UTF-8") from None


def check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise LimitError(f"not valid text (a lone surrogate {text[exc.start]!r} at offset "
                         f"{exc.start})") from None


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


def load_json(data: bytes | str, max_bytes: int = MAX_BYTES) -> Any:
    """Parse JSON within the limits; LimitError (a ValueError) with a sentence otherwise."""
    text = decode_utf8(data, max_bytes)
    try:
        value = json.loads(text, parse_int=_int, parse_constant=_constant)
    except RecursionError:
        raise LimitError(f"nested more than {MAX_DEPTH} levels deep") from None
    except json.JSONDecodeError as exc:
        raise LimitError(f"not valid JSON ({exc})") from None
    check_tree(value)
    return value
