"""Parsed YAML documents kept between the daemon's starts, so an unchanged file skips PyYAML.

The daemon reads the same YAML files at every start (the table's config, the game's data, the
UID registry), and PyYAML's import with their parse was 18 % of its start in
instructions (docs/BENCHMARKS.md, "The start without PyYAML"). So a document, once parsed, is
kept (controller.startcache, in the state folder systemd gives the daemon) with the text it
came from, and the next start that reads the same text gets the same data, lines and columns
back without importing PyYAML.

A kept document is used only when the text read now is exactly the text it was parsed from and
the parser's own code (yamlparse.py, bounded.py) is the same, byte for byte; anything else is
parsed as before, and kept again.
"""

from __future__ import annotations

import logging
import zlib
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

from tabletap.controller import startcache
from tabletap.controller.loading.located import YamlDoc
from tabletap.controller.loading.schema import Loc

# Raise when what is kept changes shape or meaning in a way the parser's bytes do not show.
FORMAT = 1
# The modules whose code decides what a text parses to: any change to them is a miss.
_PARSER = ("yamlparse.py", "bounded.py")

log = logging.getLogger(__name__)


class _Kept(msgspec.Struct, array_like=True):
    stamp: int
    path: str
    text: str
    data: Any
    keys: list[tuple[tuple[str | int, ...], int, int]]


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(_Kept)


@cache
def _stamp() -> int:
    """The parser's code and this file's format, in one number."""
    crc = zlib.crc32(f"tabletap doccache {FORMAT}".encode())
    here = Path(__file__).parent
    for name in _PARSER:
        crc = zlib.crc32(here.joinpath(name).read_bytes(), crc)
    return crc


def _name(path: str) -> str:
    """One file per document label: a second label with the same CRC replaces it (a miss
    later, never a wrong hit: the text itself is compared)."""
    return f"{zlib.crc32(path.encode('utf-8', 'surrogatepass')):08x}.doc"


def recall(text: str, path: str) -> YamlDoc | None:
    """The document parsed from exactly `text` before, or None (no cache, not kept, changed,
    damaged)."""
    body = startcache.read(_name(path))
    if body is None:
        return None
    try:
        kept = _decoder.decode(body)
        if kept.stamp != _stamp() or kept.path != path or kept.text != text:
            return None
    except (OSError, ValueError, RecursionError, msgspec.DecodeError) as exc:
        log.debug("the kept document %s is not used: %s", path, exc)
        return None
    lines: dict[Loc, int] = {}
    columns: dict[Loc, int] = {}
    for loc, line, column in kept.keys:
        lines[loc], columns[loc] = line, column
    return YamlDoc(path, kept.data, lines, columns)


def keep(text: str, doc: YamlDoc) -> None:
    """Keep `doc`, parsed from `text`, for the next start; nothing happens where that fails."""
    if startcache.folder() is None:
        return
    try:
        keys = [(loc, line, doc.columns[loc]) for loc, line in doc.lines.items()]
        body = _encoder.encode(_Kept(_stamp(), doc.path, text, doc.data, keys))
    except (OSError, KeyError, TypeError, OverflowError) as exc:
        # OverflowError: an integer msgpack cannot hold (over 64 bits); TypeError: a value it
        # cannot encode. Either way the file is parsed at every start, as before.
        log.debug("the document %s is not kept: %s", doc.path, exc)
        return
    startcache.write(_name(doc.path), body)
